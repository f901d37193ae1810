import type { Block, BlockTree } from '../html/blockTree.js';
import { dataTableMarks } from '../html/linkLists.js';
import { HEADINGS, type SubtreeMeasures } from './measures.js';
import { chosenName, isWidgetName, nameWeight } from './names.js';
import { dropRelatedBoxes } from './relatedLabels.js';

/** Blocks the cleaning judges by their content: tables, lists and containers. */
const JUDGED_TAGS: ReadonlySet<string> = new Set(['table', 'ul', 'ol', 'div', 'section', 'form', 'fieldset', 'aside', 'header', 'footer', 'nav']);
/** A judged block with at least this many commas is prose and stays. */
const PROSE_COMMAS = 10;
/** Share of a block's text inside lists above which the block is a list. */
const LIST_SHARE = 0.9;
/** Link text above this share drops a block; above the second when its name says content. */
const MAX_LINK_DENSITY = 0.2;
const MAX_LINK_DENSITY_NAMED_CONTENT = 0.5;
/** A block with less text than this (non-space characters), mostly not a heading, holds no prose. */
const MIN_CHARS = 25;
const HEADING_SHARE = 0.9;
/**
 * A `<div>` with no line-breaking block inside (text, links and inline markup only) of at least
 * this many non-space characters is a paragraph written as a div: the link-density rule judges it
 * as a paragraph (`isProseDiv`).
 */
const PROSE_DIV_CHARS = 100;
/** Paragraphs a block needs per input (3: Readability's) for its inputs not to make it a form. */
const INPUTS_PER_PARAGRAPHS = 3;
/** Images per paragraph above which a block is a gallery or a row of teasers. */
const MAX_IMAGES_PER_PARAGRAPH = 2;
/** Containers that stay when they sit between paragraphs of prose (`betweenProse`) and hold at most half link text. */
const SECTION_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'header']);
/** A container between prose with less text than this (non-space characters) is still judged by its link text. */
const MIN_SECTION_CHARS = 50;
/** A paragraph of prose, as `betweenProse` counts them: a line of its own with this much text ... */
const PROSE_PARAGRAPH_CHARS = 80;
/** ... and at most this share of link text. */
const PROSE_PARAGRAPH_LINK_DENSITY = 0.3;

/**
 * Readability's conditional cleaning on the block tree. Inside the article, a table, list or
 * container is dropped when its name counts against it, or — when it holds fewer than 10 commas —
 * when it does not read as prose: more than two images a paragraph (outside figures), more fields
 * to type into than a third of its paragraphs (a sign-up or search box, often built without
 * `<form>`), almost no text with a link in it, or link text above a fifth (unless it is a list,
 * whose links the link-list rule judges entry by entry), or above a half when its name says
 * content. Data tables (with header cells or a caption) and preformatted text are never judged. Blocks are judged deepest first, each
 * on what its dropped descendants leave, and dropped subtrees are marked in `dropped`.
 *
 * Readability's rule "more list items than paragraphs, beyond 100" changed no page of the shared
 * datasets and is left out. Each kept rule, disabled alone, lowers the shingle F1 of at least two
 * datasets; the cleaning as a whole lowers wcxb (its gold keeps product grids and link-heavy
 * service pages) and cleaneval, and raises the other four more. Figures: docs/evaluation.md,
 * docs/design.md.
 * Teasers of other pages go first (`dropTeasers`), then boxes under a related label
 * (`dropRelatedBoxes`). With `proseSections` (the `reader` method's reading, not the pipeline's:
 * `ReadingOptions`), sections between the article's paragraphs stay (`isSectionOfProse`), and so
 * does such a section named only as a widget when it holds a paragraph of prose of its own: a
 * review site's award boxes (`c-product-widget`) carry the article on after its first paragraphs,
 * and were dropped for their name (reviewed.com 0.16 -> 0.94); a market-data widget between two
 * paragraphs holds no prose and still goes. Reader on wcxb: WCXB word F1 0.8499 -> 0.8512,
 * shingle 0.8437 -> 0.8445 (7 pages up, 4 down: Elementor pages whose longer article no longer
 * reads as a fragment of the main block, which held their opening section); the six other
 * datasets unchanged.
 */
export function cleanConditionally(tree: BlockTree, measures: SubtreeMeasures, parts: readonly Block[], dropped: Uint8Array, proseSections = false): void {
  const { blocks } = tree;
  dropTeasers(blocks, measures, parts, dropped);
  dropRelatedBoxes(blocks, measures, parts, dropped);
  const neverJudged = dataTablesAndCode(blocks, measures, parts);
  // Without sections of prose to keep, no paragraph counts: no block is between two.
  const prose = proseSections ? proseBefore(blocks, measures, parts, dropped) : new Int32Array(blocks.length + 1);
  for (const part of parts) {
    for (let i = part.end - 1; i >= part.index; i--) {
      const block = blocks[i] as Block;
      if (dropped[i] || neverJudged[i] || !JUDGED_TAGS.has(block.tag)) continue;
      if (readsAsNoise(tree, block, measures, dropped, prose)) dropped.fill(1, i, block.end);
    }
  }
}

interface Counts {
  chars: number;
  linkChars: number;
  textChars: number;
  commas: number;
  paragraphs: number;
  images: number;
  inputs: number;
  headingChars: number;
  listChars: number;
}

function readsAsNoise(tree: BlockTree, block: Block, measures: SubtreeMeasures, dropped: Uint8Array, prose: Int32Array): boolean {
  const { blocks } = tree;
  const name = chosenName(tree, block);
  const weight = nameWeight(name);
  // Named against: dropped before its subtree is counted, unless a widget holding prose of its own.
  if (weight < 0 && !(isWidgetName(name) && holdsProse(block, prose))) return true;
  const counts = countsLeft(blocks, block, measures, dropped);
  const density = counts.textChars === 0 ? 0 : counts.linkChars / counts.textChars;
  if (weight < 0) return !isSectionOfProse(block, counts, density, prose);
  if (counts.commas >= PROSE_COMMAS) return false;
  const isList = block.tag === 'ul' || block.tag === 'ol' || (counts.chars > 0 && counts.listChars / counts.chars > LIST_SHARE);
  const headingShare = counts.chars === 0 ? 0 : counts.headingChars / counts.chars;
  const inFigure = hasAncestor(block, 'figure');
  if (!inFigure && counts.images > 1 && counts.images > MAX_IMAGES_PER_PARAGRAPH * counts.paragraphs && !isSectionOfProse(block, counts, density, prose))
    return true;
  if (counts.inputs > Math.floor(counts.paragraphs / INPUTS_PER_PARAGRAPHS)) return true;
  if (!isList && !inFigure && headingShare < HEADING_SHARE && counts.chars < MIN_CHARS && (counts.images === 0 || counts.images > 2) && density > 0)
    return true;
  if (
    !isList &&
    weight <= 0 &&
    density > MAX_LINK_DENSITY &&
    !isSectionOfProse(block, counts, density, prose) &&
    !(isProseDiv(block, counts, measures) && density <= MAX_LINK_DENSITY_NAMED_CONTENT)
  )
    return true;
  return weight > 0 && density > MAX_LINK_DENSITY_NAMED_CONTENT;
}

/**
 * A `<div>` holding text and inline markup only, a paragraph's worth of it (`PROSE_DIV_CHARS`): a
 * paragraph of a page that writes its paragraphs as divs (Blogger's posts: `<div>text <a>link</a>
 * text</div>`). Readability turns such a div into a `<p>` before it cleans, and never judges a
 * `<p>`; here, the fifth of link text that drops a container does not drop it, and only more than
 * half (`MAX_LINK_DENSITY_NAMED_CONTENT`) does: a sentence citing three sources in links is prose, a
 * line of links is not. Issue 38: paragraphs dropped inside the article.
 */
function isProseDiv(block: Block, counts: Counts, measures: SubtreeMeasures): boolean {
  return block.tag === 'div' && !measures.hasLineBlock[block.index] && counts.chars >= PROSE_DIV_CHARS;
}

/**
 * A section of the text between its paragraphs (issue 38: gold cleaned out from inside the
 * article): a `div`, `section` or `header` (`SECTION_TAGS`) with at least `MIN_SECTION_CHARS` of
 * text and at most half link text (`MAX_LINK_DENSITY_NAMED_CONTENT`), with a paragraph of prose of
 * the article before it and another after it (`betweenProse`). The fifth of link text that drops
 * a container does not drop it: a heading and a paragraph that link to a chapter, a product or a
 * source, set between the article's own paragraphs, are the article (wcxb's guides, product and
 * service pages: Moz's chapters, a shop's "top brands" paragraph, a review's spec blocks). A box
 * of related links after the story, or a list of comments below it, has prose on one side only and
 * is judged as before. Such a section is not dropped for its photos either (more than two per
 * paragraph): a row of product photos with their names, or a step of a recipe or a guide with its
 * pictures, between two paragraphs is the article's (wcxb 0.83153 -> 0.83226, 52 sites changed:
 * discord.com, onepagecrm.com, accenture.com +0.16-0.20, store.steampowered.com and ebay.com
 * lower; daniel 0.90901 -> 0.90981, cleaneval +0.0003, scrapinghub -0.0005 (thesun.co.uk),
 * dragnet -0.0001, readability -0.00001, cleanportaleval unchanged). Measured per rule over wcxb,
 * the link-density rule removed about 21,000 gold words and 18,000 other words; in its divs between prose with 0.2-0.5 link text, 6,900 gold
 * words and 2,400 other words, where daniel, scrapinghub and cleanportaleval had almost no gold.
 * Reader shingle F1 without and with: wcxb 0.82975 and 0.83153 (113 sites changed, mostly up),
 * scrapinghub 0.97070 and 0.97098, cleaneval 0.90370 and 0.90390, daniel 0.90929 and 0.90901,
 * dragnet 0.91202 and 0.91187, cleanportaleval 0.93914 and 0.93893, readability 0.97022 and
 * 0.97019 (docs/design.md).
 */
function isSectionOfProse(block: Block, counts: Counts, density: number, prose: Int32Array): boolean {
  return SECTION_TAGS.has(block.tag) && counts.chars >= MIN_SECTION_CHARS && density <= MAX_LINK_DENSITY_NAMED_CONTENT && betweenProse(block, prose);
}

/**
 * For each block index, the paragraphs of prose of the article's parts before it in document
 * order (the last entry: all of them). A paragraph of prose is a line-breaking block with no
 * line-breaking block inside, `PROSE_PARAGRAPH_CHARS` of text and at most
 * `PROSE_PARAGRAPH_LINK_DENSITY` link text, not set aside before the cleaning. One pass over the
 * parts and one over the page.
 */
function proseBefore(blocks: readonly Block[], measures: SubtreeMeasures, parts: readonly Block[], dropped: Uint8Array): Int32Array {
  const marks = new Uint8Array(blocks.length);
  for (const part of parts) {
    for (let i = part.index; i < part.end; i++) {
      const block = blocks[i] as Block;
      if (dropped[i]) {
        i = block.end - 1;
        continue;
      }
      const chars = measures.chars[i] as number;
      const linkChars = measures.linkChars[i] as number;
      const textChars = measures.textChars[i] as number;
      if (block.breaksLine && !measures.hasLineBlock[i] && chars >= PROSE_PARAGRAPH_CHARS && linkChars <= PROSE_PARAGRAPH_LINK_DENSITY * textChars)
        marks[i] = 1;
    }
  }
  const before = new Int32Array(blocks.length + 1);
  for (let i = 0; i < blocks.length; i++) before[i + 1] = (before[i] as number) + (marks[i] as number);
  return before;
}

/** Whether the article has a paragraph of prose before the block and another after its subtree (`proseBefore`). */
function betweenProse(block: Block, prose: Int32Array): boolean {
  return (prose[block.index] as number) > 0 && (prose[prose.length - 1] as number) > (prose[block.end] as number);
}

/** Whether the block holds a paragraph of prose of its own (`proseBefore`). */
function holdsProse(block: Block, prose: Int32Array): boolean {
  return (prose[block.end] as number) > (prose[block.index] as number);
}

/** A block's subtree counts without the subtrees already dropped inside it. */
function countsLeft(blocks: readonly Block[], block: Block, measures: SubtreeMeasures, dropped: Uint8Array): Counts {
  const counts: Counts = { chars: 0, linkChars: 0, textChars: 0, commas: 0, paragraphs: 0, images: 0, inputs: 0, headingChars: 0, listChars: 0 };
  const add = (i: number, sign: number): void => {
    counts.chars += sign * (measures.chars[i] as number);
    counts.linkChars += sign * (measures.linkChars[i] as number);
    counts.textChars += sign * (measures.textChars[i] as number);
    counts.commas += sign * (measures.commas[i] as number);
    counts.paragraphs += sign * (measures.paragraphs[i] as number);
    counts.images += sign * (measures.images[i] as number);
    counts.inputs += sign * (measures.inputs[i] as number);
    counts.headingChars += sign * (measures.headingChars[i] as number);
  };
  add(block.index, 1);
  for (let i = block.index + 1; i < block.end; i++) {
    if (!dropped[i]) continue;
    add(i, -1);
    i = (blocks[i] as Block).end - 1;
  }
  for (let i = block.index + 1; i < block.end; i++) {
    const inner = blocks[i] as Block;
    if (dropped[i]) {
      i = inner.end - 1;
    } else if (inner.tag === 'ul' || inner.tag === 'ol') {
      counts.listChars += charsLeft(blocks, inner, measures, dropped);
      i = inner.end - 1;
    }
  }
  return counts;
}

/** Characters of a block's subtree without its dropped subtrees. */
function charsLeft(blocks: readonly Block[], block: Block, measures: SubtreeMeasures, dropped: Uint8Array): number {
  let chars = measures.chars[block.index] as number;
  for (let i = block.index + 1; i < block.end; i++) {
    if (!dropped[i]) continue;
    chars -= measures.chars[i] as number;
    i = (blocks[i] as Block).end - 1;
  }
  return chars;
}

/**
 * Marks data tables and preformatted text, with everything inside them and the wrappers around a
 * data table that hold nothing else (`<div class="table-scroll"><table>`): they are never judged.
 * A wrapper was judged on the table's own text, and a table of linked names and figures ("Quanta
 * Services Inc. | $7.7B") read as a box of links.
 */
function dataTablesAndCode(blocks: readonly Block[], measures: SubtreeMeasures, parts: readonly Block[]): Uint8Array {
  const marks = dataTableMarks(blocks, parts);
  for (const part of parts) {
    for (let i = part.index; i < part.end; i++) {
      const block = blocks[i] as Block;
      if (marks[i]) {
        // The first marked block met is a data table.
        const chars = measures.chars[i] as number;
        for (let up = block.parent; up && up.index > part.index && measures.chars[up.index] === chars; up = up.parent) marks[up.index] = 1;
      } else if (block.tag === 'pre') marks.fill(1, i, block.end);
      else continue;
      i = block.end - 1;
    }
  }
  return marks;
}

function hasAncestor(block: Block, tag: string): boolean {
  for (let ancestor = block.parent; ancestor; ancestor = ancestor.parent) if (ancestor.tag === tag) return true;
  return false;
}

/** A heading with at least this share of its text in links to other pages is a headline linking to one. */
const LINKED_HEADLINE = 0.9;
/** A teaser holds at most this much text (non-space characters) besides its headline: a date, a standfirst, counts. */
const MAX_TEASER_CHARS = 600;
/** Teasers holding more than this share of the article's text are what the page is (a listing, a list article): they stay. */
const MAX_TEASER_SHARE = 0.5;

/**
 * Teasers of other pages inside the article: two or more siblings that each open with a headline
 * linking to another page (`LINKED_HEADLINE`; a permalink to the heading itself, `href="#…"`, is
 * no such link) and hold little besides it (`MAX_TEASER_CHARS`): a "related stories" or "more from
 * this section" box of headline cards, which link density misses because each card's standfirst is
 * plain text. When one sibling of the kind holds more, the cards are sections of a list article (a
 * product or course per heading) and stay; so do cards that are most of the article
 * (`MAX_TEASER_SHARE`: wcxb's list articles of restaurants or courses, one short card each, lost up
 * to 0.9 F1 a page when only 400 characters had to stay beside them). Chosen, not fitted (figures:
 * docs/evaluation.md, docs/design.md). The
 * main block that may stand in for the article leaves them out too (`readersMainBlock`).
 */
export function dropTeasers(blocks: readonly Block[], measures: SubtreeMeasures, parts: readonly Block[], dropped: Uint8Array): void {
  const cards = teaserCards(blocks, measures, parts, dropped);
  if (charsOf(measures, cards) > MAX_TEASER_SHARE * charsOf(measures, parts)) return;
  for (const card of cards) dropped.fill(1, card.index, card.end);
}

/**
 * Whether a block beside the article is a list of teasers (`teaserCards`): its cards hold most of its
 * text. Such a block does not join the article, however long a card's standfirst.
 */
export function isTeaserList(blocks: readonly Block[], measures: SubtreeMeasures, block: Block): boolean {
  const cards = teaserCards(blocks, measures, [block]);
  return charsOf(measures, cards) > MAX_TEASER_SHARE * (measures.chars[block.index] as number);
}

function charsOf(measures: SubtreeMeasures, blocks: readonly Block[]): number {
  let chars = 0;
  for (const block of blocks) chars += measures.chars[block.index] as number;
  return chars;
}

/** The teaser cards inside the parts not yet dropped (every block counts without `dropped`): see `dropTeasers`. */
function teaserCards(blocks: readonly Block[], measures: SubtreeMeasures, parts: readonly Block[], dropped?: Uint8Array): Block[] {
  const opening = firstHeadingOrText(blocks, parts);
  /** The headline linking elsewhere that a block opens with, if it does. */
  const headlineOf = (block: Block): Block | undefined => {
    const first = opening[block.index] as number;
    const heading = first === block.index ? undefined : blocks[first];
    return heading && HEADINGS.has(heading.tag) && linksElsewhere(measures, heading) ? heading : undefined;
  };
  const cards: Block[] = [];
  for (const part of parts) {
    for (let i = part.index; i < part.end; i++) {
      const parent = blocks[i] as Block;
      const headed: Block[] = [];
      let allShort = true;
      for (const child of parent.items) {
        if (typeof child !== 'object' || dropped?.[child.index]) continue;
        const headline = headlineOf(child);
        if (!headline) continue;
        headed.push(child);
        allShort &&= (measures.chars[child.index] as number) - (measures.chars[headline.index] as number) <= MAX_TEASER_CHARS;
      }
      if (headed.length < 2 || !allShort) continue;
      cards.push(...headed);
      i = parent.end - 1;
    }
  }
  return cards;
}

function linksElsewhere(measures: SubtreeMeasures, heading: Block): boolean {
  const text = measures.textChars[heading.index] as number;
  const elsewhere = (measures.linkChars[heading.index] as number) - (measures.fragmentLinkChars[heading.index] as number);
  return text > 0 && elsewhere >= LINKED_HEADLINE * text;
}

/**
 * For each block of the article's parts, what it opens with (-1 for nothing): itself when its own
 * text comes first, else the first heading or block with text of its own below it, in document
 * order. One pass from each part's last block up, so a nest of 200,000 blocks costs no more than a
 * flat page, and the rest of the page costs nothing.
 */
function firstHeadingOrText(blocks: readonly Block[], parts: readonly Block[]): Int32Array {
  const first = new Int32Array(blocks.length).fill(-1);
  for (const part of parts) {
    for (let i = part.end - 1; i >= part.index; i--) {
      for (const item of (blocks[i] as Block).items) {
        if (typeof item === 'string') {
          if (item.trim() === '') continue;
          first[i] = i;
          break;
        }
        if (typeof item !== 'object') continue;
        const opens = HEADINGS.has(item.tag) ? item.index : (first[item.index] as number);
        if (opens >= 0) {
          first[i] = opens;
          break;
        }
      }
    }
  }
  return first;
}
