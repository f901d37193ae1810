/**
 * Characters that render as nothing and are not white space: C0 controls (U+0001, U+001D…: the HTML
 * tokenizer keeps them in the text, browsers show nothing or a box); C1 controls (U+0080–U+009F,
 * never text once a page is decoded, only the trace of a mis-decoded one); and the invisible format
 * characters that sit inside words: soft hyphen, zero-width space, word joiner and U+FEFF. Left in,
 * these split `light&shy;house` into two words for the index and reach highlights raw. ZWNJ and ZWJ
 * (U+200C, U+200D) stay: they change how Persian, Indic scripts and emoji render.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u0080-\u009f\u00ad\u200b\u2060\ufeff]/g;

/**
 * Collapses runs of white space (newlines, tabs, no-break spaces) to one space, as a browser
 * renders them, and drops the characters a browser renders as nothing (`INVISIBLE`) first, so that
 * a word they split is one word again. Every method's text lines pass through here, so none of
 * them reaches a stored extraction, the index or a search highlight.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

/**
 * Characters of a text that are not white space (ASCII controls and spaces, no-break and
 * ideographic spaces): a length that markup indentation does not inflate and that counts text
 * without spaces between words (Chinese, Japanese) as fully as text with them.
 */
export function nonSpaceChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 32 && code !== 0xa0 && code !== 0x3000) count++;
  }
  return count;
}
