import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, recrawlScheduleId, type Runtime, type Service, templateScheduleId } from '@winnow/runtime';
import { closeAll, startWorkers } from './pipeline.js';

const HOUR = 3_600_000;

/** Every site schedule Redis holds, by id, with its interval. */
async function heldSchedules(rt: Runtime): Promise<Record<string, number>> {
  const held: Record<string, number> = {};
  for (const queue of ['template', 'crawl'] as const)
    for (const scheduler of await rt.queues.queue(queue).getJobSchedulers()) held[scheduler.key] = Number(scheduler.every);
  return held;
}

test("the workers' start brings Redis's schedules back to the sites' settings in Postgres: lost, at an old interval, or turned off", async () => {
  const redis: RedisServer = await startRedisServer();
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_LOG_LEVEL: 'silent' }));
  let services: Service[] = [];
  try {
    const seeds = ['http://127.0.0.1:9/'];
    const lost = await addSite(rt, { name: 'lost', seeds, allowPrivateAddresses: true, templateEveryMs: HOUR, recrawlEveryMs: 2 * HOUR });
    const changed = await addSite(rt, { name: 'changed', seeds, allowPrivateAddresses: true, templateEveryMs: 3 * HOUR, recrawlEveryMs: 0 });
    // Redis comes back empty; then it holds what changes that never reached it left: the changed
    // site's template schedule at its old interval, and a recrawl schedule the site no longer has.
    await redis.restart();
    await rt.queues
      .queue('template')
      .upsertJobScheduler(templateScheduleId(changed.id), { every: HOUR }, { name: 'template', data: { siteId: changed.id, reason: 'schedule' } });
    await rt.queues
      .queue('crawl')
      .upsertJobScheduler(recrawlScheduleId(changed.id), { every: HOUR }, { name: 'crawl', data: { siteId: changed.id, reason: 'schedule' } });

    services = await startWorkers(rt);
    const wanted = {
      [templateScheduleId(lost.id)]: HOUR,
      [recrawlScheduleId(lost.id)]: 2 * HOUR,
      [templateScheduleId(changed.id)]: 3 * HOUR,
    };
    const inStep = (held: Record<string, number>) =>
      Object.keys(held).length === Object.keys(wanted).length && Object.entries(wanted).every(([id, every]) => held[id] === every);
    for (let i = 0; ; i++) {
      const held = await heldSchedules(rt);
      if (inStep(held)) break;
      assert.ok(i < 600, `the schedules Redis holds, ${JSON.stringify(held)}, became ${JSON.stringify(wanted)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await closeAll(services);
    await rt.close();
    await redis.stop();
  }
});
