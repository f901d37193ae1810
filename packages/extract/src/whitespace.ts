/** C0 controls that are not white space: a page may carry a stray few, which no reader should see. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000e-\u001f]/g;

/**
 * Collapses runs of white space (newlines, tabs, no-break spaces) to one space, as a browser
 * renders them, and drops the other C0 controls (U+0001, U+001D…: the HTML tokenizer keeps them
 * in the text, browsers show nothing or a box). Every method's text lines pass through here, so
 * no control character reaches a stored extraction, the index or a search highlight.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(CONTROLS, '').replace(/\s+/g, ' ').trim();
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
