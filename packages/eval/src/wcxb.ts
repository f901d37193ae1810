import { lowerCaseWords } from './tokens.js';

/** One page's figures by the WCXB definition (see `wcxbPageScore`). */
export interface WcxbPageScore {
  precision: number;
  recall: number;
  f1: number;
  withRate: number;
  withoutRate: number;
}

/** The gold's snippets that a good extraction must hold (`with`) and must not (`without`). */
export interface WcxbSnippets {
  with?: readonly string[];
  without?: readonly string[];
}

/**
 * One page scored as the Web Content eXtraction Benchmark (WCXB, Foley 2026) scores it in its
 * published `evaluate.py`, so that our single-page figures can be set beside its leaderboard.
 * Written here from its definition, not copied:
 * - words are lower-cased `\w+` runs (our `lowerCaseWords`, the same rule);
 * - precision and recall come from the multiset overlap of the two bags of words, and the page's F1
 *   from them; a page with empty gold scores 1 when the prediction is empty too, else 0, and an
 *   empty prediction against non-empty gold scores 0;
 * - `withRate`: the share of the gold's "with" snippets found in the prediction, `withoutRate` the
 *   share of its "without" (boilerplate) snippets found there, both as lower-cased substrings. A page
 *   with no snippets of a kind scores 1 for that kind: the benchmark's own convention, kept so
 *   that averages compare (it lifts the "without" average of pages that list none).
 * The benchmark averages each of the five over pages (macro), as `wcxbScore` does.
 */
export function wcxbPageScore(gold: string, predicted: string, snippets: WcxbSnippets = {}): WcxbPageScore {
  const { precision, recall, f1 } = wcxbWordScore(gold, predicted);
  return { precision, recall, f1, withRate: snippetRate(predicted, snippets.with), withoutRate: snippetRate(predicted, snippets.without) };
}

/** WCXB's word-level precision, recall and F1 of one page (bag of lower-cased `\w+` words). */
export function wcxbWordScore(gold: string, predicted: string): { precision: number; recall: number; f1: number } {
  const goldWords = lowerCaseWords(gold);
  const predictedWords = lowerCaseWords(predicted);
  if (goldWords.length === 0) return predictedWords.length === 0 ? { precision: 1, recall: 1, f1: 1 } : { precision: 0, recall: 0, f1: 0 };
  if (predictedWords.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const left = new Map<string, number>();
  for (const word of goldWords) left.set(word, (left.get(word) ?? 0) + 1);
  let overlap = 0;
  for (const word of predictedWords) {
    const count = left.get(word) ?? 0;
    if (count > 0) {
      overlap++;
      left.set(word, count - 1);
    }
  }
  const precision = overlap / predictedWords.length;
  const recall = overlap / goldWords.length;
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** The share of `snippets` that the text holds (lower-cased substring), 1 when there are none. */
function snippetRate(text: string, snippets: readonly string[] | undefined): number {
  if (!snippets || snippets.length === 0) return 1;
  const lower = text.toLowerCase();
  return snippets.filter((snippet) => lower.includes(snippet.toLowerCase())).length / snippets.length;
}

/** The benchmark's summary: each per-page figure averaged over the pages (0 for none). */
export function wcxbScore(pages: readonly WcxbPageScore[]): WcxbPageScore {
  const average = (pick: (page: WcxbPageScore) => number) => (pages.length === 0 ? 0 : pages.reduce((sum, page) => sum + pick(page), 0) / pages.length);
  return {
    precision: average((page) => page.precision),
    recall: average((page) => page.recall),
    f1: average((page) => page.f1),
    withRate: average((page) => page.withRate),
    withoutRate: average((page) => page.withoutRate),
  };
}
