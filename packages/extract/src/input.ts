import { decodeHTML } from 'entities';
import { cdataAsBrowsersRead } from './cdata.js';
import { ExtractionError } from './errors.js';
import type { Limits } from './limits.js';
import { placeStreamedSegments } from './streamedSegments.js';
import { collapseWhitespace } from './whitespace.js';

/**
 * The checks every parser of a page makes first: a string, not empty, not binary (`looksBinary`),
 * and no longer than `maxInputChars` (the rest is cut off and a warning says so). NULs become
 * U+FFFD (`nulsReplaced`). CDATA markers outside foreign content are made the bogus comments
 * browsers read (`cdata.ts`), and the parts of a page streamed by React are put where its scripts
 * would put them (`streamedSegments.ts`).
 */
export function checkedHtml(html: unknown, limits: Limits, warnings: string[]): string {
  if (typeof html !== 'string') throw new ExtractionError('invalid-argument', 'the page must be given as a string of HTML');
  if (html.trim() === '') throw new ExtractionError('empty-input', 'the page is empty');
  let checked = html;
  if (checked.length > limits.maxInputChars) {
    warnings.push(`input truncated to its first ${limits.maxInputChars} of ${checked.length} characters`);
    checked = checked.slice(0, limits.maxInputChars);
  }
  if (looksBinary(checked)) throw new ExtractionError('binary-input', 'the page is binary data, not an HTML document');
  return placeStreamedSegments(cdataAsBrowsersRead(nulsReplaced(checked, warnings)), limits.maxOpenElements);
}

/** How much of the start of a page `looksBinary` reads. */
const BINARY_SAMPLE = 8192;
/** Share of NULs in that sample above which a page is binary data, not a text document. */
const BINARY_NUL_SHARE = 0.01;

/**
 * The one rule for "this page is binary data" (bytes as fetched, before decoding, or a string as
 * given): more than 1% NULs in its first 8 KB. Images, archives, PDFs and UTF-32 are full of NULs;
 * HTML has none, or a stray few. Other C0 controls (U+0001-U+0008, U+000E-U+001F) do not count:
 * the HTML tokenizer reports them as parse errors but keeps them in the text (WHATWG HTML,
 * "preprocessing the input stream"), so a page carrying some is a text page a browser shows, and
 * is read (and stored) with them as they are. The crawler, the templater and the extractor all
 * judge by this rule, so a page the crawl stores is one they can read.
 */
export function looksBinary(start: string | Uint8Array): boolean {
  const sample = start.slice(0, BINARY_SAMPLE);
  let nuls = 0;
  for (let i = 0; i < sample.length; i++) if ((typeof sample === 'string' ? sample.charCodeAt(i) : sample[i]) === 0) nuls++;
  return nuls / sample.length > BINARY_NUL_SHARE;
}

/**
 * A page's text with every U+0000 made U+FFFD, as the HTML tokenizer does in most states (in body
 * text it drops them; a visible mark loses nothing). Postgres text cannot hold U+0000 ("invalid
 * byte sequence for encoding UTF8: 0x00"), so a stray NUL would otherwise make a page impossible
 * to store. A warning says so.
 */
export function nulsReplaced(html: string, warnings: string[]): string {
  if (!html.includes('\0')) return html;
  warnings.push('NUL characters were replaced by U+FFFD');
  return html.replaceAll('\0', '\uFFFD');
}

const NON_TEXT_ELEMENT = /<(script|style)\b[\s\S]*?<\/\1\s*>/gi;
const TAG = /<[^>]*>/g;

/**
 * The text of the rest of a page, read without its structure: what a parser falls back to past
 * `maxOpenElements` (htmlparser2 slows down quadratically on deeper nesting), so that nothing is lost.
 */
export function flatText(rest: string): string {
  return collapseWhitespace(decodeHTML(rest.replace(NON_TEXT_ELEMENT, ' ').replace(TAG, ' ')));
}

export function flatReadingWarning(limits: Limits): string {
  return `more than ${limits.maxOpenElements} elements open at once: the rest of the page was read as plain text`;
}
