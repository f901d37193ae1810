import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { methodByName, METHOD_NAMES, type SinglePageMethod } from './methods.js';
import { HAND_MADE_PAGES as CASES, HAND_MADE_SENTENCES as sentences } from '../testing/handMadePages.js';

const singlePageMethods = METHOD_NAMES.map(methodByName).filter((method): method is SinglePageMethod => method.kind === 'single');

/** Where a paper's method, as the paper defines it, cannot get an obvious page exactly right. */
interface Weakness {
  /** Share of the main text's words that must still come out. */
  minRecall: number;
  /** Boilerplate the method is known to keep on this page. */
  mayKeep?: string[];
  why: string;
}

const RATIO_PICKS_A_PARAGRAPH: Weakness = { minRecall: 0.4, why: 'a ratio over all nodes is highest on a single paragraph, so the best node is one paragraph' };
const BLURRING_CUTS_NEAR_MARKUP: Weakness = {
  minRecall: 0.85,
  why: 'words next to markup are blurred below the threshold (the paper extracts characters, not blocks)',
};
const KNOWN_WEAKNESSES: Record<string, Partial<Record<string, Weakness>>> = {
  wlr: {
    'main text split by an advertisement banner': {
      minRecall: 1,
      mayKeep: ['Winter tyres at half price'],
      why: 'the best node is the whole story container, advertisement included',
    },
  },
  clr: {
    'main text split by an advertisement banner': {
      minRecall: 1,
      mayKeep: ['Winter tyres at half price'],
      why: 'the best node is the whole story container, advertisement included',
    },
  },
  cnr: Object.fromEntries(CASES.map((page) => [page.name, RATIO_PICKS_A_PARAGRAPH])),
  wnr: Object.fromEntries(CASES.map((page) => [page.name, RATIO_PICKS_A_PARAGRAPH])),
  ccb: {
    ...Object.fromEntries(CASES.map((page) => [page.name, BLURRING_CUTS_NEAR_MARKUP])),
    'a page with a long footer': {
      ...BLURRING_CUTS_NEAR_MARKUP,
      mayKeep: ['Valley Media Limited'],
      why: "the footer's closing sentence is a long run of text, as content-like as the article",
    },
  },
  accb: {
    ...Object.fromEntries(CASES.map((page) => [page.name, BLURRING_CUTS_NEAR_MARKUP])),
    'a page with a long footer': {
      ...BLURRING_CUTS_NEAR_MARKUP,
      mayKeep: ['Valley Media Limited', 'Footer link number'],
      why: "without anchor tags as code, the footer's link lists read as text",
    },
  },
  tccb: {
    ...Object.fromEntries(CASES.map((page) => [page.name, BLURRING_CUTS_NEAR_MARKUP])),
    'main text split by an advertisement banner': {
      ...BLURRING_CUTS_NEAR_MARKUP,
      mayKeep: ['Winter tyres at half price', 'Copyright the Valley Courier'],
      why: 'on tokens, a short run of text between tags weighs as much as a word of the article',
    },
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
