import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { startRedisServer } from '@winnow/queue/testing';
import { openRuntime } from './runtime.js';
import { startWorkerPort } from './workerPort.js';

test("a worker's port: /health while it runs, /ready while its engines answer (503 naming the one that does not), /metrics, and nothing else", {
  timeout: 120_000,
}, async () => {
  const redis = await startRedisServer();
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, WINNOW_LOG_LEVEL: 'silent' }));
  const port = await startWorkerPort(rt, '127.0.0.1', 0);
  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`${port.url}${path}`, { method });
    return { status: response.status, body: await response.json() };
  };
  try {
    assert.match(port.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(await get('/health'), { status: 200, body: { status: 'ok' } });
    assert.deepEqual(await get('/ready'), { status: 200, body: { status: 'ready', checks: { database: 'ok', redis: 'ok', search: 'ok' } } });
    rt.metrics.fetches.inc({ outcome: 'stored', reason: 'none' }, 3);
    const metrics = await fetch(`${port.url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await metrics.text(), /^winnow_fetches_total\{outcome="stored",reason="none"\} 3$/m);
    assert.deepEqual(await get('/sites'), {
      status: 404,
      body: { error: 'no route GET /sites: this port serves GET /health, /ready and /metrics', code: 'route-unknown' },
    });
    assert.deepEqual(await get('/ready', 'POST'), { status: 405, body: { error: 'POST /ready is not allowed: use GET', code: 'method-not-allowed' } });
    await redis.stop();
    assert.deepEqual(await get('/ready'), { status: 503, body: { status: 'not ready', checks: { database: 'ok', redis: 'failed', search: 'ok' } } });
    assert.equal((await get('/health')).status, 200, 'the process itself still runs');
  } finally {
    await port.close();
    await rt.close();
    await redis.stop();
  }
});
