/** Collapses runs of white space (newlines, tabs, no-break spaces) to one space, as a browser renders them. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
