import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadEnv } from '@winnow/config';
import { freePort, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime } from '@winnow/runtime';
import { ElasticsearchIndex, wordsOf } from '@winnow/search';
import { startLocalElasticsearch } from '@winnow/search/testing';
import { startPostgresServer } from '@winnow/storage/testing';
import { demoDocuments } from './indexBench.js';
import { cpuMs, terminate } from './processes.js';

const apiMain = fileURLToPath(new URL('../../../services/api/dist/main.js', import.meta.url));

/** Searches at one concurrency: requests/s and latency quantiles in ms. */
export interface SearchLoad {
  clients: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface SearchCosts {
  documents: number;
  /** Documents/s of the load: bulk writes of `LOAD_BATCH` documents, refreshes off until the end; null when a kept node already held them. */
  docsPerSecondPerNode: number | null;
  bytesPerDocument: number;
  /** The search API over HTTP (`GET /search`, a search token; the CPU its process spent per search) beside Elasticsearch's own `_search` of the same phrases. */
  search: { clients: number; winnow: SearchLoad & { cpuMsPerSearch: number }; elasticsearch: SearchLoad; throughputRatio: number }[];
}

/** Documents per bulk write of the load: about 5 MB, the bulk helper's flush size. */
const LOAD_BATCH = 2000;
const ALIAS = 'capacity';

/**
 * One local Elasticsearch node (1 shard, no replica) holding `documents` demo documents, and the
 * search API in front of it in its own process, as its service runs it (`services/api`, Postgres and Redis of its
 * own, a search token). The same phrase queries (three consecutive words of a document) then go
 * at 10 and 50 concurrent clients to `GET /search` and, as a bare `match_phrase`, to the node's
 * `_search`, both over keep-alive HTTP from this process, neither answer compressed (the
 * Elasticsearch client Winnow uses does not ask for gzip either).
 */
export async function measureSearch(
  flags: { documents: number; searches: number; elasticsearchHome?: string },
  log: (line: string) => void,
): Promise<SearchCosts> {
  const node = await startLocalElasticsearch({ heap: '1g', ...(flags.elasticsearchHome ? { home: flags.elasticsearchHome } : {}) });
  const [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    ELASTICSEARCH_URL: node.url,
    WINNOW_ES_ALIAS: ALIAS,
    WINNOW_API_TOKEN: `search:${token}`,
    WINNOW_API_HOST: '127.0.0.1',
    WINNOW_API_PORT: String(port),
    WINNOW_LOG_LEVEL: 'silent',
  };
  const rt = await openRuntime(loadEnv(env));
  let api: ChildProcess | undefined;
  try {
    const { phrases, sites, docsPerSecondPerNode, bytesPerDocument } = await loadDocuments(node.url, flags.documents);
    log(`elasticsearch: ${docsPerSecondPerNode ?? 'kept'} docs/s, ${bytesPerDocument} B per document (${flags.documents} documents)`);
    for (const site of sites) await addSite(rt, { name: site, seeds: [`http://${site}.demo/`] });
    api = spawn(process.execPath, [apiMain], { env: { ...process.env, ...env }, stdio: 'ignore' });
    const apiUrl = `http://127.0.0.1:${port}`;
    await untilAnswering(`${apiUrl}/health`);
    const searchApi = (i: number) =>
      searchOver(`${apiUrl}/search?q=${encodeURIComponent(`"${phrases[i % phrases.length]}"`)}`, { authorization: `Bearer ${token}` });
    const bareSearch = (i: number) =>
      searchOver(
        `${node.url}/${ALIAS}/_search`,
        { 'content-type': 'application/json' },
        {
          size: 10,
          query: { bool: { must: [{ match_phrase: { main_words: phrases[i % phrases.length] } }], filter: [{ terms: { site: sites } }] } },
        },
      );
    // Warm both paths (JIT, the node's caches) before anything is timed.
    await concurrently(10, 200, searchApi);
    await concurrently(10, 200, bareSearch);
    const search: SearchCosts['search'] = [];
    for (const clients of [10, 50]) {
      const cpuBefore = cpuMs(api);
      const winnow = await concurrently(clients, flags.searches, searchApi);
      const apiCpuMsPerSearch = Math.round(((cpuMs(api) - cpuBefore) / flags.searches) * 100) / 100;
      const elasticsearch = await concurrently(clients, flags.searches, bareSearch);
      const throughputRatio = Math.round((winnow.requestsPerSecond / elasticsearch.requestsPerSecond) * 100) / 100;
      search.push({ clients, winnow: { ...winnow, cpuMsPerSearch: apiCpuMsPerSearch }, elasticsearch, throughputRatio });
      log(
        `search at ${clients} clients: API ${winnow.requestsPerSecond} req/s (p50 ${winnow.p50Ms}, p99 ${winnow.p99Ms} ms, ${apiCpuMsPerSearch} ms of its CPU each) against _search ${elasticsearch.requestsPerSecond} (p50 ${elasticsearch.p50Ms}, p99 ${elasticsearch.p99Ms} ms)`,
      );
    }
    return { documents: flags.documents, docsPerSecondPerNode, bytesPerDocument, search };
  } finally {
    if (api) await terminate(api);
    await rt.close();
    await Promise.all([node.stop(), redis.stop(), postgres.destroy()]);
  }
}

/**
 * The demo documents into the node (`load`), and what the searches need of them: the documents
 * themselves are let go here, so that a heap of 100,000 texts does not slow this process's clients.
 */
async function loadDocuments(url: string, count: number) {
  const documents = demoDocuments(count);
  const sites = [...new Set(documents.map((doc) => doc.site))];
  const phrases = Array.from({ length: 500 }, (_, i) => {
    const words = wordsOf(documents[(i * 7919) % documents.length]?.mainText ?? '');
    const at = (i * 31) % Math.max(1, words.length - 3);
    return words.slice(at, at + 3).join(' ');
  });
  const loader = new ElasticsearchIndex({ url, alias: ALIAS });
  try {
    return { sites, phrases, ...(await load(loader, url, documents)) };
  } finally {
    await loader.close();
  }
}

async function untilAnswering(url: string): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 2 minutes`);
}

/**
 * Writes the documents through `ElasticsearchIndex.upsert` in bulk batches with refreshes off
 * (what a first load of an index does), then merges to one segment and reads the store's size.
 */
async function load(
  index: ElasticsearchIndex,
  url: string,
  documents: ReturnType<typeof demoDocuments>,
): Promise<Pick<SearchCosts, 'docsPerSecondPerNode' | 'bytesPerDocument'>> {
  await index.ensureReady();
  if ((await index.count()) === documents.length) return { docsPerSecondPerNode: null, bytesPerDocument: await bytesPerDocument(url, documents.length) };
  const settings = (refreshInterval: string | null) => requestJson('PUT', `${url}/${ALIAS}/_settings`, { index: { refresh_interval: refreshInterval } });
  await settings('-1');
  const started = performance.now();
  for (let from = 0; from < documents.length; from += LOAD_BATCH) await index.upsert(documents.slice(from, from + LOAD_BATCH));
  const docsPerSecondPerNode = Math.round(documents.length / ((performance.now() - started) / 1000));
  await settings(null);
  await index.refresh();
  await requestJson('POST', `${url}/${ALIAS}/_forcemerge?max_num_segments=1`);
  const count = await index.count();
  if (count !== documents.length) throw new Error(`the index holds ${count} documents, not ${documents.length}`);
  return { docsPerSecondPerNode, bytesPerDocument: await bytesPerDocument(url, count) };
}

async function bytesPerDocument(url: string, documents: number): Promise<number> {
  const stats = (await requestJson('GET', `${url}/${ALIAS}/_stats/store`)) as { _all: { primaries: { store: { size_in_bytes: number } } } };
  return Math.round(stats._all.primaries.store.size_in_bytes / documents);
}

async function requestJson(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** One search over HTTP (a body makes it a POST); refuses an answer that is not 200 or finds nothing, so that a fast failure is never timed as a search. */
async function searchOver(url: string, headers: Record<string, string>, body?: unknown): Promise<void> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...headers, 'accept-encoding': 'identity' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { total?: number; hits?: { total?: { value: number } } };
  const found = answer.total ?? answer.hits?.total?.value ?? 0;
  if (response.status !== 200 || found === 0) throw new Error(`${url} answered ${response.status} with ${found} hits: ${JSON.stringify(answer).slice(0, 200)}`);
}

/** `total` requests from `clients` loops at once; each request's latency. */
async function concurrently(clients: number, total: number, request: (i: number) => Promise<unknown>): Promise<SearchLoad> {
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
