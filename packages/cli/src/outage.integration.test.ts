import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { serveGeneratedSite, type GeneratedSite } from '@winnow/crawler/testing';
import { extractionJobId } from '@winnow/queue';
import { type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, type Runtime, type Service, startCrawl, waitForIdle } from '@winnow/runtime';
import { indexableVersions } from '@winnow/storage';
import { type PostgresServer, startPostgresServer } from '@winnow/storage/testing';
import { closeAll, startWorkers } from './pipeline.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it holds: the event a test waits for, never a fixed time. */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('extract and index jobs wait out a Postgres outage instead of spending their attempts (own Postgres server, real Redis)', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let site: GeneratedSite;
  let rt: Runtime;
  let services: Service[] = [];
  before(async () => {
    [postgres, redis, site] = await Promise.all([startPostgresServer(), startRedisServer(), serveGeneratedSite({ pages: 24, shape: 'listings' })]);
    // Two attempts 100 ms apart: without the wait, a job spends them on the outage in a fraction of a second.
    const env = loadEnv({
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ELASTICSEARCH_URL: '',
      WINNOW_JOB_ATTEMPTS: '2',
      WINNOW_JOB_BACKOFF_MS: '100',
      WINNOW_JOB_LOCK_MS: '2000',
      WINNOW_LOG_LEVEL: 'silent',
    });
    rt = await openRuntime(env);
    services = await startWorkers(rt);
  });
  after(async () => {
    await closeAll(services);
    await rt?.close();
    await Promise.all([site?.close(), redis?.stop(), postgres?.destroy()]);
  });

  test('jobs taken while Postgres is down end extracted and indexed, none failed', async () => {
    await addSite(rt, { name: 'outage', seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true });
    await startCrawl(rt, 'outage');
    await waitForIdle(rt);
    const pages = await rt.db.query<{ id: number; content_hash: string }>('SELECT id, content_hash FROM pages WHERE content_hash IS NOT NULL ORDER BY id');
    assert.equal(pages.length, site.paths.length);

    // Every page's extraction and document lost; then the database goes away as their jobs are queued.
    await rt.db.query('DELETE FROM extractions');
    await rt.search.removePages(pages.map((page) => page.id));
    await postgres.stop();
    await rt.queues.addBulk(
      'extract',
      pages.map((page) => ({ pageId: page.id })),
      ({ pageId }) => extractionJobId(pageId, pages.find((page) => page.id === pageId)?.content_hash as string),
    );
    const extract = rt.queues.queue('extract');
    await until('the extractor to take jobs during the outage', async () => ((await extract.getJobCounts('active')).active as number) > 0);
    // Held well past what two attempts 100 ms apart take to fail.
    await sleep(3_000);
    const failedDuringOutage = (await extract.getJobCounts('failed')).failed;
    await postgres.start();
    await waitForIdle(rt);

    assert.equal(failedDuringOutage, 0, 'no job failed while Postgres was down');
    const counts = await rt.queues.counts();
    assert.equal(counts.extract.failed + counts.index.failed, 0, 'no extract or index job failed');
    const [failures] = await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM page_failures');
    assert.equal(failures?.n, 0);
    const wanted = await indexableVersions(rt.db);
    assert.equal(wanted.size, pages.length, 'every page extracted again');
    assert.deepEqual(await rt.search.documentVersions(), wanted, 'every page indexed from its extraction');
  });
});
