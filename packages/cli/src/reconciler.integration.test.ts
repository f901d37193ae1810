import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { type GeneratedSite, serveGeneratedSite } from '@winnow/crawler/testing';
import { type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, pipelineStatus, reconcile, type Runtime, type Service, startCrawl, templateScheduleId, waitForIdle } from '@winnow/runtime';
import { indexableVersions } from '@winnow/storage';
import { createScratchDatabase, type ScratchDatabase } from '@winnow/storage/testing';
import { closeAll, startWorkers } from './pipeline.js';

async function pageIdOf(rt: Runtime, url: string): Promise<number> {
  const [row] = await rt.db.query<{ id: number }>('SELECT id FROM pages WHERE url = $1', [url]);
  assert.ok(row, url);
  return row.id;
}

async function findingsCounted(rt: Runtime): Promise<Record<string, number>> {
  const metric = await rt.metrics.reconcilerFindings.get();
  return Object.fromEntries(metric.values.map((value) => [String(value.labels.kind), value.value]));
}

describe('the reconciler of a service deployment (real Redis, a Postgres database of its own)', () => {
  let scratch: ScratchDatabase;
  let redis: RedisServer;
  let site: GeneratedSite;
  let rt: Runtime;
  let services: Service[] = [];
  before(async () => {
    [scratch, redis, site] = await Promise.all([createScratchDatabase(), startRedisServer(), serveGeneratedSite({ pages: 30, shape: 'listings' })]);
    rt = await openRuntime(loadEnv({ DATABASE_URL: scratch.url, REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_LOG_LEVEL: 'silent' }));
  });
  after(async () => {
    await closeAll(services);
    await rt?.close();
    await Promise.all([site?.close(), redis?.stop(), scratch?.drop()]);
  });

  test('lost extractions, documents and schedules are found, queued within the limit, shown by status and counted; work in flight is not a finding', async () => {
    services = await startWorkers(rt);
    const { id: siteId } = await addSite(rt, { name: 'rec', seeds: [`${site.origin}/`], templateEveryMs: 3_600_000, allowPrivateAddresses: true });
    await startCrawl(rt, 'rec');
    await waitForIdle(rt);
    await closeAll(services);
    assert.equal(await rt.search.count('rec'), site.paths.length);

    // What a deployment loses to outages and a Redis without its data: documents never written, an
    // extraction never made, a document written from an older extraction, the removal of a withdrawn
    // page's document, and the site's schedules with everything else in Redis.
    const unindexed = await Promise.all(['/articles/1.html', '/articles/2.html', '/articles/3.html'].map((path) => pageIdOf(rt, `${site.origin}${path}`)));
    await rt.search.removePages(unindexed);
    const unextracted = await pageIdOf(rt, `${site.origin}/articles/4.html`);
    await rt.db.query('DELETE FROM extractions WHERE page_id = $1', [unextracted]);
    await rt.search.removePages([unextracted]);
    const stale = await pageIdOf(rt, `${site.origin}/articles/5.html`);
    await rt.db.query("UPDATE extractions SET extracted_at = extracted_at + interval '1 second' WHERE page_id = $1", [stale]);
    const withdrawn = await pageIdOf(rt, `${site.origin}/articles/6.html`);
    await rt.db.query('UPDATE pages SET content_hash = NULL WHERE id = $1', [withdrawn]);
    await redis.restart();
    assert.equal(await rt.queues.queue('template').getJobScheduler(templateScheduleId(siteId)), undefined);

    const before = await findingsCounted(rt);
    const first = await reconcile(rt, 'schedule', 2);
    assert.deepEqual(first.findings, {
      unextracted: { found: 1, queued: 1 },
      unindexed: { found: 3, queued: 2 },
      'stale-document': { found: 1, queued: 1 },
      'orphan-document': { found: 1, queued: 1 },
      schedule: { found: 1, queued: 1 },
    });
    assert.ok(await rt.queues.queue('template').getJobScheduler(templateScheduleId(siteId)), 'the template schedule is back, from Postgres');
    // Nothing has run the jobs queued: they are in flight, not found again; the one over the limit is.
    const second = await reconcile(rt, 'schedule', 2);
    assert.deepEqual(second.findings, {
      unextracted: { found: 0, queued: 0 },
      unindexed: { found: 1, queued: 1 },
      'stale-document': { found: 0, queued: 0 },
      'orphan-document': { found: 0, queued: 0 },
      schedule: { found: 0, queued: 0 },
    });
    const counted = await findingsCounted(rt);
    const added = (kind: string) => (counted[kind] ?? 0) - (before[kind] ?? 0);
    assert.deepEqual(['unextracted', 'unindexed', 'stale-document', 'orphan-document', 'schedule'].map(added), [1, 4, 1, 1, 1]);
    const status = await pipelineStatus(rt);
    assert.deepEqual(status.reconciler?.findings, second.findings, 'status shows the latest run');

    services = await startWorkers(rt);
    await waitForIdle(rt);
    const held = await rt.search.documentVersions();
    assert.deepEqual(held, await indexableVersions(rt.db), 'every document is there, from the current extraction, and no other');
    for (const pageId of [...unindexed, unextracted, stale]) assert.ok(held.has(pageId), `page ${pageId} indexed`);
    assert.equal(held.has(withdrawn), false);
    const [failures] = await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM page_failures');
    assert.equal(failures?.n, 0);
    // The workers' start ran the reconciler: with everything in step, it found nothing.
    const latest = (await pipelineStatus(rt)).reconciler;
    assert.equal(latest?.reason, 'start');
    await closeAll(services);
    services = [];
  });
});
