import type { ContentMiss, PhraseCounts, SearchRates } from './misses.js';
import { MISS_LAYERS, sumCounts } from './misses.js';
import type { Phrase, PhraseKind } from './phrases.js';
import { PHRASE_KINDS } from './phrases.js';

/** One dataset page after the replay: how the crawl and the pipeline handled it, and its scores against the gold. */
export interface ReplayPageResult {
  id: string;
  site: string;
  /** The URL it was stored under, or null when it never was. */
  url: string | null;
  path: string;
  pathFrom: string;
  /** The crawl's outcome for its URL (`stored`, `refused: …`), or why it was never admitted. */
  outcome: string;
  stored: boolean;
  duplicateOf: string | null;
  indexed: boolean;
  /** How it was read: `template`, `template: read alone`, `no template`, `not extracted`, `not stored`, with `(v1 of 2)` when an earlier template version's trusted reading stood. */
  reading: string;
  method: string | null;
  cluster: string | null;
  templateVersion: number | null;
  siteTemplateVersion: number | null;
  warnings: string[];
  words: number;
  goldEmpty: boolean;
  /** lcs F1 of its own search document (none scores 0, as a grader who looks pages up by URL finds). */
  lcsIndexed: number;
  /** lcs F1 of its stored extraction. */
  lcsExtracted: number;
  /** lcs F1 of the document a reader following a duplicate to its original finds. */
  lcsThroughOriginal: number;
  emptyIndexed: boolean;
  /** lcs F1 of the k-fold `pipeline` prediction for the same page, when one was made. */
  lcsKfold?: number;
  emptyKfold?: boolean;
  indexedText: string;
}

/** Averages and counts over a set of replayed pages (a site, or the dataset). */
export interface ReplaySummary {
  pages: number;
  notStored: number;
  duplicates: number;
  notIndexed: number;
  lcsIndexed: number;
  lcsExtracted: number;
  lcsThroughOriginal: number;
  lcsKfold: number;
  lcsIndexedOnKfoldPages: number;
  emptyIndexed: number;
  emptyKfold: number;
  readings: Record<string, number>;
}

/** A searched phrase and what became of it. */
export interface SearchedPhrase extends Phrase, Partial<ContentMiss> {
  site: string;
  url?: string | null;
  found?: boolean;
  total: number;
  error?: string;
  /** boilerplate: how many indexed pages of the site hold it. */
  heldBy?: number;
  /** boilerplate: the first five pages it matched, and why each kept it. */
  matches?: Array<{ url: string; id: string | null; line: number | null; indexed: string | null; goldRun: number; cause: string }>;
  /** search-layer misses: what the index's diagnosis found (the Postgres index only). */
  causes?: string[];
  lexemes?: string | null;
  joinedLexemes?: string[];
  layerCause?: string;
}

export interface SearchReport {
  seed: string;
  perSite: Array<{ site: string; counts: Record<PhraseKind, PhraseCounts> }>;
  /** Every site's counts summed. */
  all: Record<PhraseKind, PhraseCounts>;
  /** The three rates over every site: what `winnow report` puts beside lcs F1. */
  rates: SearchRates;
  phrases: SearchedPhrase[];
  /** The pages no inside or across phrase was taken from: their gold is not their text (`SamplePage.goldIsNotItsText`). */
  pagesNotSampled: string[];
}

/** One replayed site: how it was served and crawled, its templates now, and the templater's page types of its stored pages. */
export interface ReplaySiteInfo {
  site: string;
  origin: string;
  /** Where its pages' paths came from (`dataset`, `canonical`, `id`, `synthetic`), counted. */
  paths: Record<string, number>;
  crawl: { state: string; counts: unknown; error: string | null } | null;
  frontierOutcomes: Record<string, number>;
  requests: { pages: number; missing: number };
  templates: Array<{ cluster: string; patterns: unknown; pageCount: number; sampleSize: number; version: number }>;
  clusters: Array<{ key: string; patterns: unknown; pages: number; datasetPages: number }>;
}

/** The JSON report of `winnow eval --replay … --json` (documented in docs/replay.md). */
export interface ReplayReport {
  dataset: string;
  crawlSeconds: number;
  timedOut: boolean;
  kfoldSeconds: number | null;
  overall: ReplaySummary;
  sites: Array<ReplaySiteInfo & { summary: ReplaySummary }>;
  pages: ReplayPageResult[];
  search: SearchReport | null;
}

export function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const mean = (values: readonly number[]) => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);
const f3 = (value: number | null) => (value === null || Number.isNaN(value) ? '  -  ' : value.toFixed(3));

export function summarisePages(rows: readonly ReplayPageResult[]): ReplaySummary {
  const both = rows.filter((row) => row.lcsKfold !== undefined);
  return {
    pages: rows.length,
    notStored: rows.filter((row) => !row.stored).length,
    duplicates: rows.filter((row) => row.duplicateOf).length,
    notIndexed: rows.filter((row) => !row.indexed).length,
    lcsIndexed: mean(rows.map((row) => row.lcsIndexed)),
    lcsExtracted: mean(rows.map((row) => row.lcsExtracted)),
    lcsThroughOriginal: mean(rows.map((row) => row.lcsThroughOriginal)),
    lcsKfold: mean(both.map((row) => row.lcsKfold!)),
    lcsIndexedOnKfoldPages: mean(both.map((row) => row.lcsIndexed)),
    emptyIndexed: rows.filter((row) => row.emptyIndexed).length,
    emptyKfold: both.filter((row) => row.emptyKfold).length,
    readings: countBy(rows.map((row) => row.reading)),
  };
}

/** The per-site table, the gap against k-fold by kind of reading, the sites' templates and the pages not stored. */
export function formatPagesReport(report: ReplayReport, verbose: boolean): string {
  const out: string[] = [];
  const summaryRow = (name: string, s: ReplaySummary) =>
    [
      name,
      s.pages,
      s.notStored,
      s.duplicates,
      s.notIndexed,
      f3(s.lcsIndexed),
      f3(s.lcsThroughOriginal),
      f3(s.lcsExtracted),
      f3(s.lcsKfold),
      `${s.emptyIndexed}/${s.emptyKfold}`,
      Object.entries(s.readings)
        .map(([reading, count]) => `${reading} ${count}`)
        .join(', '),
    ].join('\t');
  out.push(
    `\n== ${report.dataset}: crawled and indexed vs k-fold pipeline (lcs F1 per page, averaged; same pages)`,
    [
      'site',
      'pages',
      'not stored',
      'dup',
      'not indexed',
      'crawled lcs',
      'dups via original',
      'extracted lcs',
      'k-fold lcs',
      'empty crawled/k-fold',
      'readings',
    ].join('\t'),
    ...report.sites.map((site) => summaryRow(site.site, site.summary)),
    summaryRow('ALL', report.overall),
  );
  const compared = report.pages.filter((row) => row.lcsKfold !== undefined);
  out.push(
    `pipeline ${report.timedOut ? 'NOT idle (timed out)' : 'idle'} after ${report.crawlSeconds.toFixed(1)} s${report.kfoldSeconds === null ? '' : `; k-fold evaluation ${report.kfoldSeconds.toFixed(1)} s`}; ` +
      `crawled lcs ${f3(report.overall.lcsIndexedOnKfoldPages)} vs k-fold ${f3(report.overall.lcsKfold)} on the ${compared.length} pages both read`,
  );
  if (compared.length > 0) {
    out.push('\nthe gap by how the crawled path read the page (contribution: sum of crawled - k-fold over all compared pages)');
    const kinds = new Map<string, ReplayPageResult[]>();
    for (const row of compared) {
      const kind = row.duplicateOf ? 'duplicate: not indexed' : row.reading.replace(/ \(v\d+ of \d+\)$/, '');
      kinds.set(kind, [...(kinds.get(kind) ?? []), row]);
    }
    for (const [kind, rows] of kinds) {
      const gap = rows.reduce((sum, row) => sum + row.lcsIndexed - row.lcsKfold!, 0) / compared.length;
      const worse = rows.filter((row) => row.lcsIndexed < row.lcsKfold! - 0.02).length;
      const better = rows.filter((row) => row.lcsIndexed > row.lcsKfold! + 0.02).length;
      out.push(
        `  ${kind}: ${rows.length} pages, crawled ${f3(mean(rows.map((row) => row.lcsIndexed)))}, k-fold ${f3(mean(rows.map((row) => row.lcsKfold!)))}, ` +
          `contribution ${(gap >= 0 ? '+' : '') + gap.toFixed(4)}; ${worse} pages worse and ${better} better by more than 0.02`,
      );
    }
  }
  out.push('\nper site: templates (current version) and the templater clustering of the stored pages');
  for (const info of report.sites) {
    const templated = info.templates.map((t) => `${t.cluster} (${t.pageCount} pages)`).join(', ') || 'none';
    const clusters = info.clusters.map((c) => `${c.key}: ${c.pages}${c.pages === c.datasetPages ? '' : ` (${c.datasetPages} dataset)`}`).join('; ');
    out.push(
      `${info.site}: paths ${JSON.stringify(info.paths)}; crawl ${info.crawl?.state} ${JSON.stringify(info.frontierOutcomes)}; templates: ${templated}; clusters: ${clusters}`,
    );
  }
  const unstored = report.pages.filter((row) => !row.stored);
  if (unstored.length > 0) {
    out.push('\npages not stored');
    for (const row of unstored) out.push(`  ${row.site}\t${row.id}\t${row.path}\t${row.outcome}`);
  }
  if (verbose) {
    out.push('\nper page: site, id, path, reading, cluster, crawled lcs, k-fold lcs');
    for (const row of report.pages)
      out.push(
        `${row.site}\t${row.id}\t${row.path}\t${row.reading}\t${row.cluster ?? '-'}\t${f3(row.lcsIndexed)}\t${f3(row.lcsKfold ?? Number.NaN)}${row.duplicateOf ? `\tduplicate of ${row.duplicateOf}` : ''}`,
      );
  }
  return `${out.join('\n')}\n`;
}

/** The searches' table per site, then the misses by layer and cause, and the boilerplate that matched. */
export function formatSearchReport(dataset: string, report: SearchReport, count: number, verbose: boolean): string {
  const share = (n: number, d: number) => (d === 0 ? '  -  ' : (n / d).toFixed(3));
  const cell = (c: PhraseCounts) => `${share(c.found, c.phrases)} (${c.found}/${c.phrases})`;
  const misses = (c: PhraseCounts) => `${c.extraction}/${c.searchLayer}/${c.notIndexed}`;
  const out = [
    `\n== ${dataset}: exact-phrase searches through the product's search (seed ${report.seed}; up to ${count} phrases of each kind per site)`,
    'inside/across: recall (the page, or the page its duplicate points to, among the results); misses: extraction dropped / search layer / not indexed.',
    'boilerplate: share whose search matches any page of the site; "in index" the share some indexed page of the site holds as text (reader words), whether or not its search matched',
    ['site', 'inside', 'misses', 'across', 'misses', 'boilerplate matched', 'in index', 'query errors'].join('\t'),
  ];
  const row = (name: string, counts: Record<PhraseKind, PhraseCounts>) => {
    const { inside, across, boilerplate } = counts;
    return [
      name,
      cell(inside),
      misses(inside),
      cell(across),
      misses(across),
      cell(boilerplate),
      `${share(boilerplate.heldByIndex, boilerplate.phrases)} (${boilerplate.heldByIndex})`,
      inside.queryErrors + across.queryErrors + boilerplate.queryErrors,
    ].join('\t');
  };
  for (const site of report.perSite) out.push(row(site.site, site.counts));
  out.push(row('ALL', report.all));
  if (report.pagesNotSampled.length > 0)
    out.push(
      `(no inside or across phrase taken from ${report.pagesNotSampled.length} pages whose gold is not their text, as winnow eval's gold_mismatch: ${report.pagesNotSampled.join(', ')})`,
    );
  const pastInterruption = report.all.inside.foundPastInterruption + report.all.across.foundPastInterruption;
  if (pastInterruption > 0) out.push(`(${pastInterruption} phrases were found past a caption, credit or dateline the indexed text holds between their halves)`);
  const withoutText = report.all.inside.foundWithoutText + report.all.across.foundWithoutText;
  if (withoutText > 0) out.push(`(${withoutText} phrases were found although the page's indexed text does not hold their words as a run)`);
  out.push('\nmisses by the layer that lost them (inside / across):');
  for (const layer of MISS_LAYERS) out.push(`  ${layer}: ${report.all.inside.layers[layer]} / ${report.all.across.layers[layer]}`);
  const layer = report.phrases.filter(
    (phrase) => phrase.cause === 'search layer' || phrase.error || (phrase.kind === 'boilerplate' && (phrase.heldBy ?? 0) > 0 && phrase.total === 0),
  );
  out.push(
    `\nsearch-layer misses (the page's indexed text holds the phrase, its search did not find the page; boilerplate: kept in the index, hidden from search): ${layer.length}`,
  );
  if (layer.length > 0)
    out.push(
      `  by cause: ${Object.entries(countBy(layer.map((phrase) => phrase.layerCause ?? (phrase.error ? 'query error' : '?'))))
        .map(([cause, n]) => `${cause} ${n}`)
        .join(', ')}`,
    );
  for (const phrase of layer) {
    out.push(`  [${phrase.kind}] ${phrase.site} ${phrase.query}${phrase.error ? `  ERROR ${phrase.error}` : ''}`);
    if (phrase.indexed) out.push(`      indexed: ${phrase.indexed}`);
    if (phrase.causes) out.push(`      why: ${phrase.causes.join('; ')}`);
    if (phrase.lexemes) out.push(`      to_tsvector there: ${phrase.lexemes}`);
  }
  const dropped = report.phrases.filter((phrase) => phrase.cause && phrase.cause !== 'search layer');
  out.push(`\nextraction misses (the phrase is not in the page's indexed text): ${dropped.length}`);
  for (const kind of ['inside', 'across'] as const) {
    const ofKind = dropped.filter((phrase) => phrase.kind === kind);
    out.push(`  ${kind}: ${ofKind.length}`);
    for (const [cause, n] of Object.entries(countBy(ofKind.map((phrase) => phrase.cause!))).sort((x, y) => y[1] - x[1])) out.push(`    ${n}\t${cause}`);
  }
  for (const phrase of verbose ? dropped : dropped.slice(0, 15)) {
    out.push(`  [${phrase.kind}] ${phrase.site} ${phrase.pageId} ${phrase.query}: ${phrase.cause}`);
    if (phrase.between !== undefined) out.push(`      between them: ${JSON.stringify(phrase.between)}`);
    else if (phrase.indexed) out.push(`      indexed: ${phrase.indexed}`);
  }
  if (!verbose && dropped.length > 15) out.push(`  … ${dropped.length - 15} more (--verbose)`);
  const boilerplate = report.phrases.filter((phrase) => phrase.kind === 'boilerplate');
  const falseMatches = boilerplate.filter((phrase) => phrase.total > 0);
  out.push(`\nboilerplate phrases that matched: ${falseMatches.length} of ${boilerplate.length}`);
  if (falseMatches.length > 0)
    out.push(
      `  by cause (first match): ${Object.entries(
        countBy(falseMatches.map((phrase) => phrase.matches?.[0]?.cause.replace(/ \(\d+ of \d+ words.*\)$/, '') ?? '?')),
      )
        .map(([cause, n]) => `${cause} ${n}`)
        .join(', ')}`,
    );
  for (const phrase of verbose ? falseMatches : falseMatches.slice(0, 25)) {
    const first = phrase.matches?.[0];
    out.push(`  ${phrase.site} ${phrase.query} matches ${phrase.total} page(s); shown on ${phrase.pageId}: "${phrase.shownLine}"`);
    if (first) out.push(`      ${first.cause}; indexed line ${first.line} of ${first.url}: ${first.indexed}`);
  }
  if (!verbose && falseMatches.length > 25) out.push(`  … ${falseMatches.length - 25} more (--verbose)`);
  return `${out.join('\n')}\n`;
}

/** Every site's counts summed, per kind. */
export function sumSites(perSite: SearchReport['perSite']): Record<PhraseKind, PhraseCounts> {
  return Object.fromEntries(PHRASE_KINDS.map((kind) => [kind, sumCounts(perSite.map((site) => site.counts[kind]))])) as Record<PhraseKind, PhraseCounts>;
}
