import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { openRuntime, type Runtime } from '@winnow/runtime';
import { Redis } from 'ioredis';
import { type HostSlot, Politeness } from './politeness.js';

describe('politeness (real Redis)', () => {
  let rt: Runtime;
  let redis: Redis;
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    redis = new Redis({ ...(rt.queueSettings.connection as object), maxRetriesPerRequest: null });
  });
  after(async () => {
    redis.disconnect();
    await rt.close();
  });

  test('a Crawl-delay learnt while another slot waits to start counts from that start, not from now', async () => {
    const politeness = new Politeness(redis, `test-${Date.now()}`, 60_000);
    const pace = { intervalMs: 300, maxInFlight: 8 };
    const firstAsked = Date.now();
    const first = (await politeness.acquire('example.test', pace, 10_000)) as HostSlot;
    // Each waitMs counts from the moment its own grant was made: the time between two grants (at
    // most the time from asking for the first to being granted the second) is added back to compare
    // the starts, so that a process the machine delays between them cannot fail the test.
    const asked = Date.now();
    const waiting = (await politeness.acquire('example.test', pace, 10_000)) as HostSlot;
    const waitingGranted = Date.now();
    const firstApart = waiting.waitMs + (waitingGranted - firstAsked) - first.waitMs;
    assert.ok(firstApart >= 300, `the second slot starts at most ${firstApart} ms after the first`);
    await politeness.delayNext('example.test', 1_000);
    const next = (await politeness.acquire('example.test', { ...pace, intervalMs: 1_000 }, 10_000)) as HostSlot;
    const granted = Date.now();
    const apart = next.waitMs + (granted - asked) - waiting.waitMs;
    assert.ok(apart >= 1_000, `the next start is at most ${apart} ms after the waiting slot's`);
    await Promise.all([first.release(), waiting.release(), next.release()]);
  });

  test('a slot that starts late still starts an interval after the last actual start', async () => {
    const politeness = new Politeness(redis, `test-${Date.now()}-late`, 60_000);
    const pace = { intervalMs: 400, maxInFlight: 8 };
    const first = (await politeness.acquire('example.test', pace, 10_000)) as HostSlot;
    const second = (await politeness.acquire('example.test', pace, 10_000)) as HostSlot;
    // The second holder waits for its grant; the first wakes 300 ms late, so the second must wait
    // on for a whole interval after it. On a busy machine the first's timer may fire after the
    // second's grant: then the second starts first, and the first an interval after it. Either
    // way the two starts are an interval apart.
    const secondStart = second.started().then(() => Date.now());
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.started();
    const firstStart = Date.now();
    const gap = Math.abs((await secondStart) - firstStart);
    // Read on the test's clock when each start's callback runs, which a busy machine may delay by
    // tens of milliseconds; unconfirmed, the second would start about 110 ms after the first.
    assert.ok(gap >= 250, `the two starts came ${gap} ms apart`);
    await Promise.all([first.release(), second.release()]);
  });
});
