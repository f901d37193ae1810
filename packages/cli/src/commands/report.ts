import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { EVAL_METHOD_NAMES, type EvaluationReport } from '@winnow/eval';
import type { ReplayReport } from '@winnow/eval/replay';
import { methodByName } from '@winnow/extract';
import { MultiBar, Presets } from 'cli-progress';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { UsageError } from '../usageError.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../main.js', import.meta.url));

/** Datasets whose sites have enough pages for the template protocol (>= 10 pages per site). */
const TEMPLATE_DATASETS = new Set(['cleanportaleval', 'daniel', 'dragnet']);
/** Single-page methods also scored on the template protocol's pages, to compare with the template methods on the same pages. */
const SAME_PAGE_METHODS = ['readability', 'reader', 'auto', 'mainblock'];

/** The dataset whose gold and metric come from the WCXB benchmark: its own figures are reported for it. */
const WCXB_DATASET = 'wcxb';
/** Phrases of each kind per site that the replay searches (`winnow eval --replay --search`). */
const REPLAY_PHRASES = 40;

/**
 * Parts of the report that `--sections` can regenerate alone, spliced into the existing `--out`
 * between their markers: the replay (its crawls are the report's slowest part to repeat) and the
 * WCXB table.
 */
export const REPORT_SECTIONS = ['replay', 'wcxb'] as const;
type Section = (typeof REPORT_SECTIONS)[number];

interface ReportFlags {
  data: string;
  out: string;
  plot: string;
  jobs: number;
  sections?: Section[];
  methods?: string[];
}

interface Job {
  dataset: string;
  /** A method's name, or `replay` for `winnow eval --replay`. */
  method: string;
  /** Scored on the template protocol's pages (sites with >= 10 pages) rather than on every page. */
  templatePages: boolean;
}

interface Result extends Job {
  report?: EvaluationReport;
  replay?: ReplaySummaryOfRun;
  error?: string;
}

/** What the report keeps of a replay run (its full JSON holds every page's text). */
interface ReplaySummaryOfRun {
  pages: number;
  lcsIndexed: number;
  lcsKfold: number;
  rates: { inside: number | null; across: number | null; boilerplate: number | null };
  phrases: { inside: number; across: number; boilerplate: number };
  /** Misses of inside and across phrases by the layer that lost them. */
  layers: Record<string, number>;
}

function replaySummary(report: ReplayReport): ReplaySummaryOfRun {
  const all = report.search?.all;
  const layers: Record<string, number> = {};
  for (const kind of ['inside', 'across'] as const)
    for (const [layer, count] of Object.entries(all?.[kind].layers ?? {})) layers[layer] = (layers[layer] ?? 0) + count;
  return {
    pages: report.overall.pages,
    lcsIndexed: report.overall.lcsIndexed,
    lcsKfold: report.overall.lcsKfold,
    rates: report.search?.rates ?? { inside: null, across: null, boilerplate: null },
    phrases: { inside: all?.inside.phrases ?? 0, across: all?.across.phrases ?? 0, boilerplate: all?.boilerplate.phrases ?? 0 },
    layers,
  };
}

const isTemplateMethod = (name: string) => name !== 'vge' && methodByName(name).kind === 'template';

/**
 * `pnpm eval:report`: every method on every dataset under `--data`, each run a child
 * `winnow eval --json` (so a method's memory ends with its run), `--jobs` at a time; writes the
 * table to `--out` and the F1-against-time plot to `--plot`. Every number in the report comes
 * from this run.
 */
export async function reportCommand(flags: ReportFlags): Promise<void> {
  if (!existsSync(flags.data)) throw new UsageError(`no datasets at ${flags.data}`);
  const datasets = readdirSync(flags.data)
    .filter((name) => existsSync(join(flags.data, name, 'pages.jsonl.gz')))
    .sort();
  const unknown = (flags.methods ?? []).filter((method) => !EVAL_METHOD_NAMES.includes(method));
  if (unknown.length > 0) throw new UsageError(`unknown method(s) ${unknown.join(', ')}; known methods: ${EVAL_METHOD_NAMES.join(', ')}`);
  if (flags.sections && !existsSync(flags.out)) throw new UsageError(`--sections splices into an existing report: no ${flags.out} (run the whole report once)`);
  const wanted = (method: string) => !flags.methods || flags.methods.includes(method);
  const jobs: Job[] = [];
  for (const dataset of datasets) {
    if (flags.sections) {
      if (flags.sections.includes('replay') && TEMPLATE_DATASETS.has(dataset)) jobs.push({ dataset, method: 'replay', templatePages: true });
      if (flags.sections.includes('wcxb') && dataset === WCXB_DATASET)
        for (const method of EVAL_METHOD_NAMES) if (!isTemplateMethod(method) && wanted(method)) jobs.push({ dataset, method, templatePages: false });
      continue;
    }
    for (const method of EVAL_METHOD_NAMES) {
      if (!wanted(method)) continue;
      if (!isTemplateMethod(method)) jobs.push({ dataset, method, templatePages: false });
      else if (TEMPLATE_DATASETS.has(dataset)) jobs.push({ dataset, method, templatePages: true });
    }
    if (TEMPLATE_DATASETS.has(dataset)) {
      for (const method of SAME_PAGE_METHODS) if (wanted(method)) jobs.push({ dataset, method, templatePages: true });
      jobs.push({ dataset, method: 'replay', templatePages: true });
    }
  }
  // Off a terminal (a CI log, `> report.log`) the bar is written as a plain line every half minute.
  const bars = new MultiBar(
    { stream: process.stderr, format: '{bar} {value}/{total} runs | {last}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 30_000 },
    Presets.shades_classic,
  );
  const bar = bars.create(jobs.length, 0, { last: '' });
  const results: Result[] = [];
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const args =
        job.method === 'replay'
          ? [main, 'eval', '--replay', join(flags.data, job.dataset), '--search', String(REPLAY_PHRASES), '--json']
          : [
              main,
              'eval',
              '--data',
              join(flags.data, job.dataset),
              '--method',
              job.method,
              '--json',
              ...(job.templatePages ? ['--min-pages-per-site', '10'] : []),
            ];
      try {
        const { stdout } = await run(process.execPath, ['--max-old-space-size=12000', ...args], { maxBuffer: 1024 * 1024 * 1024 });
        if (job.method === 'replay') results.push({ ...job, replay: replaySummary(JSON.parse(stdout) as ReplayReport) });
        else results.push({ ...job, report: JSON.parse(stdout) as EvaluationReport });
      } catch (error) {
        results.push({ ...job, error: ((error as { stderr?: string }).stderr || (error as Error).message).trim().split('\n').at(-1) ?? 'failed' });
      }
      bar.increment(1, { last: `${job.method} on ${job.dataset}` });
    }
  };
  await Promise.all(Array.from({ length: flags.jobs }, worker));
  bars.stop();
  if (flags.sections) {
    let text = await readFile(flags.out, 'utf8');
    for (const section of flags.sections) text = spliceSection(text, section, section === 'replay' ? replaySection(results) : wcxbSection(results));
    await writeFile(flags.out, text);
    process.stderr.write(`rewrote the ${flags.sections.join(' and ')} section(s) of ${flags.out}\n`);
    return;
  }
  await writeFile(flags.out, markdown(datasets, results, flags));
  await writeFile(flags.plot, await plot(results));
  process.stderr.write(`wrote ${flags.out} and ${flags.plot}\n`);
}

const sectionStart = (section: Section) => `<!-- section ${section}: written by winnow report -->`;
const sectionEnd = (section: Section) => `<!-- end of section ${section} -->`;

/** `body` between the section's markers, replacing what was there; a report without them gets it before its published anchors. */
export function spliceSection(text: string, section: Section, body: string): string {
  const block = `${sectionStart(section)}\n${body.trim()}\n${sectionEnd(section)}`;
  const start = text.indexOf(sectionStart(section));
  const end = text.indexOf(sectionEnd(section));
  if (start >= 0 && end > start) return text.slice(0, start) + block + text.slice(end + sectionEnd(section).length);
  const anchor = text.indexOf('## Published anchors');
  return anchor < 0 ? `${text.trimEnd()}\n\n${block}\n` : `${text.slice(0, anchor)}${block}\n\n${text.slice(anchor)}`;
}

const rate = (value: number | null) => (value === null ? '-' : f3(value));

/** The replay's figures per template dataset: what a user finds by exact phrase in what the product indexed, beside lcs F1. */
export function replaySection(results: readonly Result[]): string {
  const replays = results.filter((result) => result.method === 'replay').sort((a, b) => a.dataset.localeCompare(b.dataset));
  const rows = replays.map((result) => {
    const r = result.replay;
    if (!r) return `| ${result.dataset} | error: ${result.error ?? '?'} | | | | | | |`;
    const layers = ['not crawled', 'not extracted', 'extracted, not indexed', 'search failed'].map((layer) => r.layers[layer] ?? 0).join(' / ');
    return `| ${result.dataset} | ${r.pages} | ${f3(r.lcsIndexed)} | ${Number.isNaN(r.lcsKfold) ? '-' : f3(r.lcsKfold)} | ${rate(r.rates.inside)} (${r.phrases.inside}) | ${rate(r.rates.across)} (${r.phrases.across}) | ${rate(r.rates.boilerplate)} (${r.phrases.boilerplate}) | ${layers} |`;
  });
  return `## Exact-phrase search on what the product indexes (replay)

\`winnow eval --replay <dataset> --search ${REPLAY_PHRASES}\` (docs/replay.md): each site of 10 pages or more served on
127.0.0.1, crawled, templated, extracted and indexed by the embedded product, then up to ${REPLAY_PHRASES} phrases of each
kind per site sent through its search. \`crawled lcs\`: lcs F1 of each page's search document; \`k-fold lcs\`:
\`pipeline\` under the k-fold protocol on the same pages. **inside**: 5-8 words of one gold line found on their
page; **across**: the end of one gold line and the start of the next found on their page; **boilerplate**: 5-8
words the page shows outside every gold of its site that match any page (lower is better); phrases in
brackets. Misses of inside and across phrases by the layer that lost them: not crawled / not extracted /
extracted but not indexed / search failed. Targets: across >= 0.95, inside >= 0.99, boilerplate <= 0.01.

| dataset | pages | crawled lcs | k-fold lcs | inside | across | boilerplate | misses by layer |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}

/** Every single-page method on the wcxb dataset by the benchmark's own scorer, beside shingle F1. */
export function wcxbSection(results: readonly Result[]): string {
  const rows = results
    .filter((result) => result.dataset === WCXB_DATASET && result.method !== 'replay' && !result.templatePages)
    .sort((a, b) => (b.report?.wcxb?.f1 ?? -1) - (a.report?.wcxb?.f1 ?? -1))
    .map((result) => {
      const w = result.report?.wcxb;
      if (!result.report || !w) return `| ${result.method} | ${result.error ? 'error' : '-'} | | | | | |`;
      return `| ${result.method} | ${f3(w.f1)} | ${f3(w.p)} | ${f3(w.r)} | ${(100 * w.with_snippets).toFixed(1)}% | ${(100 * w.without_snippets).toFixed(1)}% | ${f3(result.report.shingle.f1)} |`;
    });
  return `## The WCXB benchmark's own metric (wcxb, shared dev split)

The benchmark's scorer (its \`evaluate.py\`, reimplemented in \`packages/eval/src/wcxb.ts\`): word-level precision, recall
and F1 of lower-cased \`\\w+\` bags of words, averaged over pages; the share of its "with" snippets the text keeps and
of its "without" (boilerplate) snippets it leaks (lower is better; a page listing none counts 1, as the scorer
does). Comparable with its public leaderboard, which is scored on its test split (held out here).

| method | WCXB F1 | P | R | with | without | shingle F1 |
|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}

const f3 = (value: number) => value.toFixed(3);
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

function cell(result: Result | undefined): string[] {
  if (!result) return ['', '', ''];
  if (!result.report) return ['error', '', ''];
  return [f3(result.report.shingle.f1), f3(result.report.lcs_f1), ms(result.report.ms_per_page.median)];
}

function markdown(datasets: readonly string[], results: readonly Result[], flags: ReportFlags): string {
  const find = (dataset: string, method: string, templatePages: boolean) =>
    results.find((r) => r.dataset === dataset && r.method === method && r.templatePages === templatePages);
  const header = ['method', ...datasets.flatMap((dataset) => [`${dataset} shingle F1`, 'lcs F1', 'ms/page'])];
  const row = (method: string) => {
    const templated = isTemplateMethod(method);
    return [method + (templated ? ' †' : ''), ...datasets.flatMap((dataset) => cell(find(dataset, method, templated)))];
  };
  const table = (rows: string[][]) =>
    [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const templateDatasets = datasets.filter((dataset) => TEMPLATE_DATASETS.has(dataset));
  const sameHeader = ['method', ...templateDatasets.flatMap((dataset) => [`${dataset} shingle F1`, 'lcs F1', 'ms/page', 'empty'])];
  const samePages = ['pipeline', 'fastce+', ...SAME_PAGE_METHODS, 'fastce+auto'].map((method) => [
    method,
    ...templateDatasets.flatMap((dataset) => {
      const result = find(dataset, method, true);
      return [...cell(result), result?.report ? String(result.report.empty) : ''];
    }),
  ]);
  const shingle = (dataset: string, method: string) => find(dataset, method, false)?.report?.shingle.f1;
  const versus = datasets.map((dataset) => {
    const readability = shingle(dataset, 'readability');
    const against = (method: string) => {
      const value = shingle(dataset, method);
      if (value === undefined || readability === undefined) return [value === undefined ? 'error' : f3(value), ''];
      return [f3(value), `${value >= readability ? '+' : ''}${f3(value - readability)}`];
    };
    return `| ${dataset} | ${[...against('reader'), ...against('auto')].join(' | ')} | ${readability === undefined ? 'error' : f3(readability)} |`;
  });
  const failures = results.filter((result) => result.error).map((result) => `- ${result.method} on ${result.dataset}: ${result.error}`);
  return `# Evaluation report

Written by \`pnpm eval:report\` (\`winnow report --data ${flags.data}\`) on ${new Date().toISOString().slice(0, 10)}: every
extraction method on every dataset in \`${flags.data}\`, each number from \`winnow eval --json\` in this run.
Scores: \`shingle\` F1 (the ScrapingHub article-extraction benchmark's measure), \`lcs\` F1 (word
order counts), median ms/page (extraction, parsing and, for \`vge\`, rendering included; template
preparation not counted). One machine of this project's kind (2 cores), noisy: ±30% on times.

Single-page methods read every page of every dataset. Template methods (†) need several pages of a
site: they run on the sites with at least 10 pages of ${templateDatasets.join(', ')} under the k-fold
protocol (each page extracted with a template prepared without it), so their columns cover fewer
pages than the single-page rows; the second table compares them on the same pages.

${table(datasets.length > 0 ? EVAL_METHOD_NAMES.map(row) : [])}

## The fast single-page readings against Readability (shingle F1, every page)

| dataset | reader | vs readability | auto | vs readability | readability |
|---|---|---|---|---|---|
${versus.join('\n')}

## On the template protocol's pages (sites with >= 10 pages)

\`pipeline\` is what the services index. \`empty\`: pages with no text where the gold has some.

${[`| ${sameHeader.join(' | ')} |`, `|${sameHeader.map(() => '---').join('|')}|`, ...samePages.map((r) => `| ${r.join(' | ')} |`)].join('\n')}

${sectionStart('replay')}
${replaySection(results)}
${sectionEnd('replay')}

${sectionStart('wcxb')}
${wcxbSection(results)}
${sectionEnd('wcxb')}

## Published anchors (quoted, not measured here)

- ScrapingHub article-extraction benchmark README (shingle F1 on its 181 pages, our \`scrapinghub\`):
  Readability.js 0.947, trafilatura 0.958.
- WLR paper, Table 5 (word-level F1 averaged over its own benchmark): WLR 73.82 %, CLR 73.82 %,
  WNR 36.89 %, CNR 30.91 %.
- CCB paper, Table 2 (average F1 per site package of its own corpus; e.g. bbc 0.924, economist
  0.890, slashdot 0.177 for CCB): the character- and token-based variants range 0.16-0.97 by site.
- FastCE paper, Tables III-IV (block- and word-level F-measure of CE and FastCE on 8 news sites):
  word-level 0.958-1.00 for FastCE, block-level 0.75-1.00.
- VGE paper, Table 1 (block-level F-measure on 6 news sites): 0.98-1.00.

These come from other pages, other gold and other measures; only the scrapinghub line is directly
comparable to a column above.

## Notes

- The \`readability\` dataset is Mozilla Readability's own test fixtures, whose gold is its own
  expected output: Readability scores ~1.0 there by construction, and every other method is
  measured against Readability's choices.
- \`vge\` lays each page out in the system Chromium from its own markup (JavaScript off, nothing
  fetched): external stylesheets never load, so most real pages reach it with little visual structure.
${failures.length > 0 ? `- Runs that failed:\n${failures.join('\n')}\n` : ''}
![shingle F1 against ms/page](${flags.plot.split('/').at(-1)})
`;
}

async function plot(results: readonly Result[]): Promise<string> {
  const byMethod = new Map<string, { f1: number[]; ms: number[] }>();
  for (const result of results) {
    if (!result.report || result.method === 'replay' || (result.templatePages && !isTemplateMethod(result.method))) continue;
    const entry = byMethod.get(result.method) ?? { f1: [], ms: [] };
    entry.f1.push(result.report.shingle.f1);
    entry.ms.push(result.report.ms_per_page.median);
    byMethod.set(result.method, entry);
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const points = [...byMethod].map(([method, { f1, ms: times }]) => ({
    method,
    kind: isTemplateMethod(method) ? 'template method (template datasets)' : 'single-page method (all datasets)',
    f1: mean(f1),
    ms: Math.max(mean(times), 0.1),
  }));
  const spec = compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 640,
    height: 400,
    title: 'Mean shingle F1 over the datasets each method ran on, against median ms/page',
    data: { values: points },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 90 },
        encoding: {
          x: { field: 'ms', type: 'quantitative', scale: { type: 'log' }, title: 'median ms/page (log scale)' },
          y: { field: 'f1', type: 'quantitative', scale: { zero: false }, title: 'mean shingle F1' },
          color: { field: 'kind', type: 'nominal', title: null },
          shape: { field: 'kind', type: 'nominal' },
        },
      },
      {
        mark: { type: 'text', dx: 8, align: 'left', fontSize: 11 },
        encoding: { x: { field: 'ms', type: 'quantitative', scale: { type: 'log' } }, y: { field: 'f1', type: 'quantitative' }, text: { field: 'method' } },
      },
    ],
    config: { legend: { orient: 'bottom', labelLimit: 0 } },
  }).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
