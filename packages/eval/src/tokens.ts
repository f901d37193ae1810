/**
 * Python's `\w+` on str (letters, numbers, underscore, Unicode-aware), the tokeniser of the
 * ScrapingHub benchmark's evaluate.py; the other metrics lower-case its tokens.
 */
const WORD = /[\p{L}\p{N}_]+/gu;

export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

export function lowerCaseWords(text: string): string[] {
  return words(text.toLowerCase());
}
