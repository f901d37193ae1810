import { FastTokenizer } from './fastTokenizer.js';

/** Elements whose content htmlparser2 reads as raw text up to their own end tag (as the HTML Standard does). */
const RAW_TEXT_TO_OWN_END = new Set(['iframe', 'noembed', 'noframes', 'xmp', 'plaintext']);

/** The fields of htmlparser2's tokenizer and parser (private in their types) that the rule below reads and resets. */
interface TokenizerInternals {
  isSpecial: boolean;
  currentSequence: Uint8Array;
  cbs: { stack?: readonly string[] };
}

const stockEnterTagBody = (FastTokenizer.prototype as unknown as { enterTagBody(this: TokenizerInternals): void }).enterTagBody;

/**
 * The tokenizer the extraction's parsers read pages with: `FastTokenizer`, with `<noscript>` read as
 * a browser that runs scripts reads it, as text that ends at `</noscript>`. htmlparser2 reads an
 * `<iframe>` (or `noembed`, `noframes`, `xmp`, `plaintext`) as raw text up to its own end tag, and
 * Google Tag Manager's snippet written with a self-closing iframe,
 * `<noscript><iframe src="…/ns.html?id=GTM-…" /></noscript>`, has none: the rest of the page became
 * the iframe's text and was never read (render.com's home page read as its footer: the sections
 * React streams in after it were lost, WCXB word F1 0.14). A browser that runs scripts never sees
 * that iframe, so inside an open `<noscript>` these elements are ordinary elements here, closed
 * with it. Its scripts, styles, titles and text areas stay raw text.
 */
export class PageTokenizer extends FastTokenizer {}

Object.assign(PageTokenizer.prototype, {
  enterTagBody(this: TokenizerInternals): void {
    if (this.isSpecial && this.cbs.stack?.includes('noscript') && RAW_TEXT_TO_OWN_END.has(sequenceTagName(this.currentSequence))) {
      this.isSpecial = false;
      this.currentSequence = this.currentSequence.subarray(0, 0);
    }
    stockEnterTagBody.call(this);
  },
});

/** `iframe` of htmlparser2's end-tag sequence `</iframe`. */
function sequenceTagName(sequence: Uint8Array): string {
  return String.fromCharCode(...sequence.subarray(2));
}
