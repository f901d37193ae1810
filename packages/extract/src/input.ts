import { decodeHTML } from 'entities';
import { cdataAsBrowsersRead } from './cdata.js';
import { ExtractionError } from './errors.js';
import type { Limits } from './limits.js';
import { placeStreamedSegments } from './streamedSegments.js';
import { collapseWhitespace } from './whitespace.js';

/**
 * The checks every parser of a page makes first: a string, not empty, not binary, and no longer
 * than `maxInputChars` (the rest is cut off and a warning says so). CDATA markers outside foreign
 * content are made the bogus comments browsers read (`cdata.ts`), and the parts of a page streamed
 * by React are put where its scripts would put them (`streamedSegments.ts`).
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
  return placeStreamedSegments(cdataAsBrowsersRead(checked), limits.maxOpenElements);
}

/** True when the first kilobytes hold control characters that no text document has. */
function looksBinary(html: string): boolean {
  const sample = html.slice(0, 8192);
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const code = sample.charCodeAt(i);
    if (code < 8) control++;
  }
  return control / sample.length > 0.01;
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
