import { performance } from 'node:perf_hooks';
import { Client } from '@elastic/elasticsearch';
import { measureWarcBytes } from '@winnow/archive';
import { Politeness } from '@winnow/crawler';
import { loadPages } from '@winnow/eval';
import { openRedisClient, PipelineQueues, startPrivateRedis } from '@winnow/queue';
import { ElasticsearchIndex, parseQuery, wordsOf } from '@winnow/search';
import { startLocalElasticsearch } from '@winnow/search/testing';
import { type FrontierBenchFlags, type FrontierCosts, measureFrontier } from './frontierBench.js';
import { demoDocuments } from './indexBench.js';

export interface CapacityBenchFlags extends Omit<FrontierBenchFlags, 'json'> {
  /** A dataset folder whose pages stand for the fetched pages (their size and compressibility). */
  pages: string;
  /** Jobs queued and hosts paced to measure Redis memory. */
  jobs: number;
  /** Documents indexed into one local Elasticsearch node. */
  documents: number;
  /** Searches per concurrency level, each way. */
  searches: number;
}

/** Searches at one concurrency: requests/s and latency quantiles in ms. */
export interface SearchLoad {
  clients: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface CapacityCosts {
  redis: { bytesPerQueuedJob: number; bytesPerHostPoliteness: number };
  objectStore: { pages: number; rawBytesPerPage: number; warcBytesPerPage: number; revisitBytesPerPage: number };
  frontier: FrontierCosts;
  elasticsearch: {
    documents: number;
    docsPerSecondPerNode: number;
    bytesPerDocument: number;
    /** `ElasticsearchIndex.search` (what the search API calls, highlighting included, without HTTP) beside Elasticsearch's own `_search` of the same phrases. */
    search: { clients: number; winnow: SearchLoad; elasticsearch: SearchLoad; throughputRatio: number }[];
  };
}

/**
 * Per-unit costs for docs/capacity.md, each measured here on the engine that pays it: Redis memory
 * per queued job (BullMQ's keys for one `extract` job waiting, as `used_memory` grows) and per host
 * of politeness state (one slot taken on each of many hosts), object-store bytes per page as WARC
 * (`measureWarcBytes` over real pages), and the Postgres frontier (`measureFrontier`).
 */
export async function measureCapacity(flags: CapacityBenchFlags, log: (line: string) => void = () => undefined): Promise<CapacityCosts> {
  const redis = await measureRedis(flags.jobs);
  log(`redis: ${redis.bytesPerQueuedJob} B per queued job, ${redis.bytesPerHostPoliteness} B per paced host`);
  const warc = await measureWarcBytes((await loadPages(flags.pages)).map((page, i) => ({ url: page.url ?? `http://example.test/${i}`, html: page.html })));
  const objectStore = {
    pages: warc.pages,
    rawBytesPerPage: Math.round(warc.rawPerPage),
    warcBytesPerPage: Math.round(warc.warcPerPage),
    revisitBytesPerPage: Math.round(warc.revisitPerPage),
  };
  log(`object store: ${objectStore.warcBytesPerPage} B of WARC per page (${objectStore.pages} pages of ${flags.pages})`);
  const elasticsearch = await measureElasticsearch(flags, log);
  const frontier = await measureFrontier(flags, log);
  return { redis, objectStore, frontier, elasticsearch };
}

/**
 * One local node (1 shard, no replica): bulk writes of demo documents through `ElasticsearchIndex`
 * (docs/s), the store's bytes per document once merged to one segment, then the same phrase
 * queries (three consecutive words of a document's text) at 10 and 50 concurrent clients through
 * `ElasticsearchIndex.search` and as a bare `match_phrase` `_search`.
 */
async function measureElasticsearch(flags: CapacityBenchFlags, log: (line: string) => void): Promise<CapacityCosts['elasticsearch']> {
  const node = await startLocalElasticsearch({ heap: '512m' });
  const alias = 'capacity';
  const index = new ElasticsearchIndex({ url: node.url, alias });
  const client = new Client({ node: node.url });
  try {
    await index.ensureReady();
    const documents = demoDocuments(flags.documents);
    const started = performance.now();
    for (let from = 0; from < documents.length; from += 200) await index.upsert(documents.slice(from, from + 200));
    const docsPerSecondPerNode = Math.round(documents.length / ((performance.now() - started) / 1000));
    await index.refresh();
    await client.indices.forcemerge({ index: alias, max_num_segments: 1 });
    const stats = await client.indices.stats({ index: alias, metric: 'store' });
    const bytesPerDocument = Math.round((stats._all.primaries?.store?.size_in_bytes ?? 0) / documents.length);
    log(`elasticsearch: ${docsPerSecondPerNode} docs/s, ${bytesPerDocument} B per document (${documents.length} documents)`);
    const sites = [...new Set(documents.map((doc) => doc.site))];
    const phrases = Array.from({ length: 200 }, (_, i) => {
      const words = wordsOf(documents[(i * 7919) % documents.length]?.mainText ?? '');
      const at = (i * 31) % Math.max(1, words.length - 3);
      return words.slice(at, at + 3).join(' ');
    });
    const search: CapacityCosts['elasticsearch']['search'] = [];
    for (const clients of [10, 50]) {
      const winnow = await load(clients, flags.searches, (i) =>
        index.search({ query: parseQuery(`"${phrases[i % phrases.length]}"`), sites, offset: 0, limit: 10 }),
      );
      const bare = await load(clients, flags.searches, (i) =>
        client.search({
          index: alias,
          size: 10,
          query: { bool: { must: [{ match_phrase: { main_words: phrases[i % phrases.length] as string } }], filter: [{ terms: { site: sites } }] } },
        }),
      );
      search.push({ clients, winnow, elasticsearch: bare, throughputRatio: Math.round((winnow.requestsPerSecond / bare.requestsPerSecond) * 100) / 100 });
      log(
        `search at ${clients} clients: ${winnow.requestsPerSecond} req/s (p99 ${winnow.p99Ms} ms) against _search ${bare.requestsPerSecond} (p99 ${bare.p99Ms} ms)`,
      );
    }
    return { documents: documents.length, docsPerSecondPerNode, bytesPerDocument, search };
  } finally {
    await client.close();
    await index.close();
    await node.stop();
  }
}

/** `total` requests from `clients` loops at once; each request's latency. */
async function load(clients: number, total: number, request: (i: number) => Promise<unknown>): Promise<SearchLoad> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < total; i = next++) {
        const sent = performance.now();
        await request(i);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const quantile = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return { clients, requestsPerSecond: Math.round(total / seconds), p50Ms: quantile(0.5), p99Ms: quantile(0.99) };
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
