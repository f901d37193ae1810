import { performance } from 'node:perf_hooks';
import { ExtractionError } from '@winnow/extract';
import { goldMismatch, type GoldPage } from './dataset.js';
import { openScoringMethod, type AsyncPageExtractor } from './methods.js';
import { siteFolds } from './protocol.js';
import { mean, pageShingleF1, shingleMatch, shingleScore, type ShingleMatch } from './shingle.js';
import { wcxbPageScore, wcxbScore, type WcxbPageScore } from './wcxb.js';
import { bowF1, lcsF1 } from './wordF1.js';

export interface EvaluateOptions {
  method: string;
  /** Only sites with at least this many pages (default: 10 for template methods, 1 for single-page ones). */
  minPagesPerSite?: number;
  folds: number;
  /** The Chromium `vge` lays pages out in (`WINNOW_CHROMIUM_PATH`). */
  chromiumPath?: string;
  /** Called after each scored page, for progress bars. */
  onPage?: (done: number, total: number) => void;
}

/** One scored page. `error` says why a page got no text at all (its scores are then 0). */
export interface PageOutcome {
  id: string;
  site: string;
  text: string;
  shingle: ShingleMatch;
  bowF1: number;
  lcsF1: number;
  /** The page by the WCXB benchmark's own definition (word-level P/R/F1 and its snippet checks). */
  wcxb: WcxbPageScore;
  /** Detection time, parsing included; template preparation is not counted here. */
  ms: number;
  /** No text at all where the gold has some: the failure an index must never hide. */
  empty: boolean;
  /** The dataset says this page's gold is not its HTML's text (`goldMismatch`): no method can score well on it. */
  goldMismatch: boolean;
  error?: string;
}

/** The fixed report format of `winnow eval --json`. */
export interface EvaluationReport {
  method: string;
  pages: number;
  sites: number;
  shingle: { p: number; r: number; f1: number };
  bow_f1: number;
  lcs_f1: number;
  /**
   * The WCXB benchmark's figures (`wcxbPageScore`), averaged over pages as its scorer does: word-level
   * precision, recall and F1, and the shares of its `with` snippets kept and `without` snippets leaked
   * (1 for a page that lists none, its convention). Comparable with its leaderboard on the wcxb dataset.
   */
  wcxb: { p: number; r: number; f1: number; with_snippets: number; without_snippets: number };
  ms_per_page: { median: number; p95: number };
  /** Pages with no text where the gold has some. */
  empty: number;
  per_site: Array<{ site: string; pages: number; shingle_f1: number; bow_f1: number; lcs_f1: number; empty: number }>;
  /**
   * The pages whose gold the dataset flags as not the text of their HTML (`goldMismatch`), counted
   * in every figure above, and the scores of the other pages: reported apart, as the shared
   * datasets advise, so that a score is not read as an extractor's fault that is its gold's.
   */
  gold_mismatch: { ids: string[]; others: { pages: number; shingle_f1: number; bow_f1: number; lcs_f1: number } };
}

/**
 * Runs one method over gold pages and scores it. Single-page methods read every page. Template
 * methods follow the k-fold template protocol (`siteFolds`): each page is extracted with a template
 * prepared without it. Pages are never dropped: a page the method cannot read scores 0 and carries
 * its error.
 */
export async function evaluate(pages: readonly GoldPage[], options: EvaluateOptions): Promise<{ report: EvaluationReport; outcomes: PageOutcome[] }> {
  const method = await openScoringMethod(options.method, options.chromiumPath);
  try {
    const outcomes =
      method.kind === 'single' ? await scoreSinglePage(pages, method.extract, options) : await scoreWithTemplates(pages, method.prepare, options);
    return { report: summarise(method.name, outcomes), outcomes };
  } finally {
    await method.close();
  }
}

async function scoreSinglePage(pages: readonly GoldPage[], extract: AsyncPageExtractor, options: EvaluateOptions): Promise<PageOutcome[]> {
  const outcomes: PageOutcome[] = [];
  const scored = pagesOfSitesWithAtLeast(pages, options.minPagesPerSite ?? 1);
  for (const page of scored) {
    outcomes.push(await scorePage(page, extract));
    options.onPage?.(outcomes.length, scored.length);
  }
  return outcomes;
}

async function scoreWithTemplates(
  pages: readonly GoldPage[],
  prepare: (pages: readonly string[]) => AsyncPageExtractor,
  options: EvaluateOptions,
): Promise<PageOutcome[]> {
  const outcomes: PageOutcome[] = [];
  const sites = siteFolds(pages, { minPagesPerSite: options.minPagesPerSite ?? 10, folds: options.folds });
  const total = sites.reduce((sum, site) => sum + site.pages.length, 0);
  for (const site of sites) {
    for (const [foldIndex, heldOut] of site.folds.entries()) {
      const training = site.folds.flatMap((fold, i) => (i === foldIndex ? [] : fold.map((page) => page.html)));
      let extractor: AsyncPageExtractor | Error;
      try {
        extractor = prepare(training);
      } catch (error) {
        extractor = asExtractionError(error);
      }
      for (const page of heldOut) {
        outcomes.push(await scorePage(page, extractor));
        options.onPage?.(outcomes.length, total);
      }
    }
  }
  return outcomes;
}

function pagesOfSitesWithAtLeast(pages: readonly GoldPage[], minimum: number): GoldPage[] {
  const counts = new Map<string, number>();
  for (const page of pages) counts.set(page.site, (counts.get(page.site) ?? 0) + 1);
  return pages.filter((page) => (counts.get(page.site) ?? 0) >= minimum);
}

async function scorePage(page: GoldPage, extractor: AsyncPageExtractor | Error): Promise<PageOutcome> {
  let text = '';
  let error: string | undefined;
  const start = performance.now();
  if (extractor instanceof Error) {
    error = `no template: ${extractor.message}`;
  } else {
    try {
      text = (await extractor(page.html)).text;
    } catch (caught) {
      error = asExtractionError(caught).message;
    }
  }
  const ms = performance.now() - start;
  return {
    id: page.id,
    site: page.site,
    text,
    shingle: shingleMatch(page.gold, text),
    bowF1: bowF1(page.gold, text),
    lcsF1: lcsF1(page.gold, text),
    wcxb: wcxbPageScore(page.gold, text, page.snippets),
    ms,
    empty: text.trim() === '' && page.gold.trim() !== '',
    goldMismatch: goldMismatch(page),
    ...(error === undefined ? {} : { error }),
  };
}

/** Extraction errors are outcomes to report; anything else is a bug and is thrown on. */
function asExtractionError(error: unknown): ExtractionError {
  if (error instanceof ExtractionError) return error;
  throw error;
}

export function summarise(method: string, outcomes: readonly PageOutcome[]): EvaluationReport {
  const bySite = new Map<string, PageOutcome[]>();
  for (const outcome of outcomes) {
    const list = bySite.get(outcome.site) ?? [];
    list.push(outcome);
    bySite.set(outcome.site, list);
  }
  const times = outcomes.map((outcome) => outcome.ms).sort((a, b) => a - b);
  return {
    method,
    pages: outcomes.length,
    sites: bySite.size,
    shingle: shingleScore(outcomes.map((outcome) => outcome.shingle)),
    bow_f1: mean(outcomes.map((outcome) => outcome.bowF1)),
    lcs_f1: mean(outcomes.map((outcome) => outcome.lcsF1)),
    wcxb: wcxbSummary(outcomes),
    ms_per_page: { median: quantile(times, 0.5), p95: quantile(times, 0.95) },
    empty: emptyPages(outcomes),
    per_site: [...bySite.entries()].map(([site, list]) => ({
      site,
      pages: list.length,
      shingle_f1: mean(list.map((outcome) => pageShingleF1(outcome.shingle))),
      bow_f1: mean(list.map((outcome) => outcome.bowF1)),
      lcs_f1: mean(list.map((outcome) => outcome.lcsF1)),
      empty: emptyPages(list),
    })),
    gold_mismatch: goldMismatchSummary(outcomes),
  };
}

function wcxbSummary(outcomes: readonly PageOutcome[]): EvaluationReport['wcxb'] {
  const score = wcxbScore(outcomes.map((outcome) => outcome.wcxb));
  return { p: score.precision, r: score.recall, f1: score.f1, with_snippets: score.withRate, without_snippets: score.withoutRate };
}

function goldMismatchSummary(outcomes: readonly PageOutcome[]): EvaluationReport['gold_mismatch'] {
  const others = outcomes.filter((outcome) => !outcome.goldMismatch);
  return {
    ids: outcomes.filter((outcome) => outcome.goldMismatch).map((outcome) => outcome.id),
    others: {
      pages: others.length,
      shingle_f1: shingleScore(others.map((outcome) => outcome.shingle)).f1,
      bow_f1: mean(others.map((outcome) => outcome.bowF1)),
      lcs_f1: mean(others.map((outcome) => outcome.lcsF1)),
    },
  };
}

function emptyPages(outcomes: readonly PageOutcome[]): number {
  return outcomes.filter((outcome) => outcome.empty).length;
}

/** Nearest-rank quantile of sorted values (0 for none). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
