import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { startRedisCluster, startRedisServer } from '@winnow/queue/testing';
import { openRuntime } from './runtime.js';

// BullMQ closes a queue by quitting its connection, which ioredis holds until Redis answers, and a
// queue whose command waits for Redis (a readiness probe that gave up on it) is parked for good
// once disconnected: a runtime closed during an outage (a test's `finally`, a command's end, a
// worker's SIGTERM after a probe) waited for ever.
test('a runtime closed while Redis is down, with a command waiting for it, closes without waiting for Redis', { timeout: 120_000 }, async () => {
  const redis = await startRedisServer();
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, WINNOW_LOG_LEVEL: 'silent' }));
  try {
    await rt.queues.queue('extract').getJobCounts(); // its connections are open
    await redis.stop();
    const watch = rt.queueSettings.redisWatch;
    while (!watch?.down) await new Promise((resolve) => setTimeout(resolve, 100)); // the outage is seen
    void rt.queues
      .queue('crawl')
      .getJobCounts('waiting')
      .catch(() => 'failed');
    // A minute of slack for a busy machine; a runtime that waits for Redis never closes at all.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      rt.close().then(() => 'closed'),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve('still closing'), 60_000);
      }),
    ]);
    clearTimeout(timer);
    assert.equal(outcome, 'closed');
  } finally {
    await redis.stop();
  }
});

// The cluster's client is shared by every queue and closed with them: the same holds for it.
test('a runtime on a Redis Cluster closed while the cluster is down closes without waiting for it', { timeout: 120_000 }, async () => {
  const cluster = await startRedisCluster(3);
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: cluster.url, WINNOW_REDIS_MODE: 'cluster', WINNOW_LOG_LEVEL: 'silent' }));
  try {
    await rt.queues.queue('extract').getJobCounts();
    await cluster.stop();
    const watch = rt.queueSettings.redisWatch;
    while (!watch?.down) await new Promise((resolve) => setTimeout(resolve, 100));
    void rt.queues
      .queue('crawl')
      .getJobCounts('waiting')
      .catch(() => 'failed');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      rt.close().then(() => 'closed'),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve('still closing'), 60_000);
      }),
    ]);
    clearTimeout(timer);
    assert.equal(outcome, 'closed');
  } finally {
    await cluster.stop();
  }
});
