import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { demoSite } from '@winnow/demo-corpus';
import {
  atomicUnits,
  buildBlockTree,
  compileContentExtractor,
  DEFAULT_CE_PARAMS,
  extractReader,
  isRepeated,
  prepareContentExtractor,
  preparedExtractor,
  templateMethodByName,
} from '@winnow/extract';
import { loadPages, type GoldPage } from './dataset.js';
import { demoGoldPages } from './demoPages.js';
import { quantile } from './evaluate.js';
import { siteFolds } from './protocol.js';
import { mean } from './shingle.js';

/** The template datasets: the shared ones with sites of at least 10 pages. */
const TEMPLATE_DATASETS = ['daniel', 'dragnet', 'cleanportaleval'];

export interface ExtractBenchOptions {
  /** Folder holding the datasets; without them the demo corpus is used. */
  data: string;
  /** Timed passes over the pages; the fastest is kept. */
  repeat: number;
  write: (text: string) => void;
}

/**
 * `pnpm bench extract`: detection ms/page of every template method (and the reader) on the same pages, the memory of a long run, and the
 * cost of processing 10-300 pages of a site with CE against FastCE. Every number is a ratio
 * against a baseline run in the same process.
 */
export async function benchExtract(options: ExtractBenchOptions): Promise<void> {
  const pages = await benchPages(options.data, options.write);
  detectionBench(pages, options.repeat, options.write);
  memoryBench(pages, options.write);
  preparationBench(options.write);
}

async function benchPages(folder: string, write: (text: string) => void): Promise<GoldPage[]> {
  const folders = TEMPLATE_DATASETS.map((name) => join(folder, name)).filter((path) => existsSync(path));
  if (folders.length === 0) {
    write(`(no datasets under ${folder}: using the demo corpus)\n`);
    return demoGoldPages();
  }
  write(`pages: sites with >= 10 pages of ${folders.join(', ')}\n`);
  return (await Promise.all(folders.map((path) => loadPages(path)))).flat();
}

/**
 * The evaluation's protocol (5 folds per site: prepare on four, detect the fifth), every method in
 * turn on the same pages. Parsing alone is the floor every method pays; the last column compares
 * what each method adds on top of it.
 */
function detectionBench(pages: readonly GoldPage[], repeat: number, write: (text: string) => void): void {
  const sites = siteFolds(pages, { minPagesPerSite: 10, folds: 5 });
  const runs = sites.flatMap((site) =>
    site.folds.map((heldOut, fold) => ({
      training: site.folds.flatMap((pages, i) => (i === fold ? [] : pages.map((page) => page.html))),
      heldOut: heldOut.map((page) => page.html),
    })),
  );
  const timings = new Map<string, number[]>();
  const time = (name: string, prepare: (training: string[]) => (html: string) => unknown): void => {
    const extractors = runs.map((run) => prepare(run.training));
    let best: number[] | undefined;
    for (let pass = 0; pass < repeat; pass++) {
      const perPage: number[] = [];
      runs.forEach((run, i) => {
        for (const html of run.heldOut) {
          const start = performance.now();
          extractors[i]!(html);
          perPage.push(performance.now() - start);
        }
      });
      if (!best || sum(perPage) < sum(best)) best = perPage;
    }
    timings.set(name, best!);
  };
  time('parse only', () => (html) => buildBlockTree(html));
  for (const name of ['ce', 'fastce', 'fastce+', 'pipeline']) time(name, (training) => preparedExtractor(templateMethodByName(name), training));
  time('reader (single page)', () => extractReader);
  const baseline = mean(timings.get('ce')!);
  const parse = mean(timings.get('parse only')!);
  write(`\ndetection on ${sum(runs.map((run) => run.heldOut.length))} pages of ${sites.length} sites, 5 folds (best of ${repeat} passes)\n`);
  const rows = [...timings].map(([name, perPage]) => {
    const sorted = [...perPage].sort((a, b) => a - b);
    const average = mean(perPage);
    const beyondParse = name === 'parse only' ? '' : `${((baseline - parse) / (average - parse)).toFixed(1)}x`;
    return [
      name,
      quantile(sorted, 0.5).toFixed(2),
      average.toFixed(2),
      quantile(sorted, 0.95).toFixed(2),
      (1000 / average).toFixed(0),
      `${(baseline / average).toFixed(1)}x`,
      beyondParse,
    ];
  });
  write(table(['method', 'median ms', 'mean ms', 'p95 ms', 'pages/s', 'vs ce', 'vs ce beyond parsing'], rows));
}

/** Pages the memory run extracts in one process: the pipeline's extractor runs for days. */
const MEMORY_RUN_PAGES = 10_000;

/** V8's collector, made callable without a command-line flag: a heap measured after it is what is really kept. */
function collector(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}

/**
 * The memory of a long run: `pipeline` prepared per site (as the extractor service caches its
 * templates), then `MEMORY_RUN_PAGES` extractions cycling through the pages in one process. The
 * heap after a full collection at the start, after the first tenth and at the end (a leak shows as
 * an end above the tenth), and the resident set's peak.
 */
function memoryBench(pages: readonly GoldPage[], write: (text: string) => void): void {
  const sites = siteFolds(pages, { minPagesPerSite: 10, folds: 5 });
  const extractors = sites.map((site) => ({
    extract: preparedExtractor(
      templateMethodByName('pipeline'),
      site.pages.map((page) => page.html),
    ),
    pages: site.pages,
  }));
  const gc = collector();
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const start = heap();
  let tenth = start;
  let peakRss = process.memoryUsage().rss;
  for (let i = 0; i < MEMORY_RUN_PAGES; i++) {
    const site = extractors[i % extractors.length]!;
    site.extract(site.pages[Math.floor(i / extractors.length) % site.pages.length]!.html);
    if (i % 100 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (i === MEMORY_RUN_PAGES / 10) tenth = heap();
  }
  const end = heap();
  write(`\nmemory of ${MEMORY_RUN_PAGES} pipeline extractions in one process (${sites.length} sites' templates; the datasets' pages are in memory too)\n`);
  write(table(['heap MiB at start', 'after a tenth', 'at the end', 'peak rss MiB'], [[start, tenth, end, peakRss / 2 ** 20].map((value) => value.toFixed(0))]));
}

/**
 * In the spirit of the paper's Table II: what it costs to process n pages of one site. CE labels
 * every block of every page against every other page (all pairs); FastCE prepares a template on
 * at most 30 of them, then runs detection on all n.
 */
function preparationBench(write: (text: string) => void): void {
  const site = demoSite('gazette', { articles: 300 })
    .pages.filter((page) => page.kind === 'article')
    .map((page) => page.html);
  const rows: string[][] = [];
  for (const n of [10, 30, 100, 300]) {
    const pages = site.slice(0, n);
    const ceMs = timed(() => {
      const model = compileContentExtractor(prepareContentExtractor(pages).template);
      pages.forEach((html, page) => {
        for (const unit of atomicUnits(buildBlockTree(html))) isRepeated(unit, model.index, DEFAULT_CE_PARAMS, page);
      });
    });
    const fastMs = timed(() => {
      const extract = preparedExtractor(templateMethodByName('fastce+'), pages);
      for (const html of pages) extract(html);
    });
    rows.push([String(n), ceMs.toFixed(0), fastMs.toFixed(0), `${(ceMs / fastMs).toFixed(1)}x`]);
  }
  write('\nprocessing n pages of one site (demo site gazette): CE all-pairs labelling vs fastce+ template + detection\n');
  write(table(['pages', 'ce ms', 'fastce+ ms', 'fastce+ faster by'], rows));
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** A plain-text table, first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return `${[header, ...rows]
    .map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '))
    .join('\n')}\n`;
}
