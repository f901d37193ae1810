import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { type Env, loadEnv } from '@winnow/config';
import { QUEUE_NAMES } from '@winnow/queue';
import { startRedisCluster, startRedisServer } from '@winnow/queue/testing';
import { openRuntime, type Runtime } from './runtime.js';

/**
 * Opens a runtime on `env`, takes its Redis down (`stopRedis`), leaves a command waiting for it,
 * and says whether `close()` ended within a minute of the outage being seen: 'closed', 'still
 * closing', or 'outage never seen'. The command goes first: an idle cluster client only learns of
 * an outage by talking, because a node it never connected to (ioredis connects to nodes lazily)
 * has no connection to lose, and the client stays "ready" until a command needs that node.
 */
async function closeDuringOutage(env: Env, stopRedis: () => Promise<void>): Promise<string> {
  const rt = await openRuntime(env);
  await rt.queues.queue('extract').getJobCounts(); // its connections are open
  await stopRedis();
  void rt.queues
    .queue('crawl')
    .getJobCounts('waiting')
    .catch(() => 'failed');
  // A minute of slack for a busy machine at each step; a runtime that waits for Redis never closes at all.
  const watch = rt.queueSettings.redisWatch;
  for (let waited = 0; !watch?.down; waited += 100) {
    if (waited >= 60_000) {
      dropConnections(rt);
      return 'outage never seen';
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    rt.close().then(() => 'closed'),
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('still closing'), 60_000);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === 'still closing') dropConnections(rt);
  return outcome;
}

/**
 * Ends a runtime whose outage was never seen, or whose close is stuck, without waiting for Redis:
 * the shared cluster client and each queue's connection are disconnected, not quit, and nothing
 * waits for them to end (a connection already waiting to reconnect never says it ended), so that a
 * failed test cannot leave its file's process running for ever, and the runner waiting with it.
 */
function dropConnections(rt: Runtime): void {
  const shared = rt.queueSettings.connection;
  if (shared instanceof EventEmitter) (shared as unknown as { disconnect(): void }).disconnect();
  for (const name of QUEUE_NAMES)
    void rt.queues
      .queue(name)
      .disconnect()
      .catch(() => undefined);
  void rt.close().catch(() => undefined);
}

// BullMQ closes a queue by quitting its connection, which ioredis holds until Redis answers, and a
// queue whose command waits for Redis (a readiness probe that gave up on it) is parked for good
// once disconnected: a runtime closed during an outage (a test's `finally`, a command's end, a
// worker's SIGTERM after a probe) waited for ever.
test('a runtime closed while Redis is down, with a command waiting for it, closes without waiting for Redis', { timeout: 120_000 }, async () => {
  const redis = await startRedisServer();
  try {
    const env = loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, WINNOW_LOG_LEVEL: 'silent' });
    assert.equal(await closeDuringOutage(env, () => redis.stop()), 'closed');
  } finally {
    await redis.stop();
  }
});

// The cluster's client is shared by every queue and closed with them: the same holds for it.
test('a runtime on a Redis Cluster closed while the cluster is down closes without waiting for it', { timeout: 150_000 }, async () => {
  const cluster = await startRedisCluster(3);
  try {
    const env = loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: cluster.url, WINNOW_REDIS_MODE: 'cluster', WINNOW_LOG_LEVEL: 'silent' });
    assert.equal(await closeDuringOutage(env, () => cluster.stop()), 'closed');
  } finally {
    await cluster.stop();
  }
});
