import { QuoteType, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Length from which an attribute value, a script or style body or a comment is dropped from a page
 * over the input cap. Far longer than anything the extraction reads in them (class lists, hrefs,
 * React's ~2 KB streaming runtime that `streamedSegments.ts` follows), far shorter than the inline
 * blobs (data: URIs, serialized state, inlined bundles) that make a page exceed the cap.
 */
export const LONG_NON_TEXT_CHARS = 16_384;

/** Elements whose content the tokenizer reads as raw text that is never shown. */
const RAW_NON_TEXT = new Set(['script', 'style']);

/**
 * A page over the input cap with what cannot be text cut first: every attribute value, script or
 * style body and comment of `LONG_NON_TEXT_CHARS` or more is emptied (the element and attribute
 * stay, so the structure reads the same). A page whose article follows a 4 MB inline image would
 * otherwise lose its whole text to the cap. htmlparser2's tokenizer finds the ranges, so they are
 * the ones the parser that reads the page sees; it runs only on pages over the cap, one linear pass.
 * Returns the page unchanged when nothing is that long.
 */
export function withoutLongNonText(html: string): { html: string; droppedChars: number } {
  const drops: Array<[start: number, end: number, replacement: string]> = [];
  let valueStart = -1;
  let valueEnd = -1;
  let rawTagName = '';
  let rawOpen = false;
  let rawStart = -1;
  let rawEnd = -1;
  const drop = (start: number, end: number, replacement = '') => {
    if (end - start >= LONG_NON_TEXT_CHARS) drops.push([start, end, replacement]);
  };
  const callbacks: TokenizerCallbacks = {
    onattribdata(start, end) {
      if (valueStart < 0) valueStart = start;
      valueEnd = end;
    },
    onattribentity() {},
    onattribend(quote) {
      // An unquoted value emptied would let the next attribute's name become the value.
      if (valueStart >= 0) drop(valueStart, valueEnd, quote === QuoteType.Unquoted ? '""' : '');
      valueStart = -1;
    },
    onattribname() {},
    oncdata() {},
    onclosetag() {
      if (rawOpen && rawStart >= 0) drop(rawStart, rawEnd);
      rawOpen = false;
      rawStart = -1;
    },
    oncomment(start, end) {
      drop(start, end);
    },
    ondeclaration() {},
    onend() {
      if (rawOpen && rawStart >= 0) drop(rawStart, rawEnd);
    },
    onopentagend() {
      rawOpen = RAW_NON_TEXT.has(rawTagName);
      rawStart = -1;
    },
    onopentagname(start, end) {
      rawTagName = html.slice(start, end).toLowerCase();
    },
    onprocessinginstruction() {},
    onselfclosingtag() {
      rawOpen = false;
    },
    ontext(start, end) {
      if (!rawOpen) return;
      if (rawStart < 0) rawStart = start;
      rawEnd = end;
    },
    ontextentity() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: false }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  if (drops.length === 0) return { html, droppedChars: 0 };
  drops.sort((a, b) => a[0] - b[0]);
  const kept: string[] = [];
  let at = 0;
  let droppedChars = 0;
  for (const [start, end, replacement] of drops) {
    if (start < at) continue;
    kept.push(html.slice(at, start), replacement);
    droppedChars += end - start;
    at = end;
  }
  kept.push(html.slice(at));
  return { html: kept.join(''), droppedChars };
}
