import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { methodByName, METHOD_NAMES, type SinglePageMethod } from './methods.js';

/**
 * Small pages whose right answer is obvious, for every single-page method: the main text's
 * sentences must all come out, in order, and none of the boilerplate.
 */
const singlePageMethods = METHOD_NAMES.map(methodByName).filter((method): method is SinglePageMethod => method.kind === 'single');

const sentences = [
  'The river council met on Tuesday evening to decide the future of the old stone bridge over the Wend, which has carried carts and walkers since the year of the great flood.',
  'Engineers told the council that the arches are sound but the parapets lean outward by a hand\'s width, and that a lorry striking them could bring a section down into the water below.',
  'After two hours of debate the members agreed to close the bridge to motor traffic from the first of next month and to ask the county for the money to rebuild the parapets in the old style.',
  'Shopkeepers on the east bank said the closure would cost them trade, while parents at the village school welcomed a quieter crossing for their children on the way to lessons each morning.',
];
const paragraphs = sentences.map((sentence) => `<p>${sentence}</p>`);

const NAV = '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li><li><a href="/contact">Contact</a></li></ul>';

const CASES: { name: string; html: string; boilerplate: string[] }[] = [
  {
    name: 'main text split by an advertisement banner',
    html: `<html><body><div class="header"><h3>The Valley Courier</h3>${NAV}</div><div class="story"><h1>Bridge to close to traffic</h1>${paragraphs[0]}${paragraphs[1]}<div class="ad-banner"><a href="/ads/1"><img src="/ad.png">Winter tyres at half price this week only</a></div>${paragraphs[2]}${paragraphs[3]}</div><div class="footer">Copyright the Valley Courier</div></body></html>`,
    boilerplate: ['Winter tyres at half price', 'Copyright the Valley Courier', 'Weather'],
  },
  {
    name: 'a page laid out with nested tables',
    html: `<html><body><table width="100%"><tr><td colspan="2"><font size="5">The Valley Courier</font></td></tr><tr><td width="150" valign="top">${NAV}<p><a href="/archive">Archive</a><br><a href="/letters">Letters</a></p></td><td valign="top"><table><tr><td><h1>Bridge to close to traffic</h1></td></tr><tr><td>${paragraphs.join('')}</td></tr></table></td></tr><tr><td colspan="2"><small>Copyright the Valley Courier</small></td></tr></table></body></html>`,
    boilerplate: ['Archive', 'Copyright the Valley Courier', 'Weather'],
  },
  {
    name: 'a page with a long footer',
    html: `<html><body><div id="content"><h1>Bridge to close to traffic</h1>${paragraphs.join('')}</div><footer>${Array.from({ length: 6 }, (_, i) => `<div class="col"><h4>Section ${i}</h4><ul>${Array.from({ length: 8 }, (_, k) => `<li><a href="/s${i}/${k}">Footer link number ${k} of section ${i}</a></li>`).join('')}</ul></div>`).join('')}<p>The Valley Courier is published by Valley Media Limited, registered in the county, and is a member of the independent press standards organisation.</p></footer></body></html>`,
    boilerplate: ['Footer link number', 'Valley Media Limited'],
  },
  {
    name: 'hidden display:none text inside the article',
    html: `<html><body>${NAV}<article><h1>Bridge to close to traffic</h1>${paragraphs[0]}<div style="display:none">Secret hidden text that no reader sees</div>${paragraphs[1]}<span style="display: none">More invisible words</span>${paragraphs[2]}<p hidden>Hidden by attribute</p>${paragraphs[3]}</article></body></html>`,
    boilerplate: ['Secret hidden text', 'More invisible words', 'Hidden by attribute', 'Weather'],
  },
];

/** Where a paper's method, as the paper defines it, cannot get an obvious page exactly right. */
interface Weakness {
  /** Share of the main text's words that must still come out. */
  minRecall: number;
  /** Boilerplate the method is known to keep on this page. */
  mayKeep?: string[];
  why: string;
}

const RATIO_PICKS_A_PARAGRAPH: Weakness = { minRecall: 0.4, why: 'a ratio over all nodes is highest on a single paragraph, so the best node is one paragraph' };
const BLURRING_CUTS_NEAR_MARKUP: Weakness = { minRecall: 0.85, why: 'words next to markup are blurred below the threshold (the paper extracts characters, not blocks)' };
const KNOWN_WEAKNESSES: Record<string, Partial<Record<string, Weakness>>> = {
  wlr: { 'main text split by an advertisement banner': { minRecall: 1, mayKeep: ['Winter tyres at half price'], why: 'the best node is the whole story container, advertisement included' } },
  clr: { 'main text split by an advertisement banner': { minRecall: 1, mayKeep: ['Winter tyres at half price'], why: 'the best node is the whole story container, advertisement included' } },
  cnr: Object.fromEntries(CASES.map((page) => [page.name, RATIO_PICKS_A_PARAGRAPH])),
  wnr: Object.fromEntries(CASES.map((page) => [page.name, RATIO_PICKS_A_PARAGRAPH])),
  ccb: {
    ...Object.fromEntries(CASES.map((page) => [page.name, BLURRING_CUTS_NEAR_MARKUP])),
    'a page with a long footer': { ...BLURRING_CUTS_NEAR_MARKUP, mayKeep: ['Valley Media Limited'], why: 'the footer\'s closing sentence is a long run of text, as content-like as the article' },
  },
  accb: {
    ...Object.fromEntries(CASES.map((page) => [page.name, BLURRING_CUTS_NEAR_MARKUP])),
    'a page with a long footer': { ...BLURRING_CUTS_NEAR_MARKUP, mayKeep: ['Valley Media Limited', 'Footer link number'], why: 'without anchor tags as code, the footer\'s link lists read as text' },
  },
  tccb: {
    ...Object.fromEntries(CASES.map((page) => [page.name, BLURRING_CUTS_NEAR_MARKUP])),
    'main text split by an advertisement banner': { ...BLURRING_CUTS_NEAR_MARKUP, mayKeep: ['Winter tyres at half price', 'Copyright the Valley Courier'], why: 'on tokens, a short run of text between tags weighs as much as a word of the article' },
  },
};

const wordsOf = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];

describe('every single-page method on hand-made pages', () => {
  for (const method of singlePageMethods) {
    for (const page of CASES) {
      const weakness = KNOWN_WEAKNESSES[method.name]?.[page.name];
      it(`${method.name}: ${page.name}${weakness ? ` (known weakness: ${weakness.why})` : ''}`, () => {
        const text = method.extract(page.html).text.replace(/\s+/g, ' ');
        if (weakness) {
          const found = new Set(wordsOf(text));
          const gold = wordsOf(sentences.join(' '));
          const recall = gold.filter((word) => found.has(word)).length / gold.length;
          assert.ok(recall >= weakness.minRecall, `recall ${recall.toFixed(2)} < ${weakness.minRecall} in:\n${text}`);
        } else {
          let at = -1;
          for (const sentence of sentences) {
            const found = text.indexOf(sentence);
            assert.ok(found >= 0, `missing: "${sentence.slice(0, 40)}…" in:\n${text}`);
            assert.ok(found > at, 'sentences in document order');
            at = found;
          }
        }
        for (const phrase of page.boilerplate.filter((candidate) => !weakness?.mayKeep?.includes(candidate))) {
          assert.ok(!text.includes(phrase), `boilerplate "${phrase}" kept in:\n${text}`);
        }
      });
    }
  }
});
