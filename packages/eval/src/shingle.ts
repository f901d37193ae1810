import { words } from './tokens.js';

/** One page's shingle matches, normalised so that tp + fp + fn = 1 (or all 0 for two empty texts). */
export interface ShingleMatch {
  tp: number;
  fp: number;
  fn: number;
}

const SHINGLE_SIZE = 4;

/**
 * The ScrapingHub article-extraction-benchmark's `string_shingle_matching`: case-sensitive `\w+`
 * tokens, multisets of 4-token shingles (a text of fewer than 4 tokens gives one shorter shingle, an
 * empty text none), tp/fp/fn from the count minima and excesses, normalised so long pages do not
 * weigh more.
 */
export function shingleMatch(gold: string, predicted: string): ShingleMatch {
  const goldShingles = shingles(gold);
  const predictedShingles = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [shingle, goldCount] of goldShingles) {
    const predictedCount = predictedShingles.get(shingle) ?? 0;
    tp += Math.min(goldCount, predictedCount);
    fn += Math.max(0, goldCount - predictedCount);
  }
  for (const [shingle, predictedCount] of predictedShingles) {
    fp += Math.max(0, predictedCount - (goldShingles.get(shingle) ?? 0));
  }
  const total = tp + fp + fn;
  return total > 0 ? { tp: tp / total, fp: fp / total, fn: fn / total } : { tp, fp, fn };
}

/**
 * The benchmark's `metrics_from_tp_fp_fns`: precision is the mean over pages with tp + fp > 0,
 * recall the mean over pages with tp + fn > 0 (a page with fp = fn = 0 scores 1 on both), and F1 is
 * the harmonic mean of those two means — not a mean of per-page F1.
 */
export function shingleScore(matches: readonly ShingleMatch[]): { p: number; r: number; f1: number } {
  const precisions = matches.filter((m) => m.tp + m.fp > 0).map((m) => (m.fp === 0 && m.fn === 0 ? 1 : m.tp / (m.tp + m.fp)));
  const recalls = matches.filter((m) => m.tp + m.fn > 0).map((m) => (m.fp === 0 && m.fn === 0 ? 1 : m.tp / (m.tp + m.fn)));
  const p = mean(precisions);
  const r = mean(recalls);
  return { p, r, f1: p + r > 0 ? (2 * p * r) / (p + r) : 0 };
}

/** Per-page shingle F1, for per-site tables (the benchmark itself only reports the macro F1). */
export function pageShingleF1(match: ShingleMatch): number {
  if (match.fp === 0 && match.fn === 0) return 1;
  return match.tp === 0 ? 0 : (2 * match.tp) / (2 * match.tp + match.fp + match.fn);
}

function shingles(text: string): Map<string, number> {
  const tokens = words(text);
  const counts = new Map<string, number>();
  const last = Math.max(1, tokens.length - SHINGLE_SIZE + 1);
  for (let i = 0; i < last && i < tokens.length; i++) {
    const shingle = tokens.slice(i, i + SHINGLE_SIZE).join('\u0000');
    counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
  }
  return counts;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
