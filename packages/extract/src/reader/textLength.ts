import { isSpaceCode } from '../html/whitespace.js';

/**
 * What one character of the CJK scripts weighs against a Latin letter when the reader compares
 * amounts of text. A Han ideograph writes a morpheme, a kana or Hangul character a syllable: a
 * Chinese word is 1.5-2 characters where an English one is about 5.5 non-space characters
 * (punctuation included), and a text translated from English has about a third as many non-space
 * characters in Chinese (two fifths to a half in Japanese or Korean). Three, not fitted: 2 reads
 * the shared datasets alike (daniel's 269 Chinese pages are the only ones it changes).
 */
export const CJK_CHAR_WEIGHT = 3;

/**
 * The amount of text in a string as the reader weighs readings against each other: its non-space
 * characters (as `nonSpaceChars`, so markup indentation does not inflate it), with every character
 * of the CJK scripts — Han ideographs, Hiragana, Katakana and Hangul syllables — counting
 * `CJK_CHAR_WEIGHT`. Counted as one, a Chinese story of 80 characters, as much to read as 50
 * English words, weighed less than a two-sentence English copyright footer, and the reader kept
 * the footer for the story's page. Punctuation, full-width or not, and the scripts written in
 * letters (Cyrillic, Greek, Thai, whose words are as many characters as Latin ones) count one.
 * Ideographs outside the Basic Multilingual Plane count two (their two UTF-16 units), rare enough
 * to leave so. The Readability scores of paragraphs stay in characters and commas, as Readability
 * counts them (see `reader.ts`).
 */
export function textLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isSpaceCode(code)) length += isCjk(code) ? CJK_CHAR_WEIGHT : 1;
  }
  return length;
}

/** Hiragana, Katakana, CJK ideographs (extension A, unified, compatibility) and Hangul syllables. */
function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff)
  );
}
