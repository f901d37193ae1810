import { measureWarcBytes } from '@winnow/archive';
import { Politeness } from '@winnow/crawler';
import { loadPages } from '@winnow/eval';
import { openRedisClient, PipelineQueues, startPrivateRedis } from '@winnow/queue';
import { type CrawlCapacity, type CrawlCapacityFlags, measureCrawling } from './crawlCapacity.js';
import { type FrontierBenchFlags, type FrontierCosts, measureFrontier } from './frontierBench.js';
import { measureSearch, type SearchCosts } from './searchLoad.js';

export interface CapacityBenchFlags extends Omit<FrontierBenchFlags, 'json'>, CrawlCapacityFlags {
  /** A dataset folder whose pages stand for the fetched pages (their size and compressibility). */
  pages: string;
  /** Jobs queued and hosts paced to measure Redis memory. */
  jobs: number;
  /** Documents indexed into one local Elasticsearch node. */
  documents: number;
  /** Searches per concurrency level, each way. */
  searches: number;
  /** Keep the Elasticsearch node's data here: a later run that finds the documents loaded skips the load. */
  elasticsearchHome?: string;
  /** Only these parts (all of `CAPACITY_PARTS` when absent). */
  only?: readonly CapacityPart[];
}

/** The parts of the capacity bench, each measured on its own engines. */
export const CAPACITY_PARTS = ['redis', 'objectStore', 'elasticsearch', 'frontier', 'crawler'] as const;
export type CapacityPart = (typeof CAPACITY_PARTS)[number];

export interface CapacityCosts {
  redis: { bytesPerQueuedJob: number; bytesPerHostPoliteness: number };
  objectStore: { pages: number; rawBytesPerPage: number; warcBytesPerPage: number; revisitBytesPerPage: number };
  frontier: FrontierCosts;
  elasticsearch: SearchCosts;
  /** Pages/s and CPU per page of one crawler and one extractor process, and Postgres's growth per page. */
  crawling: CrawlCapacity;
}

/**
 * Per-unit costs for docs/capacity.md, each measured here on the engine that pays it: Redis memory
 * per queued job (BullMQ's keys for one `extract` job waiting, as `used_memory` grows) and per host
 * of politeness state (one slot taken on each of many hosts), object-store bytes per page as WARC
 * (`measureWarcBytes` over real pages), the Postgres frontier (`measureFrontier`), search through
 * the API against Elasticsearch's own (`measureSearch`), and crawler and extractor processes with
 * Postgres's growth per page (`measureCrawling`).
 */
export async function measureCapacity(flags: CapacityBenchFlags, log: (line: string) => void = () => undefined): Promise<Partial<CapacityCosts>> {
  const parts = new Set(flags.only ?? CAPACITY_PARTS);
  const costs: Partial<CapacityCosts> = {};
  if (parts.has('redis')) {
    const redis = await measureRedis(flags.jobs);
    log(`redis: ${redis.bytesPerQueuedJob} B per queued job, ${redis.bytesPerHostPoliteness} B per paced host`);
    costs.redis = redis;
  }
  if (parts.has('objectStore')) {
    const warc = await measureWarcBytes((await loadPages(flags.pages)).map((page, i) => ({ url: page.url ?? `http://example.test/${i}`, html: page.html })));
    const objectStore = {
      pages: warc.pages,
      rawBytesPerPage: Math.round(warc.rawPerPage),
      warcBytesPerPage: Math.round(warc.warcPerPage),
      revisitBytesPerPage: Math.round(warc.revisitPerPage),
    };
    log(`object store: ${objectStore.warcBytesPerPage} B of WARC per page (${objectStore.pages} pages of ${flags.pages})`);
    costs.objectStore = objectStore;
  }
  if (parts.has('elasticsearch')) costs.elasticsearch = await measureSearch(flags, log);
  if (parts.has('frontier')) costs.frontier = await measureFrontier(flags, log);
  if (parts.has('crawler'))
    costs.crawling = await measureCrawling(
      flags,
      (await loadPages(flags.pages)).map((page) => page.html),
      log,
    );
  return costs;
}

async function measureRedis(count: number): Promise<CapacityCosts['redis']> {
  const server = await startPrivateRedis();
  const client = openRedisClient(server.options);
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);
  try {
    const queues = new PipelineQueues({ connection: server.options, prefix: 'capacity', attempts: 3, backoffMs: 1000, lockMs: 30_000 });
    try {
      await queues.add('extract', { pageId: 1 }); // the queue's own keys, paid once
      const before = await usedMemory();
      for (let from = 0; from < count; from += 1000) {
        await queues.addBulk(
          'extract',
          Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({ pageId: from + i + 2 })),
        );
      }
      const bytesPerQueuedJob = Math.round(((await usedMemory()) - before) / count);
      const politeness = new Politeness(client, 'capacity:crawl', 60_000);
      const beforeHosts = await usedMemory();
      for (let host = 0; host < count; host++) await politeness.acquire(`h${host}.example.test`, { intervalMs: 1000, maxInFlight: 2 }, 60_000);
      const bytesPerHostPoliteness = Math.round(((await usedMemory()) - beforeHosts) / count);
      return { bytesPerQueuedJob, bytesPerHostPoliteness };
    } finally {
      await queues.close();
    }
  } finally {
    client.disconnect();
    await server.stop();
  }
}

/** `winnow bench capacity`: the per-unit costs, as one JSON object with `--json`. */
export async function benchCapacityCommand(flags: CapacityBenchFlags & { json?: boolean }): Promise<void> {
  const costs = await measureCapacity(flags, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${JSON.stringify(costs, null, flags.json ? undefined : 2)}\n`);
}
