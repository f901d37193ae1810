import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadEnv } from '@winnow/config';
import { type GeneratedSite, serveGeneratedSite, smallestGap } from '@winnow/crawler/testing';
import { quantile } from '@winnow/eval';
import { startRedisServer } from '@winnow/queue/testing';
import { addSite, isIdle, openRuntime, type Runtime, startCrawl } from '@winnow/runtime';
import { type Db, findCrawl, openDb } from '@winnow/storage';
import { startPostgresServer } from '@winnow/storage/testing';

export interface CrawlBenchFlags {
  pages: number;
  concurrency: number;
  json?: boolean;
}

const cliMain = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const serviceMain = (service: string) => fileURLToPath(new URL(`../../../services/${service}/dist/main.js`, import.meta.url));
/** Pairs of one- and two-crawler runs whose median `scaling` is reported. */
const SCALING_RUNS = 3;
/** Latency added to every answer of the generated site, drawn evenly from this range. */
const LATENCY_MS: [number, number] = [20, 50];

/**
 * `pnpm bench crawl`: the pipeline against a bare crawler on the same generated site (2,000+ pages
 * on 127.0.0.1, 20-50 ms per answer), every figure from one run, so that only ratios are compared
 * (the machine is shared and noisy):
 * - `bare_pages_per_s`: a bare Crawlee CheerioCrawler fetching the site at the same concurrency;
 * - `pipeline_pages_per_s`: `winnow crawl` in the embedded default, crawl start to every page
 *   indexed; `ratio` is the two's quotient, and `peak_rss_mb` the pipeline process's peak RSS;
 * - `external_pages_per_s` / `ratio_external`: the same with Postgres, Redis and each service as
 *   its own process;
 * - `one_crawler_pages_per_s`, `two_crawlers_pages_per_s`, `scaling`: crawling alone, one crawler
 *   process against two on one site (the host's limit high enough for both), each the median of
 *   `SCALING_RUNS` pairs of runs: on two cores one pair's quotient varied from 1.58 to 1.77;
 * - `refetched_after_kill`: pages fetched twice when one of two crawlers is killed (SIGKILL)
 *   mid-crawl, against `in_flight_limit`, what the killed one could hold;
 * - `min_gap_ms`: the smallest gap between two requests to a host whose robots.txt says
 *   `Crawl-delay: 1`, two crawlers, by the server's own log.
 * Postgres and Redis for the process runs are started here (Debian's postgresql and redis-server).
 */
export async function benchCrawlCommand(flags: CrawlBenchFlags): Promise<void> {
  const note = (text: string) => process.stderr.write(`${text}\n`);
  const report: Record<string, number> = { pages: 0, concurrency: flags.concurrency };

  const bare = await withSite(flags.pages, (site) => bareCrawler(site, flags.concurrency));
  report.pages = bare.pages;
  report.bare_pages_per_s = round(bare.pages / bare.seconds);
  note(`bare CheerioCrawler: ${bare.pages} pages in ${bare.seconds.toFixed(1)} s`);

  const embedded = await withSite(flags.pages, (site) => embeddedPipeline(site, flags.concurrency));
  report.pipeline_pages_per_s = round(embedded.pages / embedded.seconds);
  report.ratio = round(report.pipeline_pages_per_s / report.bare_pages_per_s);
  report.peak_rss_mb = Math.round(embedded.peakRssMb);
  report.extractions_per_page = round(embedded.extractionsPerPage);
  note(`embedded pipeline: ${embedded.pages} pages indexed in ${embedded.seconds.toFixed(1)} s, peak RSS ${embedded.peakRssMb.toFixed(0)} MiB`);

  const [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  try {
    const shared = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_LOG_LEVEL: 'warn' };
    const external = await withSite(flags.pages, (site) => servicesAsProcesses(site, shared, flags.concurrency));
    report.external_pages_per_s = round(external.pages / external.seconds);
    report.ratio_external = round(report.external_pages_per_s / report.bare_pages_per_s);
    note(`services as processes: ${external.pages} pages indexed in ${external.seconds.toFixed(1)} s`);

    const pairs: Array<{ one: number; two: number }> = [];
    for (let run = 1; run <= SCALING_RUNS; run++) {
      const one = await withSite(flags.pages, (site) => crawlersOnly(site, shared, 1, flags.concurrency, run));
      const two = await withSite(flags.pages, (site) => crawlersOnly(site, shared, 2, flags.concurrency, run));
      pairs.push({ one: one.pages / one.seconds, two: two.pages / two.seconds });
      note(`crawl only, run ${run}: one crawler ${round(one.pages / one.seconds)} pages/s, two ${round(two.pages / two.seconds)} pages/s`);
    }
    report.one_crawler_pages_per_s = round(median(pairs.map((pair) => pair.one)));
    report.two_crawlers_pages_per_s = round(median(pairs.map((pair) => pair.two)));
    report.scaling = round(median(pairs.map((pair) => pair.two / pair.one)));
    report.scaling_runs = SCALING_RUNS;

    const killed = await withSite(flags.pages, (site) => killOneOfTwo(site, shared, flags.concurrency));
    report.refetched_after_kill = killed.refetched;
    report.in_flight_limit = flags.concurrency;
    note(`one of two crawlers killed: ${killed.refetched} pages fetched twice`);

    report.min_gap_ms = await withSite(8, (site) => crawlDelayGap(site, shared), 'User-agent: *\nCrawl-delay: 1\n');
    note(`Crawl-delay: 1 with two crawlers: smallest gap ${report.min_gap_ms} ms`);
  } finally {
    await Promise.all([redis.stop(), postgres.destroy()]);
  }
  process.stdout.write(
    flags.json
      ? `${JSON.stringify(report)}\n`
      : `${Object.entries(report)
          .map(([key, value]) => `${key}\t${value}`)
          .join('\n')}\n`,
  );
}

interface Timed {
  pages: number;
  seconds: number;
}

/** Each measurement gets a site of its own (its own host: no politeness or robots state carried over). */
async function withSite<T>(pages: number, measure: (site: GeneratedSite) => Promise<T>, robotsTxt?: string): Promise<T> {
  const site = await serveGeneratedSite({ pages, latencyMs: LATENCY_MS, shape: 'listings', ...(robotsTxt ? { robotsTxt } : {}) });
  try {
    return await measure(site);
  } finally {
    await site.close();
  }
}

async function bareCrawler(site: GeneratedSite, concurrency: number): Promise<Timed> {
  const { CheerioCrawler, Configuration, log, LogLevel } = await import('@crawlee/cheerio');
  log.setLevel(LogLevel.OFF); // Crawlee logs to stdout, which holds the report
  let pages = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestsPerCrawl: site.paths.length * 2,
      requestHandler: async ({ enqueueLinks }) => {
        pages++;
        await enqueueLinks({ globs: [`${site.origin}/**`] });
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  const started = performance.now();
  await crawler.run([`${site.origin}/`]);
  return { pages, seconds: (performance.now() - started) / 1000 };
}

const siteFlags = (site: GeneratedSite, concurrency: number) => ({
  seeds: [`${site.origin}/`],
  allowPrivateAddresses: true,
  concurrency,
  maxPages: site.paths.length * 2,
  templateEveryMs: 0,
});

/** `winnow sites add` and `winnow crawl` in a fresh embedded data directory, as a user runs them. */
async function embeddedPipeline(site: GeneratedSite, concurrency: number): Promise<Timed & { peakRssMb: number; extractionsPerPage: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'winnow-bench-'));
  const env = {
    ...process.env,
    WINNOW_DATA_DIR: join(dir, 'pglite'),
    DATABASE_URL: '',
    REDIS_URL: '',
    ELASTICSEARCH_URL: '',
    WINNOW_CRAWL_CONCURRENCY: String(concurrency),
  };
  try {
    await runToEnd(
      spawn(
        process.execPath,
        [
          cliMain,
          'sites',
          'add',
          'bench',
          '--seed',
          `${site.origin}/`,
          '--allow-private',
          '--concurrency',
          String(concurrency),
          '--max-pages',
          String(site.paths.length * 2),
        ],
        {
          env,
          stdio: 'ignore',
        },
      ),
    );
    const child = spawn(process.execPath, [cliMain, 'crawl', 'bench'], { env, stdio: 'ignore' });
    const peakRssMb = await runToEnd(child);
    const db = await openDb({ dataDir: join(dir, 'pglite') });
    try {
      return { ...(await indexedTiming(db, 'bench')), peakRssMb, extractionsPerPage: await extractionsPerPage(db) };
    } finally {
      await db.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Crawler, templater, extractor and indexer each in its own process on the shared Postgres and Redis. */
async function servicesAsProcesses(site: GeneratedSite, shared: Record<string, string>, concurrency: number): Promise<Timed> {
  const env = { ...shared, WINNOW_QUEUE_PREFIX: 'bench-external', WINNOW_CRAWL_CONCURRENCY: String(concurrency) };
  const rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
  const services = ['crawler', 'templater', 'extractor', 'indexer'].map((service) =>
    spawn(process.execPath, [serviceMain(service)], { env: { ...process.env, ...env }, stdio: 'ignore' }),
  );
  try {
    await addSite(rt, { name: 'external', ...siteFlags(site, concurrency) });
    const crawl = await startCrawl(rt, 'external');
    await until(
      async () => (await findCrawl(rt.db, crawl.id))?.state === 'finished' && (await isIdle(rt)) && (await rt.search.count('external')) >= site.paths.length,
    );
    return indexedTiming(rt.db, 'external');
  } finally {
    await Promise.all(services.map(terminate));
    await rt.close();
  }
}

async function crawlersOnly(site: GeneratedSite, shared: Record<string, string>, crawlers: number, concurrency: number, run: number): Promise<Timed> {
  const env = { ...shared, WINNOW_QUEUE_PREFIX: `bench-crawl-${crawlers}-${run}`, WINNOW_CRAWL_CONCURRENCY: String(concurrency) };
  const rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
  const processes = Array.from({ length: crawlers }, () =>
    spawn(process.execPath, [serviceMain('crawler')], { env: { ...process.env, ...env }, stdio: 'ignore' }),
  );
  try {
    const name = `crawlers-${crawlers}-${run}`;
    await addSite(rt, { name, ...siteFlags(site, concurrency * crawlers) });
    const crawl = await startCrawl(rt, name);
    await until(async () => (await findCrawl(rt.db, crawl.id))?.state === 'finished');
    return crawlTiming(rt.db, crawl.id);
  } finally {
    await Promise.all(processes.map(terminate));
    await rt.close();
  }
}

async function killOneOfTwo(site: GeneratedSite, shared: Record<string, string>, concurrency: number): Promise<{ refetched: number }> {
  const env = { ...shared, WINNOW_QUEUE_PREFIX: 'bench-kill', WINNOW_CRAWL_CONCURRENCY: String(concurrency), WINNOW_JOB_LOCK_MS: '2000' };
  const rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
  const [victim, survivor] = [0, 1].map(() => spawn(process.execPath, [serviceMain('crawler')], { env: { ...process.env, ...env }, stdio: 'ignore' })) as [
    ChildProcess,
    ChildProcess,
  ];
  try {
    await addSite(rt, { name: 'killed', ...siteFlags(site, concurrency * 2) });
    const crawl = await startCrawl(rt, 'killed');
    await until(async () => ((await findCrawl(rt.db, crawl.id))?.counts.stored ?? 0) >= site.paths.length / 3);
    victim.kill('SIGKILL');
    await until(async () => (await findCrawl(rt.db, crawl.id))?.state === 'finished');
    return { refetched: site.paths.filter((path) => site.hits(path) > 1).length };
  } finally {
    await Promise.all([terminate(victim), terminate(survivor)]);
    await rt.close();
  }
}

async function crawlDelayGap(site: GeneratedSite, shared: Record<string, string>): Promise<number> {
  const env = { ...shared, WINNOW_QUEUE_PREFIX: 'bench-gap' };
  const rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
  const processes = [0, 1].map(() => spawn(process.execPath, [serviceMain('crawler')], { env: { ...process.env, ...env }, stdio: 'ignore' }));
  try {
    await addSite(rt, { name: 'delayed', ...siteFlags(site, 8) });
    const crawl = await startCrawl(rt, 'delayed');
    await until(async () => (await findCrawl(rt.db, crawl.id))?.state === 'finished');
    return smallestGap(site.requests);
  } finally {
    await Promise.all(processes.map(terminate));
    await rt.close();
  }
}

/** Pages stored by a crawl, and the seconds from its start to its last fetch, from the database's own clock. */
async function crawlTiming(db: Db | Runtime['db'], crawlId: number): Promise<Timed> {
  const [row] = await db.query<{ pages: number; seconds: number }>(
    `SELECT count(*) FILTER (WHERE f.outcome = 'stored')::int AS pages, extract(epoch FROM max(f.done_at) - c.started_at)::float8 AS seconds
       FROM frontier f JOIN crawls c ON c.id = f.crawl_id WHERE c.id = $1 GROUP BY c.started_at`,
    [crawlId],
  );
  return { pages: row?.pages ?? 0, seconds: row?.seconds ?? Number.NaN };
}

/** Pages indexed for a site, and the seconds from its crawl's start to the last document written. */
async function indexedTiming(db: Db | Runtime['db'], site: string): Promise<Timed> {
  const [row] = await db.query<{ pages: number; seconds: number }>(
    `SELECT count(*)::int AS pages, extract(epoch FROM max(d.indexed_at) - (SELECT min(c.started_at) FROM crawls c JOIN sites s ON s.id = c.site_id WHERE s.name = $1))::float8 AS seconds
       FROM search_documents d WHERE d.site = $1`,
    [site],
  );
  return { pages: row?.pages ?? 0, seconds: row?.seconds ?? Number.NaN };
}

async function extractionsPerPage(db: Db): Promise<number> {
  const [row] = await db.query<{ runs: number; pages: number }>('SELECT sum(runs)::float8 AS runs, count(*)::float8 AS pages FROM extractions');
  return row && row.pages > 0 ? row.runs / row.pages : Number.NaN;
}

/** Waits for a process to end, sampling its peak RSS (VmHWM) while it runs; resolves to that peak in MiB. */
async function runToEnd(child: ChildProcess): Promise<number> {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // Ended between two samples.
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${child.spawnargs.slice(1).join(' ')} exited with ${code}`);
  return peak;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function until(done: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('the benchmark run did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The middle value (`SCALING_RUNS` is odd), by the evaluation's nearest-rank quantile. */
function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
