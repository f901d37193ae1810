import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkWarc, type LocalS3Proxy, objectStoreEnv, startLocalS3Proxy } from '@winnow/archive/testing';
import { loadEnv } from '@winnow/config';
import { addSite, exportSite, isIdle, openRuntime, pipelineStatus, requestTemplates, type Runtime, startCrawl, updateSite, waitForIdle } from '@winnow/runtime';
import { closeAll, startWorkers } from './pipeline.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const ARTICLES = 40;
/** Articles past this one answer only once the test lets them: the crawl is under way when the store goes away. */
const HELD_AFTER = 20;

/** Bodies the server sent, by path; each article has an ETag and answers a matching If-None-Match with 304. */
interface HeldSite {
  origin: string;
  bodies: Map<string, string>;
  release(): void;
  close(): Promise<void>;
}

async function serveHeldSite(): Promise<HeldSite> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const bodies = new Map<string, string>();
  bodies.set(
    '/',
    `<html><head><title>Home</title></head><body><ul>${Array.from({ length: ARTICLES }, (_, i) => `<li><a href="/articles/${i + 1}.html">Article ${i + 1}</a></li>`).join('')}</ul></body></html>`,
  );
  for (let n = 1; n <= ARTICLES; n++) {
    bodies.set(
      `/articles/${n}.html`,
      `<!DOCTYPE html><html><head><title>Article ${n}</title></head><body><nav><a href="/">Home</a></nav><article><h1>Article ${n}</h1><p>Article number ${n} tells of the lighthouse keeper's ${n}th winter, word ${n * 7} and word ${n * 13}.</p><p>The harbour froze ${n} times that year.</p></article><footer>Generated site</footer></body></html>`,
    );
  }
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body = bodies.get(path);
    if (!body) return void response.writeHead(404).end();
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    const answer = () => {
      if (path !== '/' && request.headers['if-none-match'] === etag) return void response.writeHead(304, { etag }).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(path === '/' ? {} : { etag }) }).end(body);
    };
    const n = Number(/(\d+)/.exec(path)?.[1] ?? 0);
    if (n > HELD_AFTER) void released.then(answer);
    else answer();
  });
  const origin = await listenOnLoopback(server);
  return {
    origin,
    bodies,
    release,
    close: async () => {
      await closeServer(server);
    },
  };
}

/** Waits until `condition` holds, checking it every 100 ms (what the pipeline does is awaited by its effects). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function number(rt: Runtime, sql: string): Promise<number> {
  return ((await rt.db.query<{ n: number }>(sql))[0] as { n: number }).n;
}

const archived = (rt: Runtime) => number(rt, 'SELECT count(*)::int AS n FROM warc_records WHERE warc_file_id IS NOT NULL');
const staged = (rt: Runtime) => number(rt, 'SELECT count(*)::int AS n FROM warc_records WHERE warc_file_id IS NULL');
const extracted = (rt: Runtime) =>
  number(rt, 'SELECT count(*)::int AS n FROM extractions e JOIN pages p ON p.id = e.page_id AND e.content_hash = p.content_hash');
const bodiesInPostgres = (rt: Runtime) => number(rt, 'SELECT count(*)::int AS n FROM raw_pages WHERE body IS NOT NULL');

describe('pages kept as WARC records in an object store (S3Proxy on 127.0.0.1)', () => {
  test('the store goes away mid-crawl: nothing is lost, the crawl, extraction and indexing go on from Postgres, and once it returns every page is archived, read back and extracted from it', async () => {
    const storeDir = await mkdtemp(join(tmpdir(), 'winnow-s3proxy-'));
    let proxy: LocalS3Proxy = await startLocalS3Proxy({ dir: storeDir });
    const site = await serveHeldSite();
    const rt = await openRuntime(
      loadEnv({
        WINNOW_DATA_DIR: 'memory',
        WINNOW_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        ...objectStoreEnv(proxy, 'winnow-outage'),
        WINNOW_WARC_FLUSH_MS: '0',
        WINNOW_WARC_FILE_BYTES: String(64 * 1024),
        // The held articles wait for the test, not for a timeout; readers of archived bodies wait out the outage.
        WINNOW_FETCH_TIMEOUT_MS: '600000',
        WINNOW_INFRA_RETRY_MS: '3600000',
      }),
    );
    const services = await startWorkers(rt);
    try {
      // Templates only when the test asks: the pages are read alone until then.
      await addSite(rt, { name: 'outage', seeds: [`${site.origin}/`], templateEveryMs: 0, minTemplatePages: 1000, allowPrivateAddresses: true });
      await startCrawl(rt, 'outage');
      const before = HELD_AFTER + 1;
      await until(async () => (await archived(rt)) >= before && (await rt.search.count('outage')) >= before);
      assert.equal(await archived(rt), before, 'the home page and the first articles were archived before the outage');

      // The store goes away; the held articles answer now.
      await proxy.stop();
      site.release();
      await until(async () => (await extracted(rt)) === ARTICLES + 1 && (await rt.search.count('outage')) === ARTICLES + 1);
      const [crawl] = await rt.db.query<{ state: string }>('SELECT state FROM crawls ORDER BY id DESC LIMIT 1');
      assert.equal(crawl?.state, 'finished', 'the crawl ended while the store was away');
      const waiting = ARTICLES - HELD_AFTER;
      assert.equal(await staged(rt), waiting, 'the fetches of the outage wait in Postgres');
      assert.equal(await bodiesInPostgres(rt), waiting, 'with their bodies');
      assert.equal((await pipelineStatus(rt)).archive?.staged, waiting, 'status says what waits for the store');
      // The preparation the crawl's end asked for reads the archived bodies too: it waits for the store.
      assert.equal(await isIdle(rt), false);

      proxy = await startLocalS3Proxy({ dir: storeDir, port: proxy.port });
      await until(async () => (await staged(rt)) === 0);
      await waitForIdle(rt);
      assert.equal(await archived(rt), ARTICLES + 1, 'every fetch archived once');
      assert.equal(await bodiesInPostgres(rt), 0, 'every body now lives in the object store alone');

      // Templates prepared now read every page from the store, and the articles are extracted again with them.
      await updateSite(rt, 'outage', { minTemplatePages: 10 });
      await requestTemplates(rt, 'outage');
      await waitForIdle(rt);
      const [{ version }] = (await rt.db.query<{ version: number }>(`SELECT template_version AS version FROM sites WHERE name = 'outage'`)) as [
        { version: number },
      ];
      assert.ok(version >= 1, 'a template was prepared from the bodies in the store');
      assert.equal(
        await number(
          rt,
          `SELECT count(*)::int AS n FROM extractions e JOIN pages p ON p.id = e.page_id WHERE p.url LIKE '%/articles/%' AND e.template_version = ${version}`,
        ),
        ARTICLES,
        'every article extracted again with it',
      );
      assert.equal(await rt.search.count('outage'), ARTICLES + 1);

      // Every body reads back through the body store as the server sent it.
      const pages = await rt.db.query<{ url: string; content_hash: string }>('SELECT url, content_hash FROM pages WHERE content_hash IS NOT NULL');
      assert.equal(pages.length, ARTICLES + 1);
      const loaded = await rt.bodies.load(pages.map((page) => page.content_hash));
      for (const page of pages) assert.equal(loaded.get(page.content_hash)?.toString('utf8'), site.bodies.get(new URL(page.url).pathname), page.url);

      // A recrawl finds everything unchanged: 304s and the same home page, archived as revisit records.
      await startCrawl(rt, 'outage');
      await waitForIdle(rt);
      await until(async () => (await staged(rt)) === 0);
      const revisits = await rt.db.query<{ kind: string; n: number }>(
        `SELECT fetch_kind AS kind, count(*)::int AS n FROM warc_records WHERE record_type = 'revisit' GROUP BY fetch_kind ORDER BY fetch_kind`,
      );
      assert.deepEqual(revisits, [
        { kind: 'not-modified', n: ARTICLES },
        { kind: 'unchanged', n: 1 },
      ]);

      // The site's WARC export, read back by warcio's parser: every digest valid.
      const exported = await exportSite(rt, 'outage', 'warc');
      const records = await checkWarc(exported.chunks as AsyncIterable<Buffer>);
      const count = (type: string) => records.filter((record) => record.type === type).length;
      assert.deepEqual(
        { warcinfo: count('warcinfo'), response: count('response'), revisit: count('revisit'), request: count('request'), metadata: count('metadata') },
        { warcinfo: 1, response: ARTICLES + 1, revisit: ARTICLES + 1, request: 2 * (ARTICLES + 1), metadata: 2 * (ARTICLES + 1) },
      );
    } finally {
      await closeAll(services);
      await rt.close();
      await proxy.stop();
      await site.close();
      await rm(storeDir, { recursive: true, force: true });
    }
  });
});
