import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { freePort, type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { addSite, openRuntime, type Runtime } from '@winnow/runtime';
import { ElasticsearchIndex } from '@winnow/search';
import { type PostgresServer, startPostgresServer } from '@winnow/storage/testing';
import type { FastifyInstance } from 'fastify';
import { buildApi } from './index.js';

const TOKEN = randomBytes(24).toString('hex');

/** A GET through `app.inject`, with the API's own Host and an operator's token. */
async function get(app: FastifyInstance, path: string): Promise<{ status: number; body: unknown; retryAfter: unknown }> {
  const response = await app.inject({ method: 'GET', url: path, headers: { host: 'localhost:8080', authorization: `Bearer ${TOKEN}` } });
  return { status: response.statusCode, body: response.json(), retryAfter: response.headers['retry-after'] };
}

/** Each of `paths` answers 503 with `error` in the API's one error shape, and asks to be tried again in 5 s. */
async function assertUnavailable(app: FastifyInstance, paths: readonly string[], error: string): Promise<void> {
  for (const path of paths) {
    const answer = await get(app, path);
    assert.equal(answer.status, 503, `${path}: ${JSON.stringify(answer.body)}`);
    assert.deepEqual(answer.body, { error, code: 'unavailable' }, path);
    assert.equal(answer.retryAfter, '5');
  }
}

describe('while an engine is down, the reads that need it answer 503 naming it, in the one error shape', () => {
  test('Postgres stopped (its own server): 503 naming the database, then 200 once it is back', async () => {
    const postgres: PostgresServer = await startPostgresServer();
    const rt = await openRuntime(loadEnv({ DATABASE_URL: postgres.url, ELASTICSEARCH_URL: '', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: TOKEN }));
    const app = buildApi(rt);
    try {
      await addSite(rt, { name: 'harbour', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true });
      await postgres.stop();
      await assertUnavailable(app, ['/status', '/search?q=harbour'], 'the database (Postgres, DATABASE_URL) cannot be reached now; try again');
      await postgres.start();
      assert.equal((await get(app, '/status')).status, 200);
      assert.equal((await get(app, '/search?q=harbour')).status, 200);
    } finally {
      await app.close();
      await rt.close();
      await postgres.destroy();
    }
  });

  // The limit only turns a hang (the failure this test is for) into a failed test; an answer comes within seconds.
  test('while Redis is stopped, reads that need it answer 503 naming Redis instead of hanging, and 200 once it is back', { timeout: 120_000 }, async () => {
    const redis: RedisServer = await startRedisServer();
    const rt = await openRuntime(
      loadEnv({ WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: TOKEN }),
    );
    const app = buildApi(rt);
    try {
      await addSite(rt, { name: 'harbour', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true });
      assert.equal((await get(app, '/status')).status, 200);
      await redis.stop();
      await assertUnavailable(app, ['/status', '/status/idle'], 'Redis (REDIS_URL) cannot be reached now; try again');
      assert.equal((await get(app, '/sites')).status, 200, 'a read that needs only Postgres still answers');
      await redis.restart();
      for (let i = 0; (await get(app, '/ready')).status !== 200; i++) assert.ok(i < 600, 'the API found Redis again');
      const back = await get(app, '/status');
      assert.equal(back.status, 200, JSON.stringify(back.body));
    } finally {
      await app.close();
      await rt.close();
      await redis.stop();
    }
  });

  describe('Elasticsearch that cannot be reached (nothing listens on its port)', () => {
    let rt: Runtime;
    let es: ElasticsearchIndex;
    let app: FastifyInstance;
    before(async () => {
      rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: TOKEN }));
      await addSite(rt, { name: 'harbour', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true });
      es = new ElasticsearchIndex({ url: `http://127.0.0.1:${await freePort()}`, retryForMs: 0 });
      app = buildApi({ ...rt, search: es });
    });
    after(async () => {
      await app?.close();
      await es?.close();
      await rt?.close();
    });

    test('503 naming the search index', async () => {
      await assertUnavailable(app, ['/status', '/search?q=harbour'], 'the search index (Elasticsearch, ELASTICSEARCH_URL) cannot be reached now; try again');
    });
  });
});
