import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { startRedisServer } from '@winnow/queue/testing';
import { startHealthServer } from './health.js';
import { openRuntime } from './runtime.js';

test("a worker's probe port: /health while it runs, /ready while its engines answer, 503 naming the one that does not", async () => {
  const redis = await startRedisServer();
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, WINNOW_LOG_LEVEL: 'silent' }));
  const health = await startHealthServer(rt, '127.0.0.1', 0);
  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`http://127.0.0.1:${health.port}${path}`, { method });
    return { status: response.status, body: await response.json() };
  };
  try {
    assert.deepEqual(await get('/health'), { status: 200, body: { status: 'ok' } });
    assert.deepEqual(await get('/ready'), { status: 200, body: { status: 'ready', checks: { database: 'ok', redis: 'ok', search: 'ok' } } });
    assert.equal((await get('/sites')).status, 404, 'nothing else is served');
    assert.equal((await get('/ready', 'POST')).status, 405);
    await redis.stop();
    assert.deepEqual(await get('/ready'), { status: 503, body: { status: 'not ready', checks: { database: 'ok', redis: 'failed', search: 'ok' } } });
    assert.equal((await get('/health')).status, 200, 'the process itself still runs');
    await redis.restart(); // the runtime's queues close only on a Redis that answers
  } finally {
    await health.close();
    await rt.close();
    await redis.stop();
  }
});
