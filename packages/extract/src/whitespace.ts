/** Collapses runs of white space (newlines, tabs, no-break spaces) to one space, as a browser renders them. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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
