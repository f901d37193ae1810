import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { startCrawler } from '@winnow/crawler';
import { crawlToEnd, type GeneratedSite, serveGeneratedSite } from '@winnow/crawler/testing';
import { type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, type Runtime, type Service, startCrawl } from '@winnow/runtime';
import { type PostgresServer, startPostgresServer } from '@winnow/storage/testing';
import { pino } from 'pino';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The page whose fetch Postgres goes down under: the crawler has its answer and cannot record it. */
const HELD = '/articles/1.html';
/** Attempts at recording the page that the test waits for while Postgres is down: enough for its lease (2 s) to lapse too. */
const RETRIES = 5;

describe('a crawler that fetched a page but cannot record it records it later, without fetching it again (own Postgres server, real Redis)', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let site: GeneratedSite;
  let rt: Runtime;
  let crawler: Service | undefined;
  /** The URLs of the crawler's "retrying" warnings, one per failed attempt at a visit. */
  const retried: string[] = [];
  before(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
    site = await serveGeneratedSite({
      pages: 6,
      // The first request for the page takes Postgres down before it is answered.
      override: (request, response, seen) => {
        if (request.url !== HELD || seen !== 1) return false;
        void postgres
          .stop()
          .then(() =>
            response
              .writeHead(200, { 'content-type': 'text/html' })
              .end('<html><title>Held</title><body><p>Fetched while Postgres went away.</p></body></html>'),
          );
        return true;
      },
    });
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'database or Redis unavailable: retrying' && entry.url) retried.push(entry.url);
        }
        done();
      },
    });
    const env = loadEnv({
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ELASTICSEARCH_URL: '',
      WINNOW_JOB_LOCK_MS: '2000',
      WINNOW_CRAWL_CONCURRENCY: '2',
      WINNOW_LOG_LEVEL: 'warn',
    });
    rt = await openRuntime(env, { log: pino({ level: 'warn' }, lines) });
    crawler = startCrawler(rt);
  });
  after(async () => {
    await crawler?.close();
    await rt?.close();
    await Promise.all([site?.close(), redis?.stop(), postgres?.destroy()]);
  });

  test('every page is requested once across a Postgres outage that starts mid-fetch and outlasts the lease', async () => {
    await addSite(rt, { name: 'held', seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true, maxDepth: 100 });
    const started = await startCrawl(rt, 'held');
    const heldUrl = `${site.origin}${HELD}`;
    for (let i = 0; retried.filter((url) => url === heldUrl).length < RETRIES; i++) {
      assert.ok(i < 3000, `the crawler tried again to record ${HELD} (${retried.length} retries seen)`);
      await sleep(100);
    }
    await postgres.start();
    const crawl = await crawlToEnd(rt, started.id, 120_000);

    assert.equal(crawl.state, 'finished');
    assert.equal(crawl.counts.stored, site.paths.length, 'every page stored, the held one too');
    const [held] = await rt.db.query<{ stored: boolean }>('SELECT content_hash IS NOT NULL AS stored FROM pages WHERE url = $1', [heldUrl]);
    assert.equal(held?.stored, true, 'the page fetched during the outage is stored from that fetch');
    assert.deepEqual(
      site.paths.filter((path) => site.hits(path) !== 1).map((path) => `${path}: ${site.hits(path)}`),
      [],
      'no page requested more than once',
    );
  });
});
