import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { loadEnv } from '@winnow/config';
import { type GeneratedSite, serveGeneratedSite } from '@winnow/crawler/testing';
import { freePort, type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { isIdle, openRuntime, type PipelineStatus, type Runtime, templateScheduleId } from '@winnow/runtime';
import { type PostgresServer, startPostgresServer } from '@winnow/storage/testing';
import { exitWithin, type RunningService, startService, until } from './testing/serviceProcesses.js';

const run = promisify(execFile);

/**
 * The fault test: every service its own process on a Postgres server of the test's own
 * and a real Redis; Postgres stopped for 30 s mid-crawl, then Redis flushed mid-crawl. The
 * pipeline must end with every page stored, extracted and indexed once, nothing left in flight,
 * and `/status` saying so.
 */
describe('faults: Postgres stopped 30 s, then Redis flushed, mid-crawl (every service its own process)', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let site: GeneratedSite;
  let rt: Runtime;
  let env: NodeJS.ProcessEnv;
  let apiUrl: string;
  const token = randomBytes(24).toString('hex');
  const authorization = { authorization: `Bearer ${token}` };
  const services: RunningService[] = [];
  let passed = false;

  before(async () => {
    // Paced (`delayMs`) so that the crawl is still running when each fault comes.
    [postgres, redis, site] = await Promise.all([startPostgresServer(), startRedisServer(), serveGeneratedSite({ pages: 160, latencyMs: 20 })]);
    const apiPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    env = {
      ...process.env,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ELASTICSEARCH_URL: '',
      WINNOW_QUEUE_PREFIX: 'faults',
      // Long enough that a service the machine leaves without CPU for a few seconds keeps its jobs
      // (a 2 s lock let index jobs stall for good at load 45), short of the 30 s outage.
      WINNOW_JOB_LOCK_MS: '10000',
      WINNOW_JOB_BACKOFF_MS: '200',
      WINNOW_RECONCILE_EVERY_MS: '2000',
      WINNOW_CPU_THREADS: '1',
      WINNOW_LOG_LEVEL: 'warn',
      WINNOW_API_PORT: String(apiPort),
      WINNOW_API_TOKEN: token,
    };
    for (const [service, label] of [
      ['api', 'api'],
      ['crawler', 'crawler'],
      ['templater', 'templater'],
      ['extractor', 'extractor'],
      ['indexer', 'indexer'],
    ] as const) {
      services.push(startService(service, env, label));
    }
    rt = await openRuntime(loadEnv(env));
  });

  after(async () => {
    // What each service said, when the test failed: the first place to look.
    if (!passed) for (const service of services) process.stderr.write(`--- ${service.name}\n${service.stderr.join('').slice(-4000)}\n`);
    for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await rt?.close();
    await Promise.all([site?.close(), redis?.stop(), postgres?.destroy()]);
  });

  test('ends with stored = extracted = indexed, no duplicates, nothing stuck, and status telling the truth', { timeout: 600_000 }, async () => {
    await until('the API to be ready', async () => (await fetch(`${apiUrl}/ready`)).status === 200, 60_000);
    const added = await fetch(`${apiUrl}/sites`, {
      method: 'POST',
      headers: { ...authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'faults',
        seeds: [`${site.origin}/`],
        templateEveryMs: 3_600_000,
        delayMs: 100,
        allowPrivateAddresses: true,
        maxDepth: 100,
      }),
    });
    assert.equal(added.status, 201);
    const siteId = ((await added.json()) as { site: { id: number } }).site.id;
    assert.equal((await fetch(`${apiUrl}/sites/faults/crawl`, { method: 'POST', headers: authorization })).status, 202);

    const stored = async () => (await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pages WHERE content_hash IS NOT NULL'))[0]?.n ?? 0;
    await until('the first pages stored', async () => (await stored()) >= 30, 120_000);
    await postgres.stop();
    await sleep(30_000); // the outage's length: a fault, not a verdict
    await postgres.start();

    const crawlState = async () => JSON.stringify(await rt.db.query('SELECT * FROM crawls'));
    const beforeFlush = await until(
      'more pages stored after the outage',
      async () => {
        const n = await stored();
        return n >= 70 && n;
      },
      180_000,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${await stored()} stored, crawls ${await crawlState()}`);
    });
    assert.ok(beforeFlush < site.paths.length, 'the crawl is still running when Redis is flushed');
    const templates = rt.queues.queue('template');
    assert.ok(await templates.getJobScheduler(templateScheduleId(siteId)), 'the template schedule is registered');
    await run('redis-cli', ['-u', redis.url, 'flushall']);

    // The schedule comes back from Postgres, without a restart: the reconciler's work alone.
    await until('the template schedule to be registered again', async () => templates.getJobScheduler(templateScheduleId(siteId)), 60_000);

    const total = site.paths.length;
    const status = await until(
      'every page stored, extracted and indexed, and the pipeline idle',
      async () => {
        const [row] = await rt.db.query<{ stored: number; extracted: number; documents: number; crawls_open: number }>(
          `SELECT count(*) FILTER (WHERE p.content_hash IS NOT NULL)::int AS stored,
                  count(*) FILTER (WHERE e.content_hash = p.content_hash)::int AS extracted,
                  (SELECT count(*)::int FROM search_documents) AS documents,
                  (SELECT count(*)::int FROM crawls WHERE state NOT IN ('finished', 'stopped', 'failed')) AS crawls_open
             FROM pages p LEFT JOIN extractions e ON e.page_id = p.id`,
        );
        if (!row || row.crawls_open > 0 || row.stored !== total || row.extracted !== total || row.documents !== total) return undefined;
        if (!(await isIdle(rt))) return undefined;
        const answer = await fetch(`${apiUrl}/status`, { headers: authorization });
        return answer.status === 200 ? ((await answer.json()) as PipelineStatus) : undefined;
      },
      300_000,
    );

    // No duplicates: one page per URL, one document per page.
    const [dupes] = await rt.db.query<{ urls: number; distinct_urls: number; documents: number; distinct_pages: number }>(
      `SELECT (SELECT count(*)::int FROM pages) AS urls, (SELECT count(DISTINCT url)::int FROM pages) AS distinct_urls,
              (SELECT count(*)::int FROM search_documents) AS documents, (SELECT count(DISTINCT page_id)::int FROM search_documents) AS distinct_pages`,
    );
    assert.equal(dupes?.urls, dupes?.distinct_urls);
    assert.equal(dupes?.documents, total);
    assert.equal(dupes?.distinct_pages, total);
    // Nothing stuck: no URL leased or queued in the frontier, no job waiting or running.
    const [frontier] = await rt.db.query<{ open: number }>("SELECT count(*)::int AS open FROM frontier WHERE state IN ('queued', 'leased')");
    assert.equal(frontier?.open ?? 0, 0);
    // Status tells the truth.
    const [row] = status.sites;
    assert.equal(status.sites.length, 1);
    assert.equal(row?.crawl?.state, 'finished');
    assert.equal(row?.crawl?.counts.failed, 0);
    assert.deepEqual([row?.stored, row?.extracted, row?.indexed], [total, total, total]);
    assert.deepEqual([row?.failedExtract, row?.failedIndex], [0, 0]);
    assert.deepEqual(status.failedJobs, []);
    assert.deepEqual(status.failedPages, []);
    // The reconciler's own run, scheduled every 2 s here, may be waiting or running when /status
    // answers (after the idle check above saw none): one at most, and no other job anywhere.
    for (const [queue, counts] of Object.entries(status.queues)) {
      assert.ok(counts.waiting + counts.active <= (queue === 'reconcile' ? 1 : 0), `queue ${queue}: ${JSON.stringify(counts)}`);
    }
    assert.ok(status.reconciler, 'the reconciler has run and says what it found');

    for (const service of services) service.child.kill('SIGTERM');
    for (const service of services) {
      const code = await exitWithin(service, 30_000);
      assert.equal(code, 0, `${service.name} exited ${code} on SIGTERM: ${service.stderr.join('').slice(-3000)}`);
    }
    passed = true;
  });
});
