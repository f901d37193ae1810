import { lowerCaseWords } from './tokens.js';

/**
 * F1 from an overlap count, with the conventions both word metrics share: two empty texts agree
 * perfectly (1), one empty text against a non-empty one scores 0.
 */
function f1(overlap: number, goldLength: number, predictedLength: number): number {
  if (goldLength === 0 && predictedLength === 0) return 1;
  if (overlap === 0) return 0;
  return (2 * overlap) / (goldLength + predictedLength);
}

/** Bag-of-words F1 of one page: lower-cased `\w+` tokens as multisets (the Dragnet paper's measure). */
export function bowF1(gold: string, predicted: string): number {
  const goldWords = lowerCaseWords(gold);
  const predictedWords = lowerCaseWords(predicted);
  const counts = new Map<string, number>();
  for (const word of goldWords) counts.set(word, (counts.get(word) ?? 0) + 1);
  let overlap = 0;
  for (const word of predictedWords) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(word, left - 1);
    }
  }
  return f1(overlap, goldWords.length, predictedWords.length);
}

/**
 * Order-sensitive word F1 of one page: precision and recall from the longest common subsequence of
 * the lower-cased `\w+` word sequences (the word-level measure of the FastCE and WLR papers). Text in
 * the wrong order loses exactly what an exact-phrase search would lose.
 */
export function lcsF1(gold: string, predicted: string): number {
  const goldWords = lowerCaseWords(gold);
  const predictedWords = lowerCaseWords(predicted);
  return f1(lcsLength(goldWords, predictedWords), goldWords.length, predictedWords.length);
}

/**
 * Length of the longest common subsequence, bit-parallel (Allison & Dix 1986; Hyyrö 2004): the
 * shorter sequence is a bit vector, and each word of the longer one updates it with one addition
 * and a few bitwise operations per 32 positions — O(n·m/32) time, O(σ·m/32) memory for the
 * σ distinct words the two sequences share.
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const m = short.length;
  if (m === 0) return 0;
  const wordsPerVector = Math.ceil(m / 32);
  const occurs = new Set(long);
  const matches = new Map<string, Uint32Array>();
  short.forEach((word, position) => {
    if (!occurs.has(word)) return;
    let vector = matches.get(word);
    if (!vector) {
      vector = new Uint32Array(wordsPerVector);
      matches.set(word, vector);
    }
    vector[position >>> 5]! |= 1 << (position & 31);
  });
  const v = new Uint32Array(wordsPerVector).fill(0xffffffff);
  for (const word of long) {
    const match = matches.get(word);
    if (!match) continue;
    let carry = 0;
    for (let k = 0; k < wordsPerVector; k++) {
      const vk = v[k]!;
      const u = (vk & match[k]!) >>> 0;
      const sum = vk + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[k] = (sum | (vk & ~u)) >>> 0;
    }
  }
  let zeros = 0;
  for (let k = 0; k < wordsPerVector; k++) {
    const bits = k === wordsPerVector - 1 && m % 32 !== 0 ? m % 32 : 32;
    let word = ~v[k]! >>> 0;
    if (bits < 32) word &= (1 << bits) - 1;
    zeros += popcount(word);
  }
  return zeros;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
