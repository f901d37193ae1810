import { type Block, type BlockTree, isInSubtree } from '../html/blockTree.js';
import { ownText } from '../html/blockLines.js';
import { linkDensity, type SubtreeMeasures } from './measures.js';
import type { ContentScores } from './scores.js';
import { isTeaserList } from './cleaning.js';

/** Candidates compared with the best one when looking for a container they share. */
const TOP_CANDIDATES = 5;
/** A candidate scoring at least this share of the best one is a near-equal part of the article. */
const NEAR_TOP_SHARE = 0.75;
/** Near-equal candidates that, inside one ancestor, make that ancestor the article. */
const MIN_NEAR_TOP = 3;
/** The article climbs to a higher-scoring ancestor only while it holds less than this share of the ancestor's paragraph points. */
const CLIMB_SHARE = 0.7;
/**
 * The article climbs only to an ancestor scoring more than this share of the article's own score.
 * Readability's climb compares an ancestor with the block just below it, whose score may have
 * fallen far under the article's: ria.ru's story column (31.5) outscored the wrapper of the story's
 * tabs (30.4) by a point, far under the story's own 61.6, and brought in the "context" and comments
 * tabs beside the story. Chosen on every shared dataset (docs/design.md).
 */
const CLIMB_SCORE_SHARE = 0.6;
/** A sibling scoring at least this share of the article's score (and at least `MIN_SIBLING_SCORE`) joins it. */
const SIBLING_SHARE = 0.2;
const MIN_SIBLING_SCORE = 10;
/** A sibling joins by its score only with at least this many long paragraphs. */
const MIN_SIBLING_LONG_PARAGRAPHS = 1;
/** A `<p>` beside the article joins it when longer than this with little link text, or shorter, linkless and a sentence. */
const SIBLING_PARAGRAPH_CHARS = 80;
const SIBLING_PARAGRAPH_LINK_DENSITY = 0.25;
const ENDS_SENTENCE = /\.(?:\s|$)/;

/**
 * The blocks that make up the article, in document order: its best container, the siblings that
 * join it and its namesakes. Readability's choice of the article, on the block tree:
 * 1. The block with the highest content score; but when at least three of the next four come near
 *    it (three quarters of its score) and share an ancestor, that ancestor (an article that a
 *    banner or a page builder splits into several containers). Unlike Readability, that ancestor
 *    may be BODY: a page of equal sections laid out directly in the body.
 * 2. Up through ancestors that score higher — only while the article holds less than 70% of the
 *    ancestor's paragraph points, and only to one scoring 60% of the article (`CLIMB_SCORE_SHARE`).
 *    Readability climbs whenever the parent scores higher than the block below it, and a parent
 *    named `main-content` beside a story named `story-body` outscores it by its name alone and
 *    brings in the teasers around the story.
 * 3. Up through wrappers that hold nothing else.
 * 4. Siblings join when they score a fifth of the article (with a bonus of a fifth for the same
 *    class) and hold a paragraph of 150 characters — teaser boxes beside a story score a fifth of
 *    it as well, and what siblings without such a paragraph bring is mostly not gold; not a list of
 *    teasers (`isTeaserList`: a tab of related stories, each with a standfirst of 150 characters) —
 *    or when they are paragraphs of prose (`asParagraph`).
 * 5. Blocks elsewhere named like the best candidate, under a parent named like its parent, join
 *    too (`withNamesakes`): the rest of a story the page split into two wrappers, the other
 *    sections of a page laid out in rows, the other answers of a thread.
 * Null when no block holds a scored paragraph.
 */
export function chooseArticle(tree: BlockTree, measures: SubtreeMeasures, scores: ContentScores): readonly Block[] | null {
  const scoreOf = (block: Block): number => scores.scores[block.index] as number;
  const pointsOf = (block: Block): number => scores.points[block.index] as number;
  const candidates = topCandidates(tree.blocks, scores);
  const best = candidates[0];
  if (!best) return null;
  const body = tree.blocks[1] as Block;
  if (best.index <= body.index) return [body];

  let top = sharedAncestorOfNearEquals(best, candidates.slice(1), scoreOf, body) ?? best;
  const articleScore = scoreOf(top);
  let lastScore = articleScore;
  const floor = articleScore / 3;
  for (let parent = top.parent; parent && parent.index > body.index; parent = parent.parent) {
    if (!scores.scored[parent.index]) continue;
    const parentScore = scoreOf(parent);
    if (parentScore < floor) break;
    if (parentScore > lastScore && parentScore > CLIMB_SCORE_SHARE * articleScore && pointsOf(top) < CLIMB_SHARE * pointsOf(parent)) {
      top = parent;
      break;
    }
    lastScore = parentScore;
  }
  while (top.parent && top.parent.index > body.index && isOnlyChild(top, measures)) top = top.parent;

  const parent = top.parent;
  if (!parent) return [top];
  const topScore = scoreOf(top);
  const threshold = Math.max(MIN_SIBLING_SCORE, topScore * SIBLING_SHARE);
  const topClass = classOf(top);
  const insideClasses = classesInside(tree, top);
  const parts: Block[] = [];
  for (const item of parent.items) {
    if (typeof item !== 'object') continue;
    const bonus = topClass !== '' && classOf(item) === topClass ? topScore * SIBLING_SHARE : 0;
    const joinsByScore =
      scores.scored[item.index] === 1 &&
      scoreOf(item) + bonus >= threshold &&
      (scores.longParagraphs[item.index] as number) >= MIN_SIBLING_LONG_PARAGRAPHS &&
      (item === top || !isTeaserList(tree.blocks, measures, item));
    const paragraph = asParagraph(item, insideClasses);
    if (item === top || joinsByScore || (paragraph && isProseParagraph(paragraph, measures))) parts.push(item);
  }
  return withNamesakes(tree, parts, best, threshold, scoreOf, scores);
}

/**
 * The parts, with the article's namesakes elsewhere on the page, in document order: the outermost
 * blocks outside the parts named like the best candidate, under a parent named like its parent
 * (`namedShape`), that score like a joining sibling and hold a long paragraph. A story the page
 * splits into `story-body-1` and `story-body-2` in two wrappers, or into sections laid out in
 * separate rows, keeps all of them; a teaser box or a sidebar's `content` block is named, or sits,
 * otherwise. Only the first class token (`hentry`, Drupal's `content`) took teasers and sidebar
 * boxes along.
 */
function withNamesakes(
  tree: BlockTree,
  parts: readonly Block[],
  best: Block,
  threshold: number,
  scoreOf: (block: Block) => number,
  scores: ContentScores,
): readonly Block[] {
  const shape = namedShape(best);
  if (shape === '') return parts;
  const namesakes: Block[] = [];
  const { blocks } = tree;
  // One pass in document order; the parts are siblings in document order, so the next one not yet passed is all there is to skip.
  let next = 0;
  for (let i = 2; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    const part = parts[next];
    if (part && part.index <= i) {
      i = part.end - 1;
      next++;
      continue;
    }
    if (part && block.end > part.index) continue; // an ancestor of a part
    const joins = scores.scored[i] === 1 && scoreOf(block) >= threshold && (scores.longParagraphs[i] as number) >= MIN_SIBLING_LONG_PARAGRAPHS;
    if (joins && namedShape(block) === shape) {
      namesakes.push(block);
      i = block.end - 1;
    }
  }
  return namesakes.length === 0 ? parts : [...parts, ...namesakes].sort((a, b) => a.index - b.index);
}

/** Tag and class of a block and of its parent, without the class tokens that number things (`story-body-2`, `post-181621`); empty when the block has no such class. */
function namedShape(block: Block): string {
  const own = stableClasses(block);
  if (own === '' || !block.parent) return '';
  return `${block.parent.tag}[${stableClasses(block.parent)}] ${block.tag}[${own}]`;
}

/** The stable classes (`stableClasses`) of the blocks inside a block. */
function classesInside(tree: BlockTree, block: Block): Set<string> {
  const classes = new Set<string>();
  for (let i = block.index + 1; i < block.end; i++) classes.add(stableClasses(tree.blocks[i] as Block));
  classes.delete('');
  return classes;
}

function stableClasses(block: Block): string {
  return classOf(block)
    .split(/\s+/)
    .filter((token) => token !== '' && !/\d/.test(token))
    .sort()
    .join(' ');
}

/** The best `TOP_CANDIDATES` scored blocks, best first. */
function topCandidates(blocks: readonly Block[], { scores, scored }: ContentScores): Block[] {
  const best: Block[] = [];
  for (const block of blocks) {
    if (!scored[block.index]) continue;
    const score = scores[block.index] as number;
    let at = best.length;
    while (at > 0 && score > (scores[(best[at - 1] as Block).index] as number)) at--;
    if (at < TOP_CANDIDATES) {
      best.splice(at, 0, block);
      if (best.length > TOP_CANDIDATES) best.pop();
    }
  }
  return best;
}

/** The nearest ancestor of `best` that holds `MIN_NEAR_TOP` candidates scoring near it; null when none. */
function sharedAncestorOfNearEquals(best: Block, others: readonly Block[], scoreOf: (block: Block) => number, body: Block): Block | null {
  const nearEquals = others.filter((candidate) => scoreOf(candidate) >= NEAR_TOP_SHARE * scoreOf(best));
  if (nearEquals.length < MIN_NEAR_TOP) return null;
  for (let ancestor = best.parent; ancestor && ancestor.index >= body.index; ancestor = ancestor.parent) {
    const inside = nearEquals.filter((candidate) => isInSubtree(candidate, ancestor)).length;
    if (inside >= MIN_NEAR_TOP) return ancestor;
  }
  return null;
}

/** True when a block's parent holds no other block and no text of its own. */
function isOnlyChild(block: Block, measures: SubtreeMeasures): boolean {
  const parent = block.parent as Block;
  if ((measures.chars[parent.index] as number) !== (measures.chars[block.index] as number)) return false;
  let children = 0;
  for (const item of parent.items) if (typeof item === 'object') children++;
  return children === 1;
}

/**
 * The paragraph a sibling of the article is, or null: a `<p>`; a `<div>` holding one `<p>` and no
 * text of its own, which Readability unwraps (telegraph.co.uk wraps a story's first paragraphs so,
 * and the first five were lost); a `<div>` holding text and no block, which Readability
 * reads as a `<p>`, only when named like a block inside the article (cnn.com's lead paragraphs
 * `div.zn-body__paragraph` beside the rest of the story, whose paragraphs are named so). Any such
 * `<div>`, as Readability does, also took disclaimers and comment rules along.
 * Figures: docs/evaluation.md, docs/design.md.
 */
function asParagraph(block: Block, insideClasses: ReadonlySet<string>): Block | null {
  if (block.tag === 'p') return block;
  if (block.tag !== 'div') return null;
  const children = block.items.filter((item): item is Block => typeof item === 'object');
  if (children.length === 0) return insideClasses.has(stableClasses(block)) ? block : null;
  const only = children[0] as Block;
  return children.length === 1 && only.tag === 'p' && ownText(block).trim() === '' ? only : null;
}

function isProseParagraph(paragraph: Block, measures: SubtreeMeasures): boolean {
  const chars = measures.chars[paragraph.index] as number;
  const density = linkDensity(measures, paragraph);
  if (chars > SIBLING_PARAGRAPH_CHARS) return density < SIBLING_PARAGRAPH_LINK_DENSITY;
  return chars > 0 && density === 0 && ENDS_SENTENCE.test(ownText(paragraph));
}

/** The class attribute of a block (its `hint` is "id class"). */
function classOf(block: Block): string {
  return block.hint.slice(block.hint.indexOf(' ') + 1);
}
