import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type RedisServer, startRedisServer } from '@winnow/queue/testing';

const main = fileURLToPath(new URL('./main.js', import.meta.url));

async function until(done: () => boolean, what: string, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; !done(); ) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A crawler process on `redis`, with its stdout and stderr gathered as one text. */
function startCrawlerProcess(redis: RedisServer) {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, WINNOW_DATA_DIR: 'memory', REDIS_URL: redis.url, ELASTICSEARCH_URL: '', WINNOW_LOG_LEVEL: 'info', WINNOW_QUEUE_PREFIX: 'lost' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = () => output.split('\n').filter((line) => line !== '');
  return {
    child,
    exited,
    output: () => output,
    lines,
    said: (pattern: RegExp) => lines().filter((line) => pattern.test(line)),
    started: () => until(() => output.includes('"msg":"crawler started') || child.exitCode !== null, 'the crawler starts', 60_000),
    /** SIGTERM, then SIGKILL if it has not ended 10 s later (a failed test does not hang). */
    async stop(): Promise<void> {
      if (child.exitCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

// A crawler holds every kind of Redis connection a process makes: the pipeline's queues, a worker
// (its blocking connection too) and a client of its own; each reconnects about every 2 s.
test('while Redis is stopped, a process logs one warning naming it and one line when it is back: no stack traces on stderr', { timeout: 300_000 }, async () => {
  const redis: RedisServer = await startRedisServer();
  const crawler = startCrawlerProcess(redis);
  const { said, lines } = crawler;
  const port = new URL(redis.url).port;
  try {
    await crawler.started();
    assert.equal(crawler.child.exitCode, null, crawler.output());
    await redis.stop();
    await until(() => said(/unreachable/).length > 0, 'the warning', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 7_000)); // three rounds of reconnecting, at least
    await redis.restart();
    await until(() => said(/is back/).length > 0, 'the line saying Redis is back', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // connections that come back later say nothing more

    const output = crawler.output();
    assert.doesNotMatch(output, /TCPConnectWrap|afterConnect|Unhandled error event/, output);
    const unstructured = lines().filter((line) => !line.startsWith('{'));
    assert.deepEqual(unstructured, [], 'every line is a log object');
    assert.deepEqual(
      lines().filter((line) => /ECONNREFUSED|EPIPE|ECONNRESET/.test(line) && /"stack"/.test(line)),
      [],
      'no stack trace in a log object either',
    );
    const warnings = said(/unreachable/).map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.equal(warnings.length, 1, output);
    assert.equal(warnings[0]?.level, 40);
    // The reason is whichever socket error came first: a connection writing as the server went
    // away meets EPIPE or ECONNRESET, one connecting after it meets ECONNREFUSED.
    assert.match(
      warnings[0]?.msg ?? '',
      new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} unreachable: (connect ECONNREFUSED|write EPIPE|(read|write) ECONNRESET); retrying$`),
    );
    const back = said(/is back/).map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.equal(back.length, 1, output);
    assert.equal(back[0]?.level, 30);
    assert.equal(back[0]?.msg, `Redis at 127.0.0.1:${port} is back`);
  } finally {
    await crawler.stop();
    await redis.stop();
  }
});

// BullMQ closes a worker or a queue by quitting its connection, which ioredis holds until Redis
// answers: without `RedisWatch.stopWaiting` this process waited for Redis to come back.
test('a process told to stop while Redis is down stops without waiting for it, and says so', { timeout: 300_000 }, async () => {
  const redis: RedisServer = await startRedisServer();
  const crawler = startCrawlerProcess(redis);
  try {
    await crawler.started();
    await redis.stop();
    await until(() => crawler.said(/unreachable/).length > 0, 'the warning', 20_000);
    crawler.child.kill('SIGTERM');
    // Minutes of slack for a busy machine; a process that waits for Redis never ends at all.
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      crawler.exited.then((code) => ({ code })),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve('still running'), 60_000);
      }),
    ]);
    clearTimeout(timer);
    assert.deepEqual(ended, { code: 0 }, crawler.output());
    assert.equal(crawler.said(/unreachable while stopping: its connections are dropped/).length, 1, crawler.output());
  } finally {
    await crawler.stop();
    await redis.stop();
  }
});
