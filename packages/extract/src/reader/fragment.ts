import type { TextLine } from '../html/blockLines.js';
import { nonSpaceChars } from '../html/whitespace.js';
import { LONG_PARAGRAPH_CHARS } from './scores.js';

/** An article with less than this share of the main block's text is a fragment of the page's main text. */
export const FRAGMENT_SHARE = 1 / 3;
/** A main block whose lines average less than this share of the article's is a listing, not prose. */
const PROSE_DENSITY_SHARE = 0.5;
/** An article with this many paragraphs of prose is an article even beside a bigger main block elsewhere. */
const ARTICLE_PARAGRAPHS = 2;

/**
 * auto's rule 3 for the reader: when the article has less than a third of the text (non-space
 * characters, so that pages without spaces between words count right) of the page's main block
 * (`mainBlockOf`), the scoring settled on a fragment — one post of a thread, one section of a
 * page built of sections, a product's blurb — and the main block is the better reading, if:
 * - the main block is prose: its lines average at least half as many characters as the
 *   article's (a portal's listing of headlines, dates and teasers is more text without being a
 *   fuller version of the article); and
 * - the main block holds some of the article's lines, or the article is not prose itself (fewer
 *   than two paragraphs of 150 characters): a real article beside a bigger block elsewhere (a
 *   listing, comments) stays.
 * Chosen on the pages of the seven shared datasets where the rule fires (71): a third, not auto's
 * quarter nor a half (figures: docs/evaluation.md, docs/design.md). Of the pages where the
 * main block shares no line with an article of two long paragraphs, it was the worse reading on 2
 * of 3 (daniel, Readability's fixtures), and it is left out.
 */
export function mainBlockReplacesArticle(article: readonly TextLine[], mainBlock: readonly TextLine[]): boolean {
  const articleChars = charsOf(article);
  const mainBlockChars = charsOf(mainBlock);
  if (articleChars >= FRAGMENT_SHARE * mainBlockChars) return false;
  if (perLine(mainBlockChars, mainBlock.length) < PROSE_DENSITY_SHARE * perLine(articleChars, article.length)) return false;
  return sharesLines(article, mainBlock) || longLines(article) < ARTICLE_PARAGRAPHS;
}

function charsOf(lines: readonly TextLine[]): number {
  let chars = 0;
  for (const line of lines) chars += nonSpaceChars(line.text);
  return chars;
}

function perLine(chars: number, lines: number): number {
  return lines === 0 ? 0 : chars / lines;
}

function sharesLines(article: readonly TextLine[], mainBlock: readonly TextLine[]): boolean {
  const mainLines = new Set(mainBlock.map((line) => line.text));
  return article.some((line) => mainLines.has(line.text));
}

function longLines(lines: readonly TextLine[]): number {
  return lines.filter((line) => nonSpaceChars(line.text) >= LONG_PARAGRAPH_CHARS).length;
}
