/**
 * WHATWG's windows-1252 for bytes 0x80–0x9F (the rest is Latin-1). Node 20's TextDecoder reads
 * those bytes as Latin-1's C1 controls (nodejs/node#56542): curly quotes, dashes and € are lost.
 * Text from a page mis-decoded the same way elsewhere carries them too (`collapseWhitespace`).
 * The five bytes windows-1252 leaves undefined map to their C1 controls.
 */
export const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
