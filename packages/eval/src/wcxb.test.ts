import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wcxbPageScore, wcxbScore, wcxbWordScore } from './wcxb.js';
import { bowF1 } from './wordF1.js';

const close = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

describe('WCXB word-level score (the benchmark evaluate.py definition)', () => {
  it('takes precision and recall from the overlap of the two bags of lower-cased words', () => {
    // gold: the(2) cat sat on mat; predicted: the cat the dog → overlap the×2 + cat = 3
    const score = wcxbWordScore('The cat sat on the mat.', 'the CAT, the dog');
    close(score.precision, 3 / 4);
    close(score.recall, 3 / 6);
    close(score.f1, (2 * (3 / 4) * (3 / 6)) / (3 / 4 + 3 / 6));
  });

  it('counts a repeated word only as often as the gold has it', () => {
    const score = wcxbWordScore('spam eggs', 'spam spam spam spam');
    close(score.precision, 1 / 4);
    close(score.recall, 1 / 2);
  });

  it('ignores word order (unlike lcs F1): a shuffled text scores 1', () => {
    assert.deepEqual(wcxbWordScore('one two three', 'three two one'), { precision: 1, recall: 1, f1: 1 });
  });

  it('scores empty gold 1 against an empty prediction and 0 against any text; an empty prediction 0', () => {
    assert.deepEqual(wcxbWordScore('', '  ,. '), { precision: 1, recall: 1, f1: 1 });
    assert.deepEqual(wcxbWordScore('', 'words'), { precision: 0, recall: 0, f1: 0 });
    assert.deepEqual(wcxbWordScore('words', ''), { precision: 0, recall: 0, f1: 0 });
    assert.deepEqual(wcxbWordScore('a b', 'c d'), { precision: 0, recall: 0, f1: 0 });
  });

  it('gives the same page F1 as bag-of-words F1 (same words, same overlap)', () => {
    for (const [gold, predicted] of [
      ['Привет мир, привет', 'привет ПРИВЕТ мир мир'],
      ['The article body. Second line', 'Menu The article body. Footer'],
    ] as const)
      close(wcxbWordScore(gold, predicted).f1, bowF1(gold, predicted));
  });
});

describe('WCXB snippet checks', () => {
  it('reports the share of "with" snippets kept and "without" snippets leaked, case-insensitively', () => {
    const score = wcxbPageScore('Body text here', 'Body TEXT here. Order Now', { with: ['body text', 'missing line'], without: ['order now', 'Login'] });
    close(score.withRate, 1 / 2);
    close(score.withoutRate, 1 / 2);
  });

  it('scores 1 for a kind of snippet the page lists none of (the benchmark convention)', () => {
    const score = wcxbPageScore('a', 'a');
    assert.equal(score.withRate, 1);
    assert.equal(score.withoutRate, 1);
  });

  it('averages every figure over pages', () => {
    const summary = wcxbScore([wcxbPageScore('a b', 'a b', { without: ['x'] }), wcxbPageScore('a b', '', { without: ['x'] })]);
    close(summary.f1, 0.5);
    close(summary.precision, 0.5);
    close(summary.withoutRate, 0);
    assert.deepEqual(wcxbScore([]), { precision: 0, recall: 0, f1: 0, withRate: 0, withoutRate: 0 });
  });
});
