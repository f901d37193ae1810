import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EVAL_METHOD_NAMES, type EvaluationReport } from '@winnow/eval';
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

interface ReportFlags {
  data: string;
  out: string;
  plot: string;
  jobs: number;
}

interface Job {
  dataset: string;
  method: string;
  /** Scored on the template protocol's pages (sites with >= 10 pages) rather than on every page. */
  templatePages: boolean;
}

interface Result extends Job {
  report?: EvaluationReport;
  error?: string;
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
  const jobs: Job[] = [];
  for (const dataset of datasets) {
    for (const method of EVAL_METHOD_NAMES) {
      if (!isTemplateMethod(method)) jobs.push({ dataset, method, templatePages: false });
      else if (TEMPLATE_DATASETS.has(dataset)) jobs.push({ dataset, method, templatePages: true });
    }
    if (TEMPLATE_DATASETS.has(dataset)) for (const method of SAME_PAGE_METHODS) jobs.push({ dataset, method, templatePages: true });
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
      const args = [
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
        const { stdout } = await run(process.execPath, ['--max-old-space-size=12000', ...args], { maxBuffer: 256 * 1024 * 1024 });
        results.push({ ...job, report: JSON.parse(stdout) as EvaluationReport });
      } catch (error) {
        results.push({ ...job, error: ((error as { stderr?: string }).stderr || (error as Error).message).trim().split('\n').at(-1) ?? 'failed' });
      }
      bar.increment(1, { last: `${job.method} on ${job.dataset}` });
    }
  };
  await Promise.all(Array.from({ length: flags.jobs }, worker));
  bars.stop();
  await writeFile(flags.out, markdown(datasets, results, flags));
  await writeFile(flags.plot, await plot(results));
  process.stderr.write(`wrote ${flags.out} and ${flags.plot}\n`);
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
    if (!result.report || (result.templatePages && !isTemplateMethod(result.method))) continue;
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
