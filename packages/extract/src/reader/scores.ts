import type { Block, BlockTree } from '../html/blockTree.js';
import { linkDensity, type SubtreeMeasures } from './measures.js';
import { chosenName, nameWeight } from './names.js';
import type { Paragraph } from './paragraphs.js';

/** A paragraph shorter than this (non-space characters) is a label, not prose: it scores nothing. */
const MIN_PARAGRAPH_CHARS = 25;
/** A paragraph scores one point per this many characters, up to `MAX_LENGTH_POINTS`. */
const CHARS_PER_POINT = 100;
const MAX_LENGTH_POINTS = 3;
/** How many blocks, from the paragraph's container up, share its score. */
const SCORED_ANCESTORS = 5;
/** A paragraph this long (non-space characters) is prose, not a teaser, caption or label. */
export const LONG_PARAGRAPH_CHARS = 150;

/** A container's score before its paragraphs: what its tag says about it. */
const TAG_SCORES: Readonly<Record<string, number>> = {
  div: 5,
  article: 5,
  main: 5,
  pre: 3,
  td: 3,
  blockquote: 3,
  address: -3,
  ol: -3,
  ul: -3,
  dl: -3,
  dd: -3,
  dt: -3,
  li: -3,
  form: -3,
  h1: -5,
  h2: -5,
  h3: -5,
  h4: -5,
  h5: -5,
  h6: -5,
  th: -5,
};

/** What the paragraphs say about the blocks that hold them. */
export interface ContentScores {
  /** Content score of every block that holds scored paragraphs (see `contentScores`). */
  readonly scores: Float64Array;
  /** 1 for the blocks that have a content score. */
  readonly scored: Uint8Array;
  /** Points of the scored paragraphs anywhere in each block's subtree, undivided. */
  readonly points: Float64Array;
  /** Paragraphs of at least `LONG_PARAGRAPH_CHARS` anywhere in each block's subtree. */
  readonly longParagraphs: Float64Array;
}

/**
 * Readability's content score, on the block tree. A paragraph of at least 25 characters earns 1
 * point, one per comma, and one per 100 characters (at most 3), times the share of its text that
 * is not link text — Readability does not discount link text here, and a paragraph of a thousand
 * commas that is a list of linked names (a fan site's "kudos") then outscored the story. Its container gets the whole earning, the next block up half,
 * the three above a sixth, a ninth and a twelfth (1 / (3 × level)), so the block that holds many
 * paragraphs itself wins over the page's wrapper. A block's score starts from what its tag and,
 * when `weighNames`, its id and class say (`nameWeight`), and is finally multiplied by the share of
 * its subtree's text that is not link text. Sections of prose score too, as Readability scores
 * them (`sectionsOfProse`); `excluded` are the blocks set aside, whose sections do not.
 */
export function contentScores(
  tree: BlockTree,
  measures: SubtreeMeasures,
  paragraphs: readonly Paragraph[],
  excluded: Uint8Array,
  weighNames: boolean,
): ContentScores {
  const n = tree.blocks.length;
  const scores = new Float64Array(n);
  const scored = new Uint8Array(n);
  const points = new Float64Array(n);
  const longParagraphs = new Float64Array(n);
  /** Gives `earned` to `from` and the blocks above it, as many as `SCORED_ANCESTORS`, stopping at `stop`. */
  const credit = (from: Block, earned: number, stop: Block | null): void => {
    let level = 0;
    for (let block: Block | null = from; block && block !== stop && level < SCORED_ANCESTORS; block = block.parent, level++) {
      if (!scored[block.index]) {
        scored[block.index] = 1;
        scores[block.index] = (TAG_SCORES[block.tag] ?? 0) + (weighNames ? nameWeight(chosenName(tree, block)) : 0);
      }
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores[block.index] = (scores[block.index] as number) + earned / divider;
    }
  };
  for (const paragraph of paragraphs) {
    if (paragraph.chars >= LONG_PARAGRAPH_CHARS) {
      for (let block: Block | null = paragraph.owner; block; block = block.parent) longParagraphs[block.index] = (longParagraphs[block.index] as number) + 1;
    }
    if (paragraph.chars < MIN_PARAGRAPH_CHARS) continue;
    const earned = earning(paragraph.chars, paragraph.commas, paragraph.linkDensity);
    for (let block: Block | null = paragraph.owner; block; block = block.parent) points[block.index] = (points[block.index] as number) + earned;
    credit(paragraph.scoredFrom, earned, null);
  }
  const body = tree.blocks[1];
  for (const section of sectionsOfProse(tree, excluded, longParagraphs)) {
    const earned = earning(measures.chars[section.index] as number, measures.commas[section.index] as number, linkDensity(measures, section));
    if (section.parent) credit(section.parent, earned, body ?? null);
  }
  for (let i = 0; i < n; i++) {
    if (scored[i]) scores[i] = (scores[i] as number) * (1 - linkDensity(measures, tree.blocks[i] as Block));
  }
  return { scores, scored, points, longParagraphs };
}

/** What a paragraph earns: 1 point, one per comma, one per 100 characters (at most 3), times the share of its text that is not link text. */
function earning(chars: number, commas: number, linkDensity: number): number {
  return (1 + commas + Math.min(Math.floor(chars / CHARS_PER_POINT), MAX_LENGTH_POINTS)) * (1 - linkDensity);
}

/**
 * The `<section>`s that Readability would score as paragraphs: it scores every `<section>` like a
 * `<p>`, with the text of its whole subtree, so that the block holding a page's sections outscores
 * any one of them — pages built of sections (a service page, a documentation page, a long read in
 * chapters) are read whole rather than as their wordiest section. Two restraints (figures:
 * docs/evaluation.md, docs/design.md):
 * - only sections holding a long paragraph count: a section of labels or links (a product's spec
 *   sheet, a listing's cards) is not prose;
 * - their score stops below BODY: a page whose body holds two sections (a story and a grid of
 *   teasers) otherwise read as the whole page.
 * Sections inside set-aside blocks do not count; the section's own name does not matter.
 */
function sectionsOfProse(tree: BlockTree, excluded: Uint8Array, longParagraphs: Float64Array): Block[] {
  // `excludedBlocks` marks every block of a set-aside subtree, so one look at a block's own mark is enough.
  return tree.blocks.filter((block) => block.tag === 'section' && !excluded[block.index] && (longParagraphs[block.index] as number) >= 1);
}
