import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { serveDemoWeb, type DemoWeb } from '@winnow/demo-corpus';
import { freePort, startRedisServer, type RedisServer } from '@winnow/queue/testing';
import { isIdle, openRuntime, type Runtime } from '@winnow/runtime';
import { createScratchDatabase, type ScratchDatabase } from '@winnow/storage/testing';
import { exitWithin, type RunningService, startService, until } from './testing/serviceProcesses.js';

describe('distributed: every service its own process on real Redis and Postgres', () => {
  let scratch: ScratchDatabase;
  let redis: RedisServer;
  let web: DemoWeb;
  let rt: Runtime;
  let env: NodeJS.ProcessEnv;
  let apiUrl: string;
  const token = randomBytes(24).toString('hex');
  const authorization = { authorization: `Bearer ${token}` };
  const services: RunningService[] = [];

  before(async () => {
    [scratch, redis, web] = await Promise.all([createScratchDatabase(), startRedisServer(), serveDemoWeb(['gazette', 'ledger'], { articles: 150 })]);
    const apiPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    env = {
      ...process.env,
      DATABASE_URL: scratch.url,
      REDIS_URL: redis.url,
      ELASTICSEARCH_URL: '',
      WINNOW_QUEUE_PREFIX: 'distributed',
      WINNOW_JOB_LOCK_MS: '2000',
      WINNOW_JOB_BACKOFF_MS: '200',
      WINNOW_LOG_LEVEL: 'warn',
      WINNOW_API_PORT: String(apiPort),
      WINNOW_API_TOKEN: token,
    };
    for (const [service, label] of [
      ['api', 'api'],
      ['crawler', 'crawler'],
      ['templater', 'templater'],
      ['extractor', 'extractor-1'],
      ['extractor', 'extractor-2'],
      ['indexer', 'indexer'],
    ] as const) {
      services.push(startService(service, env, label));
    }
    rt = await openRuntime(loadEnv(env));
  });

  after(async () => {
    for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await rt?.close();
    await Promise.all([web?.close(), redis?.stop(), scratch?.drop()]);
  });

  test('kill -9 of an extractor mid-run loses no page; SIGTERM stops every service cleanly', async () => {
    await until('the API to be ready', async () => (await fetch(`${apiUrl}/ready`)).status === 200, 120_000);
    for (const site of web.sites) {
      const added = await fetch(`${apiUrl}/sites`, {
        method: 'POST',
        headers: { ...authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: site.name, seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true }),
      });
      assert.equal(added.status, 201);
      assert.equal((await fetch(`${apiUrl}/sites/${site.name}/crawl`, { method: 'POST', headers: authorization })).status, 202);
    }

    const extracted = async () => (await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM extractions'))[0]?.n ?? 0;
    await until('the first extractions', async () => (await extracted()) >= 20, 60_000);
    const victim = services.find((service) => service.name === 'extractor-1') as RunningService;
    victim.child.kill('SIGKILL');
    assert.equal(await victim.exited, -1);

    const stored = web.sites.reduce((sum, site) => sum + site.pages.length, 0);
    await until(
      'every page to end extracted and indexed, or failed',
      async () => {
        const [row] = await rt.db.query<{ stored: number; done: number }>(
          `SELECT count(*)::int AS stored,
                  count(*) FILTER (WHERE (e.content_hash = p.content_hash AND d.doc_id IS NOT NULL) OR f.page_id IS NOT NULL)::int AS done
             FROM pages p LEFT JOIN extractions e ON e.page_id = p.id LEFT JOIN search_documents d ON d.page_id = p.id
             LEFT JOIN page_failures f ON f.page_id = p.id
            WHERE p.content_hash IS NOT NULL`,
        );
        return row && row.stored === stored && row.done === stored && (await isIdle(rt));
      },
      150_000,
    );
    const failures = await rt.db.query<{ error: string }>('SELECT error FROM page_failures');
    assert.deepEqual(failures, [], 'no page failed');
    const [indexed] = await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM search_documents');
    assert.equal(indexed?.n, stored, 'every page indexed once');
    const templated = await rt.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM extractions WHERE method = 'pipeline'`);
    assert.ok((templated[0]?.n ?? 0) > stored * 0.9, 'pages were re-extracted with templates');
    const search = await (await fetch(`${apiUrl}/search?q=${encodeURIComponent('"Winter tyres at half price"')}`, { headers: authorization })).json();
    assert.equal((search as { total: number }).total, 0);

    for (const service of services) if (service !== victim) service.child.kill('SIGTERM');
    for (const service of services) {
      if (service === victim) continue;
      const code = await exitWithin(service, 30_000);
      assert.equal(code, 0, `${service.name} exited ${code} on SIGTERM: ${service.stderr.join('').slice(-2000)}`);
    }
  });
});
