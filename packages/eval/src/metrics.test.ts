import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shingleMatch, shingleScore } from './shingle.js';
import { lowerCaseWords, words } from './tokens.js';
import { bowF1, lcsF1, lcsLength } from './wordF1.js';

const close = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

describe('tokens', () => {
  it('are Python-style \\w+ runs: letters and digits of any script, underscore, no punctuation', () => {
    assert.deepEqual(words("Don't stop — Привет_мир 42!"), ['Don', 't', 'stop', 'Привет_мир', '42']);
    assert.deepEqual(lowerCaseWords('The THE the'), ['the', 'the', 'the']);
  });
});

describe('shingle (the ScrapingHub benchmark metric)', () => {
  it('is perfect for identical texts and ignores punctuation and spacing', () => {
    assert.deepEqual(shingleMatch('a b c d e', 'a, b c\n d e!'), { tp: 1, fp: 0, fn: 0 });
  });

  it('counts shingle multisets and normalises tp+fp+fn to 1', () => {
    // gold shingles: (a b c d), (b c d e); predicted: (a b c d), (b c d x)
    const match = shingleMatch('a b c d e', 'a b c d x');
    close(match.tp, 1 / 3);
    close(match.fp, 1 / 3);
    close(match.fn, 1 / 3);
  });

  it('is case-sensitive', () => {
    assert.equal(shingleMatch('A b c d', 'a b c d').tp, 0);
  });

  it('gives a text of fewer than 4 tokens one shorter shingle, and an empty text none', () => {
    assert.deepEqual(shingleMatch('two words', 'two words'), { tp: 1, fp: 0, fn: 0 });
    assert.deepEqual(shingleMatch('two words', ''), { tp: 0, fp: 0, fn: 1 });
    assert.deepEqual(shingleMatch('', ''), { tp: 0, fp: 0, fn: 0 });
  });

  it('averages precision and recall over pages first, skipping undefined ones, then takes F1', () => {
    const pages = [shingleMatch('a b c d e', 'a b c d x'), shingleMatch('p q r s', ''), shingleMatch('', '')];
    const score = shingleScore(pages);
    close(score.p, 0.5); // page 2 has no predicted shingles, page 3 has none at all: skipped
    close(score.r, (0.5 + 0) / 2);
    close(score.f1, (2 * 0.5 * 0.25) / 0.75);
  });
});

describe('bow_f1', () => {
  it('compares lower-cased word multisets', () => {
    close(bowF1('The cat saw the dog', 'the DOG saw a cat'), (2 * 4) / 10);
    assert.equal(bowF1('', ''), 1);
    assert.equal(bowF1('words', ''), 0);
  });
});

describe('lcs_f1', () => {
  it('punishes text in the wrong order, which bow_f1 does not', () => {
    assert.equal(bowF1('one two three four', 'three four one two'), 1);
    close(lcsF1('one two three four', 'three four one two'), 0.5);
  });

  it('agrees with the textbook dynamic programme on random sequences across word boundaries', () => {
    let state = 7;
    const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
    const sequence = (length: number) => Array.from({ length }, () => String(Math.floor(random() * 6)));
    for (const [m, n] of [
      [1, 1],
      [31, 33],
      [32, 32],
      [33, 70],
      [64, 65],
      [200, 150],
      [5, 300],
    ] as const) {
      const a = sequence(m);
      const b = sequence(n);
      assert.equal(lcsLength(a, b), dynamicLcs(a, b), `${m}x${n}`);
    }
  });

  it('scores two 20,000-word pages', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `w${(i * 7) % 5000}`);
    const b = Array.from({ length: 20_000 }, (_, i) => `w${(i * 11) % 5000}`);
    const length = lcsLength(a, b);
    assert.ok(length > 0 && length <= 20_000);
  });
});

function dynamicLcs(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}
