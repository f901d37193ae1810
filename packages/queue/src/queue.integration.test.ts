import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { parseJobPayload } from './contracts.js';
import { PipelineQueues, startWorker, type QueueSettings } from './queues.js';
import { startPrivateRedis, RedisUnavailableError, waitForRedis } from './redis.js';
import { freePort, startRedisServer } from './testing/index.js';

const redis = await startPrivateRedis();
after(() => redis.stop());
const settings: QueueSettings = { connection: redis.options, prefix: 'test', attempts: 2, backoffMs: 10, lockMs: 5000 };

test('job contracts name what is wrong with a payload', () => {
  assert.deepEqual(parseJobPayload('extract', { pageId: 3 }), { pageId: 3 });
  assert.throws(() => parseJobPayload('extract', { pageId: 'three' }), /invalid extract job payload.*pageId/);
  assert.throws(() => parseJobPayload('index', { pageId: 1, html: '<p>' }), /invalid index job payload.*html/);
});

test('an invalid payload fails its job at once, visibly, and the worker goes on', async () => {
  const queues = new PipelineQueues(settings);
  const handled: number[] = [];
  const worker = startWorker(settings, 'index', async ({ pageId }) => void handled.push(pageId));
  try {
    // Bypass the contract the way a foreign producer could.
    const raw = new Queue('index', { connection: redis.options, prefix: 'test' });
    await raw.add('index', { pageId: 'not a number' }, { attempts: 3 });
    await raw.close();
    await queues.add('index', { pageId: 7 });
    await assert.rejects(queues.add('index', { pageId: -1 } as never), /invalid index job payload/);
    for (let i = 0; i < 1200 && (handled.length === 0 || (await queues.counts()).index.failed === 0); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(handled, [7]);
    const failed = await queues.failedJobs();
    assert.equal(failed.length, 1);
    assert.match(failed[0]?.error ?? '', /invalid index job payload.*pageId/);
    assert.equal(failed[0]?.attempts, 1, 'not retried: retrying cannot fix a payload');
  } finally {
    await worker.close();
    await queues.close();
  }
});

test('a private redis-server ends with the process that started it, even one killed with SIGKILL', { skip: process.platform !== 'linux' }, async () => {
  const starter = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { startPrivateRedis } = await import(${JSON.stringify(new URL('./redis.js', import.meta.url).href)}); const redis = await startPrivateRedis(); console.log(redis.options.path); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(createInterface({ input: starter.stdout as Readable }), 'line')) as [string];
  const answers = async () => {
    const client = new Redis({ path: line, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      if (client.status !== 'end') client.disconnect();
    }
  };
  assert.equal(await answers(), true);
  starter.kill('SIGKILL');
  await once(starter, 'exit');
  let alive = true;
  for (let attempt = 0; alive && attempt < 100; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    alive = await answers();
  }
  assert.equal(alive, false, 'the orphaned redis-server still answers 10 s after its parent was killed');
});

test('a missing redis-server binary is reported clearly', async () => {
  await assert.rejects(
    startPrivateRedis('/nonexistent/redis-server'),
    (error: Error) => error instanceof RedisUnavailableError && /was not found: install Redis/.test(error.message),
  );
});

test('waitForRedis returns once a server answers, and names one that never does after its wait', async () => {
  const server = await startRedisServer();
  try {
    await waitForRedis(server.url, 0);
  } finally {
    await server.stop();
  }
  const retries: string[] = [];
  const url = `redis://:secret@127.0.0.1:${await freePort()}`;
  await assert.rejects(
    waitForRedis(url, 1_500, (reason) => retries.push(reason)),
    (error: Error) =>
      error instanceof RedisUnavailableError &&
      /^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(REDIS_URL\) cannot be reached: connect ECONNREFUSED/.test(error.message),
  );
  assert.equal(retries.length, 1, 'one warning while it waits, not one per attempt');
  await assert.rejects(waitForRedis(`redis://secret@127.0.0.1:${await freePort()}`, 0), (error: Error) =>
    /^Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ /.test(error.message),
  );
});

test('a probe that could not connect leaves no timer behind: an embedded command exits as soon as its work is done', async () => {
  // In a process of its own, so that no other test's timers are counted: after the failed probe the
  // process holds no timer (disconnecting a client whose connect had failed used to arm ioredis's 2 s
  // timer for its socket, which kept every embedded command alive 2 s).
  const probe = `
    import { waitForRedis } from ${JSON.stringify(new URL('./redis.js', import.meta.url).href)};
    await waitForRedis('redis://127.0.0.1:${await freePort()}', 0).catch((error) => console.log(error.name));
    console.log(JSON.stringify(process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout')));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', probe], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await once(child, 'exit');
  assert.deepEqual(output.trim().split('\n'), ['RedisUnavailableError', '[]']);
});

test('waitForRedis fails at once on a server that refuses it (a password is needed): waiting cannot fix that', async () => {
  const server = await startRedisServer();
  const admin = new Redis(server.url);
  try {
    await admin.config('SET', 'requirepass', 'secret');
    const retries: string[] = [];
    await assert.rejects(
      waitForRedis(server.url, 60_000, (reason) => retries.push(reason)),
      (error: Error) => error instanceof RedisUnavailableError && /\(REDIS_URL\) refused the connection: NOAUTH/.test(error.message),
    );
    assert.deepEqual(retries, []);
    await waitForRedis(server.url.replace('redis://', 'redis://:secret@'), 0);
  } finally {
    admin.disconnect();
    await server.stop();
  }
});
