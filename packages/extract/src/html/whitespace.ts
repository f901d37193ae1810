import { WINDOWS_1252_C1 } from './windows1252.js';

/**
 * Characters that render as nothing and are not white space: C0 controls (U+0001, U+001D…: the HTML
 * tokenizer keeps them in the text, browsers show nothing or a box); C1 controls (U+0080–U+009F,
 * never text once a page is decoded right); and the invisible format characters that sit inside
 * words: soft hyphen, zero-width space, word joiner and U+FEFF. Left in, these split
 * `light&shy;house` into two words for the index and reach highlights raw. ZWNJ and ZWJ (U+200C,
 * U+200D) stay: they change how Persian, Indic scripts and emoji render.
 */
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u0080-\u009f\u00ad\u200b\u2060\ufeff]/g;
const HAS_INVISIBLE = new RegExp(INVISIBLE.source);

/**
 * What an `INVISIBLE` character becomes: nothing, but for a C1 control windows-1252 gives a
 * character: a page mis-decoded as Latin-1 (U+0092 for ’ in `don’t`) reads as its writer meant,
 * not as `dont`.
 */
function visible(character: string): string {
  const code = character.charCodeAt(0);
  const meant = code >= 0x80 && code <= 0x9f ? (WINDOWS_1252_C1[code - 0x80] as string) : '';
  return meant >= '\u00a0' ? meant : '';
}

/**
 * Collapses runs of white space (newlines, tabs, no-break spaces) to one space, as a browser
 * renders them, having first dropped the characters a browser renders as nothing (`INVISIBLE`), so
 * that a word they split is one word again. Every method's text lines pass through here, so none
 * of them reaches a stored extraction, the index or a search highlight. Most lines have none: a
 * test spares them the slower replacement by a function (a micro-benchmark over the daniel pages'
 * text: no slower than before).
 */
export function collapseWhitespace(text: string): string {
  return (HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE, visible) : text).replace(/\s+/g, ' ').trim();
}

/**
 * Characters of a text that are not white space (ASCII controls and spaces, no-break and
 * ideographic spaces): a length that markup indentation does not inflate and that counts text
 * without spaces between words (Chinese, Japanese) as fully as text with them.
 */
export function nonSpaceChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) if (!isSpaceCode(text.charCodeAt(i))) count++;
  return count;
}

/** A UTF-16 code unit `nonSpaceChars` does not count: ASCII controls and space, no-break and ideographic space. */
export function isSpaceCode(code: number): boolean {
  return code <= 32 || code === 0xa0 || code === 0x3000;
}
