import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { loadEnv } from '@winnow/config';
import { demoGoldPages, EVAL_METHOD_NAMES, evaluate, loadPages, table, type EvaluationReport } from '@winnow/eval';
import { Presets, SingleBar } from 'cli-progress';
import { UsageError } from '../usageError.js';

interface EvalFlags {
  data?: string;
  demo?: boolean;
  method?: string;
  minPagesPerSite?: number;
  folds: number;
  json?: boolean;
  predictions?: string;
  replay?: string;
  datasets: string;
  sites?: string[];
  limit?: number;
  maxPages: number;
  paths: 'canonical' | 'flat' | 'id';
  rewriteCharset?: boolean;
  kfold: boolean;
  search: number;
  searchSeed: string;
  timeoutS: number;
  report?: string;
  verbose?: boolean;
}

/** `winnow eval`: the fixed interface independent checks call (see the README). */
export async function evalCommand(flags: EvalFlags): Promise<void> {
  if (flags.replay !== undefined) return replayCommand(flags, flags.replay);
  if (flags.method === undefined) throw new UsageError('give --method <name> (or --replay <dataset>)');
  if (!EVAL_METHOD_NAMES.includes(flags.method)) throw new UsageError(`unknown method "${flags.method}"; known methods: ${EVAL_METHOD_NAMES.join(', ')}`);
  if (Boolean(flags.data) === Boolean(flags.demo)) throw new UsageError('give exactly one of --data <file-or-dir> and --demo');
  const pages = flags.data ? await loadPages(flags.data) : demoGoldPages();
  const bar = flags.json
    ? undefined
    : new SingleBar({ stream: process.stderr, format: 'extracting {bar} {value}/{total} pages | {eta}s left' }, Presets.shades_classic);
  const { report, outcomes } = await evaluate(pages, {
    method: flags.method,
    ...(flags.minPagesPerSite === undefined ? {} : { minPagesPerSite: flags.minPagesPerSite }),
    folds: flags.folds,
    chromiumPath: loadEnv().WINNOW_CHROMIUM_PATH,
    onPage(done, total) {
      if (done === 1) bar?.start(total, 0);
      bar?.update(done);
    },
  });
  bar?.stop();
  if (flags.predictions) {
    const out = createWriteStream(flags.predictions);
    for (const outcome of outcomes) out.write(`${JSON.stringify({ id: outcome.id, site: outcome.site, text: outcome.text })}\n`);
    out.end();
    await finished(out);
  }
  process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatReport(report));
}

function formatReport(report: EvaluationReport): string {
  const number = (value: number): string => value.toFixed(3);
  const rows = report.per_site.map((site) => [site.site, String(site.pages), number(site.shingle_f1), number(site.bow_f1), number(site.lcs_f1)]);
  return [
    table(['site', 'pages', 'shingle F1', 'bow F1', 'lcs F1'], rows),
    `${report.method}: ${report.pages} pages of ${report.sites} sites`,
    `shingle  P ${number(report.shingle.p)}  R ${number(report.shingle.r)}  F1 ${number(report.shingle.f1)}`,
    `bow F1 ${number(report.bow_f1)}   lcs F1 ${number(report.lcs_f1)}`,
    `ms/page  median ${report.ms_per_page.median.toFixed(2)}  p95 ${report.ms_per_page.p95.toFixed(2)}`,
    `empty: ${report.empty} page(s) with no text where the gold has some`,
    ...goldMismatchLines(report.gold_mismatch, number),
    '',
  ].join('\n');
}

/** How many pages have gold that is not their text (the dataset's flag, or no article at all), which, and the scores without them. */
function goldMismatchLines({ ids, others }: EvaluationReport['gold_mismatch'], number: (value: number) => string): string[] {
  if (ids.length === 0) return [];
  const shown = ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
  return [
    `gold not matching its page (the dataset's flag, or no article in the gold): ${ids.length} page(s), ${shown}`,
    `the other ${others.pages} pages: shingle F1 ${number(others.shingle_f1)}   bow F1 ${number(others.bow_f1)}   lcs F1 ${number(others.lcs_f1)}`,
  ];
}

/** `winnow eval --replay <dataset>`: the dataset's multi-page sites crawled, indexed and searched by the embedded product (docs/replay.md). */
async function replayCommand(flags: EvalFlags, dataset: string): Promise<void> {
  if (flags.method !== undefined || flags.data !== undefined || flags.demo || flags.predictions !== undefined)
    throw new UsageError('--replay takes its pages from its dataset and scores what the product indexes: leave out --method, --data, --demo and --predictions');
  const { replayDataset } = await import('../replay/run.js');
  const { formatPagesReport, formatSearchReport } = await import('@winnow/eval/replay');
  const report = await replayDataset({
    dataset,
    datasets: flags.datasets,
    ...(flags.sites ? { sites: flags.sites } : {}),
    ...(flags.limit === undefined ? {} : { limit: flags.limit }),
    minPages: flags.minPagesPerSite ?? 10,
    maxPages: flags.maxPages,
    paths: flags.paths,
    rewriteCharset: Boolean(flags.rewriteCharset),
    kfold: flags.kfold,
    timeoutSeconds: flags.timeoutS,
    search: flags.search,
    searchSeed: flags.searchSeed,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (flags.report) await writeFile(flags.report, `${JSON.stringify(report, null, 1)}\n`);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  process.stdout.write(formatPagesReport(report, Boolean(flags.verbose)));
  if (report.search) process.stdout.write(formatSearchReport(report.dataset, report.search, flags.search, Boolean(flags.verbose)));
}
