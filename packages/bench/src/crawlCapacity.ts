import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadEnv } from '@winnow/config';
import { type GeneratedSite, type GeneratedSiteOptions, serveGeneratedSite } from '@winnow/crawler/testing';
import { startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, type Runtime, startCrawl } from '@winnow/runtime';
import { startPostgresServer } from '@winnow/storage/testing';
import { cpuMs, terminate } from './processes.js';

export interface CrawlCapacityFlags {
  /** Hosts crawled at once, each a generated site on its own port of 127.0.0.1. */
  crawlHosts: number;
  /** Articles per host (besides its home and listing pages). */
  pagesPerHost: number;
  /** Least time between two requests to one host (the site's `delayMs`). */
  hostDelayMs: number;
  /** Requests in flight in the crawler process (`WINNOW_CRAWL_CONCURRENCY`). */
  crawlConcurrency: number;
}

/** One service process's work: pages/s while it ran, and the CPU it spent per page. */
export interface ProcessRate {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  /** Pages per second of one core's CPU: what the process would do were CPU its only limit. */
  pagesPerCoreSecond: number;
}

export interface CrawlCapacity {
  crawler: ProcessRate & {
    hosts: number;
    hostDelayMs: number;
    latencyMs: [number, number];
    concurrency: number;
    htmlBytesPerPage: number;
    /**
     * URLs the process held leased, and the distinct hosts among them, averaged over the polls while
     * it crawled: with a host's requests `hostDelayMs` apart, hosts / delay bounds the rate.
     */
    leasedUrlsMean: number;
    leasedHostsMean: number;
  };
  extractor: ProcessRate;
  /** Growth of each table (`pg_total_relation_size`, indexes and TOAST included) over the pages stored, after the crawl and after extraction. */
  postgres: { bytesPerPage: number; byTable: Record<string, number> };
}

/** Latency of every answer, drawn evenly from this range: a nearby server, not the web's median. */
const LATENCY_MS: [number, number] = [100, 400];
const serviceMain = (service: string) => fileURLToPath(new URL(`../../../services/${service}/dist/main.js`, import.meta.url));
/** The tables that grow with every page: the frontier row, the page, its body (TOAST-compressed), its extraction. */
const PAGE_TABLES = ['frontier', 'pages', 'raw_pages', 'extractions'] as const;

/**
 * One crawler process against many hosts on 127.0.0.1, each paced by its site's `delayMs` and
 * answering in 100-400 ms, its articles real pages (`realArticle`), with Postgres and Redis of their own; then one extractor process over
 * the pages it stored. Rates run from the first page each process finished to its last (start-up
 * excluded); CPU is the process's own (all its threads), read from /proc over the same window.
 * Postgres's growth is read table by table before the crawl, after it, and after extraction.
 */
export async function measureCrawling(flags: CrawlCapacityFlags, articles: readonly string[], log: (line: string) => void): Promise<CrawlCapacity> {
  const [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  const sites: GeneratedSite[] = [];
  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    ELASTICSEARCH_URL: '',
    WINNOW_QUEUE_PREFIX: 'capacity',
    WINNOW_CRAWL_CONCURRENCY: String(flags.crawlConcurrency),
    WINNOW_LOG_LEVEL: 'warn',
  };
  const rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
  try {
    for (let host = 0; host < flags.crawlHosts; host++) {
      sites.push(
        await serveGeneratedSite({
          pages: flags.pagesPerHost,
          latencyMs: LATENCY_MS,
          shape: 'listings',
          override: realArticle(articles, host * flags.pagesPerHost),
        }),
      );
    }
    const empty = await tableSizes(rt);
    for (const [i, site] of sites.entries()) {
      await addSite(rt, {
        name: `host${i}`,
        seeds: [`${site.origin}/`],
        allowPrivateAddresses: true,
        delayMs: flags.hostDelayMs,
        maxPages: site.paths.length * 2,
        templateEveryMs: 0,
      });
      await startCrawl(rt, `host${i}`);
    }
    const inFlight: { urls: number; hosts: number }[] = [];
    const crawled = await runService('crawler', env, async () => {
      const [row] = await rt.db.query<{ open: number; stored: number; leased: number; hosts: number }>(
        `SELECT count(*) FILTER (WHERE state NOT IN ('finished', 'failed', 'stopped'))::int AS open, (SELECT count(*)::int FROM pages) AS stored,
                (SELECT count(*)::int FROM frontier WHERE state = 'leased') AS leased, (SELECT count(DISTINCT host)::int FROM frontier WHERE state = 'leased') AS hosts
           FROM crawls`,
      );
      if (row && row.leased > 0) inFlight.push({ urls: row.leased, hosts: row.hosts });
      return { done: row?.open === 0, pages: row?.stored ?? 0 };
    });
    const mean = (values: number[]) => round(values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length));
    const pages = crawled.pages;
    const [html] = await rt.db.query<{ bytes: number }>('SELECT avg(byte_length)::float8 AS bytes FROM raw_pages');
    const crawler = {
      ...crawled,
      hosts: flags.crawlHosts,
      hostDelayMs: flags.hostDelayMs,
      latencyMs: LATENCY_MS,
      concurrency: flags.crawlConcurrency,
      htmlBytesPerPage: Math.round(html?.bytes ?? 0),
      leasedUrlsMean: mean(inFlight.map((sample) => sample.urls)),
      leasedHostsMean: mean(inFlight.map((sample) => sample.hosts)),
    };
    log(
      `crawler: ${crawler.pagesPerSecond} pages/s over ${flags.crawlHosts} hosts (${flags.hostDelayMs} ms apart per host), ${crawler.cpuMsPerPage} ms of CPU per page, ${crawler.leasedUrlsMean} URLs of ${crawler.leasedHostsMean} hosts leased on average`,
    );
    const extractor = await runService('extractor', env, async () => {
      const [row] = await rt.db.query<{ extracted: number }>('SELECT count(*)::int AS extracted FROM extractions');
      return { done: (row?.extracted ?? 0) >= pages, pages: row?.extracted ?? 0 };
    });
    log(`extractor: ${extractor.pagesPerSecond} pages/s, ${extractor.cpuMsPerPage} ms of CPU per page`);
    const after = await tableSizes(rt);
    const byTable: Record<string, number> = {};
    for (const table of PAGE_TABLES) byTable[table] = Math.round(((after.get(table) ?? 0) - (empty.get(table) ?? 0)) / pages);
    const bytesPerPage = Object.values(byTable).reduce((sum, bytes) => sum + bytes, 0);
    log(`postgres: ${bytesPerPage} B per page (${JSON.stringify(byTable)})`);
    return { crawler, extractor, postgres: { bytesPerPage, byTable } };
  } finally {
    await rt.close();
    await Promise.all(sites.map((site) => site.close()));
    await Promise.all([redis.stop(), postgres.destroy()]);
  }
}

/**
 * Answers each article path with a real page (the dataset's, in turn from `first`), its links taken
 * out and its host and number added in a comment: the crawl's shape stays the generated site's (home, listings, articles), while the bytes
 * stored and the text extracted are a real page's.
 */
function realArticle(articles: readonly string[], first: number): GeneratedSiteOptions['override'] {
  return (request, response) => {
    const n = /^\/articles\/(\d+)\.html$/.exec(request.url ?? '')?.[1];
    if (n === undefined || articles.length === 0) return false;
    const html = (articles[(first + Number(n)) % articles.length] as string).replace(/\shref\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '');
    // Every answer its own bytes: bodies are stored by content hash, and a page served twice would be stored once.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`${html}<!-- ${request.headers.host} ${n} -->`);
    return true;
  };
}

/**
 * Runs one service process until `progress` says done. The window starts at the first poll that
 * sees a page done and ends at the poll that sees the last, so the process's start-up (module
 * loading, connections) counts neither in the time nor in the CPU.
 */
async function runService(service: string, env: Record<string, string>, progress: () => Promise<{ done: boolean; pages: number }>): Promise<ProcessRate> {
  const child = spawn(process.execPath, [serviceMain(service)], { env: { ...process.env, ...env }, stdio: 'ignore' });
  try {
    const before = await progress();
    let first: { at: number; cpuMs: number; pages: number } | undefined;
    for (const deadline = Date.now() + 1_800_000; ; ) {
      if (child.exitCode !== null) throw new Error(`the ${service} process exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`the ${service} process did not finish in time`);
      const now = await progress();
      if (!first && now.pages > before.pages) first = { at: performance.now(), cpuMs: cpuMs(child), pages: now.pages };
      if (first && now.done) {
        const pages = now.pages - first.pages;
        const seconds = (performance.now() - first.at) / 1000;
        const cpuMsPerPage = (cpuMs(child) - first.cpuMs) / pages;
        return {
          pages,
          seconds: round(seconds),
          pagesPerSecond: round(pages / seconds),
          cpuMsPerPage: round(cpuMsPerPage),
          pagesPerCoreSecond: Math.round(1000 / cpuMsPerPage),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await terminate(child);
  }
}

async function tableSizes(rt: Runtime): Promise<Map<string, number>> {
  const rows = await rt.db.query<{ name: string; bytes: string }>(
    `SELECT relname AS name, pg_total_relation_size(oid)::text AS bytes FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.bytes)]));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
