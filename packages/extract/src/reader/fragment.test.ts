import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TextLine } from '../html/blockLines.js';
import { mainBlockReplacesArticle } from './fragment.js';

const lines = (...texts: string[]): TextLine[] => texts.map((text) => ({ path: 'HTML.BODY.DIV.P', text }));
const sentence = (n: number) =>
  `Reply ${n}: the runner beans should go along the south fence again this year, and the compost bins belong next to the shed where the barrow can reach them easily.`;
const post = sentence(0);
const thread = lines(post, ...Array.from({ length: 10 }, (_, n) => sentence(n + 1)));

describe('the main block replaces a fragment of it', () => {
  it('replaces one post of a thread the main block holds', () => {
    assert.equal(mainBlockReplacesArticle(lines(post), thread), true);
  });

  it('keeps an article that is a third or more of the main block', () => {
    assert.equal(mainBlockReplacesArticle(lines(post, sentence(1), sentence(2), sentence(3)), thread), false);
  });

  it('keeps the article when the main block is a listing of short lines', () => {
    const listing = lines(...Array.from({ length: 80 }, (_, n) => `Headline number ${n}`));
    assert.equal(mainBlockReplacesArticle(lines(post), listing), false);
  });

  it('keeps an article of prose that the main block, elsewhere on the page, does not hold', () => {
    const elsewhere = lines(...Array.from({ length: 20 }, (_, n) => sentence(n + 20)));
    assert.equal(mainBlockReplacesArticle(lines(`${sentence(40)} ${sentence(41)}`, `${sentence(42)} ${sentence(43)}`), elsewhere), false);
    // ...but replaces an article without two paragraphs of prose (a sticky bar, a cookie notice).
    assert.equal(mainBlockReplacesArticle(lines('Skip to content', 'Accept all cookies'), elsewhere), true);
  });
});
