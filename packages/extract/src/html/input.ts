import { decodeHTML } from 'entities';
import { cdataAsBrowsersRead } from './cdata.js';
import { ExtractionError } from '../result/errors.js';
import type { Limits } from './limits.js';
import { withoutLongNonText } from './nonText.js';
import { placeStreamedSegments } from './streamedSegments.js';
import { scriptsEndedAsBrowsersEnd } from './scriptData.js';
import { collapseWhitespace } from './whitespace.js';

/**
 * The checks every parser of a page makes first: a string, not empty, not binary (`refuseBinary`),
 * and no longer than `maxInputChars`. A page over it first loses its long attribute values, script
 * and style bodies and comments (`nonText.ts`), which are never text; only what is still over it is
 * cut off, and a warning says which happened. NULs become
 * U+FFFD (`nulsReplaced`). CDATA markers outside foreign content are made the bogus comments
 * browsers read (`cdata.ts`), and the parts of a page streamed by React are put where its scripts
 * would put them (`streamedSegments.ts`).
 */
export function checkedHtml(html: unknown, limits: Limits, warnings: string[]): string {
  if (typeof html !== 'string') throw new ExtractionError('invalid-argument', 'the page must be given as a string of HTML');
  if (html.trim() === '') throw new ExtractionError('empty-input', 'the page is empty');
  let checked = html;
  if (checked.length > limits.maxInputChars) {
    const shrunk = withoutLongNonText(checked);
    if (shrunk.droppedChars > 0) {
      warnings.push(
        `${shrunk.droppedChars} characters of long attribute values, scripts, styles and comments dropped from an input of ${checked.length} characters`,
      );
      checked = shrunk.html;
    }
  }
  if (checked.length > limits.maxInputChars) {
    warnings.push(`input truncated to its first ${limits.maxInputChars} of ${checked.length} characters`);
    checked = checked.slice(0, limits.maxInputChars);
  }
  refuseBinary(checked);
  return placeStreamedSegments(scriptsEndedAsBrowsersEnd(cdataAsBrowsersRead(nulsReplaced(checked, warnings))), limits.maxOpenElements);
}

/** How much of the start of a page `refuseBinary` reads. */
const BINARY_SAMPLE = 8192;
/** Share of control characters in that sample above which a page is binary data, not a text document. */
const BINARY_CONTROL_SHARE = 0.02;
/** Share of code points no text uses (unassigned or private-use) above which a page is binary data. */
const BINARY_NO_SCRIPT_SHARE = 0.02;
/** Unassigned (`Cn`, noncharacters included) and private-use (`Co`) code points. */
const NO_SCRIPT = /[\p{Cn}\p{Co}]/gu;
/**
 * U+0000-U+0377 are all assigned and none private-use, so a sample with no more than
 * `BINARY_NO_SCRIPT_SHARE` code units from here on needs no `NO_SCRIPT` count: that regular
 * expression took 0.1 ms of a wcxb page, a fifth of the input checks (issue 38).
 */
const FIRST_UNASSIGNED = 0x378;

/**
 * The one rule for "this page is binary data", judged on its decoded text: more than 2% of its
 * first 8,192 characters are C0 controls other than HTML's white space (TAB, LF, FF, CR), NUL
 * included. Images, archives, PDFs and UTF-32 are full of NULs, and random or compressed bytes
 * served as `text/html` decode (as windows-1252 when undeclared, or as UTF-8) to about 11% such
 * controls (28 of 256 byte values) with few NULs; HTML has none, or a stray few: the most any of
 * the 4,742 pages of the evaluation datasets has is 0.45%. The threshold sits between the two, over
 * 4x from each. Characters are judged, not bytes, so that UTF-16 (half NUL bytes) passes.
 * Random bytes labelled UTF-16 (a BOM, or `charset=utf-16`) decode to almost no controls but to
 * 11-13% code points no script has, unassigned or private-use (`BINARY_NO_SCRIPT_SHARE`); the most
 * of any page of the evaluation datasets is 0.07% (an icon font's private-use glyphs), so 2% is
 * 28x above the one and 5x below the other. U+FFFD does not count: a page in a misdeclared charset
 * is text a browser shows, replacement marks and all. The crawler, the templater and the extractor
 * all judge by this rule (`decodeHtml`, `checkedHtml`), so a page the crawl stores is one they can
 * read; the refusal's message says what was found, for the crawl log.
 */
export function refuseBinary(text: string): void {
  const sample = text.slice(0, BINARY_SAMPLE);
  let controls = 0;
  let beyondAssigned = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) controls++;
    else if (code >= FIRST_UNASSIGNED) beyondAssigned++;
  }
  const refuse = (share: number, what: string): never => {
    throw new ExtractionError('binary-input', `the page is binary data, not an HTML document: ${Math.round(share * 100)}% of its first characters are ${what}`);
  };
  const controlShare = controls / sample.length;
  if (controlShare > BINARY_CONTROL_SHARE) refuse(controlShare, 'control characters');
  // Only code units from U+0378 on can be unassigned or private-use: with few of them, the share cannot be over.
  if (beyondAssigned / sample.length <= BINARY_NO_SCRIPT_SHARE) return;
  const noScriptShare = (sample.match(NO_SCRIPT)?.length ?? 0) / sample.length;
  if (noScriptShare > BINARY_NO_SCRIPT_SHARE) refuse(noScriptShare, 'unassigned or private-use code points');
}

/**
 * A page's text with every U+0000 made U+FFFD, as the HTML tokenizer does in most states (in body
 * text it drops them; a visible mark loses nothing). Postgres text cannot hold U+0000 ("invalid
 * byte sequence for encoding UTF8: 0x00"), so a stray NUL would otherwise make a page impossible
 * to store. A warning says so.
 */
export function nulsReplaced(html: string, warnings: string[]): string {
  if (!mayHoldNul(html) || !html.includes('\0')) return html;
  warnings.push('NUL characters were replaced by U+FFFD');
  return html.replaceAll('\0', '\uFFFD');
}

/**
 * False when `html` holds no U+0000 for certain. Its Latin-1 bytes (each code unit's low byte) are
 * searched with memchr, three times as fast on a page with any character past U+00FF as V8's
 * search of a two-byte string (0.10 against 0.28 ms a wcxb page); U+0100, U+0200... also read as
 * a zero byte, so a hit is confirmed on the string itself.
 */
function mayHoldNul(html: string): boolean {
  return Buffer.from(html, 'latin1').includes(0);
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
