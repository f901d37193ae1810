import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, type Runtime, startCrawl, stopCrawl } from '@winnow/runtime';
import { findCrawl } from '@winnow/storage';
import { createScratchDatabase, type PostgresServer, type ScratchDatabase, startPostgresServer } from '@winnow/storage/testing';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { assertCrawlDelayOfOneSecondKept } from './testing/crawlDelay.js';
import { serveGeneratedSite } from './testing/generatedSite.js';

const main = fileURLToPath(new URL('./main.js', import.meta.url));

interface CrawlerProcess {
  child: ChildProcess;
  exited: Promise<unknown>;
  stderr: string[];
}

/** A crawler process of its own, as a deployment runs them; resolves once it has started. */
async function startCrawlerProcess(env: NodeJS.ProcessEnv): Promise<CrawlerProcess> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, WINNOW_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; !stderr.join('').includes('"msg":"crawler started'); i++) {
    if (child.exitCode !== null || i > 600) throw new Error(`the crawler did not start: ${stderr.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, exited, stderr };
}

/** What a crawler logs when Postgres or Redis is gone: its loop, a visit's record or a lease renewal failed. */
const OUTAGE_WARNINGS = /"msg":"(crawler loop: retrying|database or Redis unavailable: retrying|could not renew leases)/;

async function stopProcess(crawler: CrawlerProcess): Promise<void> {
  if (crawler.child.exitCode === null && crawler.child.signalCode === null) crawler.child.kill('SIGTERM');
  await crawler.exited;
}

describe('crawler processes sharing one frontier (real Postgres and Redis)', () => {
  let scratch: ScratchDatabase;
  let redis: RedisServer;
  let rt: Runtime;
  let env: Record<string, string>;
  before(async () => {
    [scratch, redis] = await Promise.all([createScratchDatabase(), startRedisServer()]);
    env = { DATABASE_URL: scratch.url, REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_QUEUE_PREFIX: 'crawlers', WINNOW_JOB_LOCK_MS: '2000' };
    rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
  });
  after(async () => {
    await rt?.close();
    await Promise.all([redis?.stop(), scratch?.drop()]);
  });

  test('two crawlers share one crawl: every page fetched once, robots.txt once, both at work', async () => {
    // A wide site (listing pages), so the frontier holds more than one process can take at once.
    // Its articles are answered only once both processes hold URLs of the crawl: one process
    // (4 at a time) cannot then take them all before the other looks, however busy the machine.
    let crawlId = 0;
    const site = await serveGeneratedSite({
      pages: 150,
      latencyMs: 50,
      shape: 'listings',
      holdBack: {
        paths: Array.from({ length: 150 }, (_, i) => `/articles/${i + 1}.html`),
        until: untilBothHoldUrls(() => crawlId),
      },
    });
    const crawlers = await Promise.all([
      startCrawlerProcess({ ...env, WINNOW_CRAWL_CONCURRENCY: '4' }),
      startCrawlerProcess({ ...env, WINNOW_CRAWL_CONCURRENCY: '4' }),
    ]);
    try {
      await addSite(rt, { name: 'shared', seeds: [`${site.origin}/`], concurrency: 8, allowPrivateAddresses: true, templateEveryMs: 0, maxDepth: 100 });
      crawlId = (await startCrawl(rt, 'shared')).id;
      const crawl = await crawlToEnd(rt, crawlId, 120_000);
      assert.equal(crawl.state, 'finished');
      assert.equal(crawl.counts.stored, site.paths.length);
      assert.deepEqual(
        site.paths.filter((path) => site.hits(path) !== 1),
        [],
        'no page fetched twice',
      );
      assert.equal(site.hits('/robots.txt'), 1, 'robots.txt fetched once for both processes');
      const workers = await rt.db.query<{ done_by: string; pages: number }>(
        `SELECT done_by, count(*)::int AS pages FROM frontier WHERE crawl_id = $1 GROUP BY done_by`,
        [crawl.id],
      );
      assert.equal(workers.length, 2, `both processes fetched: ${JSON.stringify(workers)}`);
    } finally {
      await Promise.all(crawlers.map(stopProcess));
      await site.close();
    }
  });

  /**
   * Settles once two owners have held or done URLs of the crawl, or after a minute (the test's
   * assertion then names the one process that did all the work).
   */
  async function untilBothHoldUrls(crawlId: () => number): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (crawlId() > 0) {
        const [row] = await rt.db.query<{ owners: number }>(
          `SELECT count(DISTINCT coalesce(lease_owner, done_by))::int AS owners FROM frontier WHERE crawl_id = $1`,
          [crawlId()],
        );
        if ((row?.owners ?? 0) >= 2) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  test('kill -9 of one crawler mid-crawl loses nothing and refetches only what it had in flight', async () => {
    const concurrency = 4;
    const site = await serveGeneratedSite({ pages: 200, latencyMs: 30 });
    const [victim, survivor] = await Promise.all([
      startCrawlerProcess({ ...env, WINNOW_CRAWL_CONCURRENCY: String(concurrency) }),
      startCrawlerProcess({ ...env, WINNOW_CRAWL_CONCURRENCY: String(concurrency) }),
    ]);
    try {
      await addSite(rt, { name: 'killed', seeds: [`${site.origin}/`], concurrency: 8, allowPrivateAddresses: true, templateEveryMs: 0, maxDepth: 100 });
      const started = await startCrawl(rt, 'killed');
      for (let i = 0; ((await findCrawl(rt.db, started.id))?.counts.stored ?? 0) < 60; i++) {
        assert.ok(i < 2400, 'the crawl made progress');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      victim.child.kill('SIGKILL');
      await victim.exited;
      const crawl = await crawlToEnd(rt, started.id, 120_000);
      assert.equal(crawl.state, 'finished');
      assert.equal(crawl.counts.stored, site.paths.length, 'every page stored, counted once');
      const refetched = site.paths.filter((path) => site.hits(path) > 1).length;
      assert.ok(site.paths.every((path) => site.hits(path) >= 1));
      assert.ok(refetched <= concurrency, `${refetched} pages fetched twice; the killed process had at most ${concurrency} in flight`);
    } finally {
      await Promise.all([stopProcess(victim), stopProcess(survivor)]);
      await site.close();
    }
  });

  test("Crawl-delay holds across two crawler processes, by the server's own clock", async () => {
    const site = await serveGeneratedSite({ pages: 6, robotsTxt: 'User-agent: *\nCrawl-delay: 1\n' });
    const crawlers = await Promise.all([startCrawlerProcess(env), startCrawlerProcess(env)]);
    try {
      await addSite(rt, { name: 'delayed', seeds: [`${site.origin}/`], concurrency: 8, allowPrivateAddresses: true, templateEveryMs: 0, maxDepth: 100 });
      const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'delayed')).id, 120_000);
      assert.equal(crawl.counts.stored, site.paths.length);
      // Without a shared pace, two processes send within a few ms of each other.
      assertCrawlDelayOfOneSecondKept(site.requests);
    } finally {
      await Promise.all(crawlers.map(stopProcess));
      await site.close();
    }
  });

  test('a crawl that no crawler holds stops at once', async () => {
    const site = await serveGeneratedSite({ pages: 3 });
    try {
      await addSite(rt, { name: 'unheld', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0, maxDepth: 100 });
      const crawl = await startCrawl(rt, 'unheld');
      assert.equal((await stopCrawl(rt, 'unheld'))?.state, 'stopped');
      assert.equal((await findCrawl(rt.db, crawl.id))?.state, 'stopped');
      assert.equal((await startCrawl(rt, 'unheld')).state, 'queued', 'the site can be crawled again');
      assert.equal((await stopCrawl(rt, 'unheld'))?.state, 'stopped');
    } finally {
      await site.close();
    }
  });
});

describe('a crawl through outages (its own Postgres server and Redis)', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  before(async () => {
    [postgres, redis] = await Promise.all([startPostgresServer(), startRedisServer()]);
  });
  after(async () => {
    await Promise.all([redis?.stop(), postgres?.destroy()]);
  });

  test('Redis restarted without its data and Postgres stopped mid-crawl for longer than a lease: the crawl still ends, correctly counted', async () => {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_JOB_LOCK_MS: '2000', WINNOW_CRAWL_CONCURRENCY: '4' };
    const rt = await openRuntime(loadEnv({ ...env, WINNOW_LOG_LEVEL: 'silent' }));
    const site = await serveGeneratedSite({ pages: 120, latencyMs: 40 });
    const crawler = await startCrawlerProcess(env);
    try {
      await addSite(rt, { name: 'outages', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0, maxDepth: 100 });
      const crawlId = (await startCrawl(rt, 'outages')).id;
      const stored = async () => (await findCrawl(rt.db, crawlId))?.counts.stored ?? 0;
      for (let i = 0; (await stored()) < 20; i++) {
        assert.ok(i < 1200);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await redis.restart();
      for (let i = 0; (await stored()) < 40; i++) {
        assert.ok(i < 1200, 'the crawl goes on after Redis came back empty');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const saidBefore = crawler.stderr.join('').length;
      await postgres.stop();
      // Postgres comes back once the crawler has met the outage (a lease, a record or a renewal
      // failed) and the leases it held have lapsed (WINNOW_JOB_LOCK_MS after the stop at most).
      const lapsed = new Promise((resolve) => setTimeout(resolve, Number(env.WINNOW_JOB_LOCK_MS)));
      for (let i = 0; !OUTAGE_WARNINGS.test(crawler.stderr.join('').slice(saidBefore)); i++) {
        assert.ok(i < 1200, `the crawler noticed the outage: ${crawler.stderr.join('').slice(saidBefore)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await lapsed;
      await postgres.start();
      const crawl = await crawlToEnd(rt, crawlId, 180_000);
      assert.equal(crawl.state, 'finished');
      assert.equal(crawl.counts.stored, site.paths.length, 'every page stored once');
      assert.equal(crawl.counts.failed + crawl.counts.refused, 0);
      const [pages] = await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pages WHERE content_hash IS NOT NULL');
      assert.equal(pages?.n, site.paths.length);
      assert.equal(crawler.child.exitCode, null, 'the crawler rode out both outages');
    } finally {
      await stopProcess(crawler);
      await site.close();
      await rt.close();
    }
  });
});
