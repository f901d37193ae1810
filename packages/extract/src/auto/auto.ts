import { buildBlockTree, type Block } from '../html/blockTree.js';
import { extractMainBlock } from '../mainblock/mainBlock.js';
import { terms } from '../ce/features.js';
import { readabilityArticle } from '../readability/readability.js';
import { blockLines, type TextLine } from '../html/blockLines.js';
import { isLinkListEntry, linksAreContent } from '../html/linkLists.js';
import { resultOf, type ExtractionResult } from '../result/result.js';
import { ExtractionError } from '../result/errors.js';

/** An article with fewer words than this share of the main block's is a fragment Readability settled on. */
const FRAGMENT_SHARE = 0.25;
/** A main block whose blocks average fewer words than this share of the article's is a listing, not prose. */
const PROSE_DENSITY_SHARE = 0.5;

/**
 * `auto`, the single-page fallback: Readability's choice of the article, cleaned by block rules.
 * Readability finds the article well but keeps what sits beside the text inside it; on the
 * scrapinghub pages its precision is 0.92 at a recall of 0.99. So:
 * 1. Figures and their captions are dropped (photo captions and credits are not the article).
 * 2. Entries of link lists are dropped ("You may also like" lists, link rows): a block of a list,
 *    table or menu (or directly inside one) whose own text is mostly link text (> 0.7) — unless
 *    the article as a whole is more than 0.3 link text: then the links are the content (a table of
 *    contents, a directory), and they stay. A paragraph, heading or span that is mostly a link
 *    stays: inside an article that is a linked title or a sentence around a link about as often as
 *    a teaser, and the gold of dragnet and of Readability's fixtures keeps it.
 * 3. When Readability finds no article, or refuses a page too large for it (more elements than
 *    it reads in bounded time), `mainblock` reads the page; and when the cleaned article
 *    has fewer than a quarter of the words of the page's main block, Readability has settled on a
 *    fragment (a product's blurb, one post of a thread, one entry of a listing), and the main block
 *    is read instead — if the main block is prose: its blocks average at least half as many words
 *    as the article's. A main block of short lines (headlines, dates, teasers, counters of a news
 *    portal's listing) is more words than the article without being a fuller version of it.
 *    Nearer agreement is left to Readability: pages whose article has a quarter to a half of the
 *    main block's words score higher with Readability's choice on dragnet and scrapinghub, and
 *    lower only on wcxb.
 * How the thresholds were chosen, and what each rule measured: docs/design.md, "How `auto`'s rules were chosen".
 */
export function extractAuto(html: string): ExtractionResult {
  const readability = readabilityOrRefusal(html);
  const mainBlock = extractMainBlock(html);
  if ('refused' in readability) return resultOf('auto', mainBlock.blocks, [`${readability.refused}: read by mainblock`, ...mainBlock.warnings]);
  const { content, warnings } = readability;
  const byMainBlock = (why: string) => resultOf('auto', mainBlock.blocks, [...warnings, `${why}: read by mainblock`, ...mainBlock.warnings]);
  if (content === null) return byMainBlock('Readability found no article');
  const { lines, warnings: treeWarnings } = cleanArticle(content);
  const articleWords = terms(lines.map((line) => line.text).join('\n')).length;
  const mainBlockWords = terms(mainBlock.text).length;
  const isFragment = articleWords < FRAGMENT_SHARE * mainBlockWords;
  const mainBlockIsProse = wordsPerBlock(mainBlockWords, mainBlock.blocks.length) >= PROSE_DENSITY_SHARE * wordsPerBlock(articleWords, lines.length);
  if (isFragment && mainBlockIsProse) return byMainBlock("Readability's article has under a quarter of the main block's words");
  return resultOf('auto', lines, [...warnings, ...treeWarnings]);
}

/** Readability's article, or why it refused a page with more elements than it reads in bounded time. */
function readabilityOrRefusal(html: string): ReturnType<typeof readabilityArticle> | { refused: string } {
  try {
    return readabilityArticle(html, { keepClasses: true });
  } catch (error) {
    if (error instanceof ExtractionError && error.code === 'too-many-elements') return { refused: `Readability refused the page (${error.message})` };
    throw error;
  }
}

function wordsPerBlock(words: number, blocks: number): number {
  return blocks === 0 ? 0 : words / blocks;
}

/** An article's text without its figures and, unless links are its content, its link lists. */
function cleanArticle(content: string): { lines: TextLine[]; warnings: readonly string[] } {
  const tree = buildBlockTree(content);
  let linkChars = 0;
  let textChars = 0;
  for (const block of tree.blocks) {
    linkChars += block.linkChars;
    textChars += block.textChars;
  }
  const linksStay = linksAreContent(linkChars, textChars);
  const rendered = blockLines(
    tree.root,
    (child: Block) => child.tag !== 'figure' && child.tag !== 'figcaption',
    (kept: Block) => linksStay || !isLinkListEntry(kept),
  );
  return { lines: rendered.lines, warnings: tree.warnings };
}
