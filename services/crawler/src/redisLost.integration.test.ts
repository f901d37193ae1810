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

// A crawler holds every kind of Redis connection a process makes: the pipeline's queues, a worker
// (its blocking connection too) and a client of its own; each reconnects about every 2 s.
test('while Redis is stopped, a process logs one warning naming it and one line when it is back: no stack traces on stderr', { timeout: 120_000 }, async () => {
  const redis: RedisServer = await startRedisServer();
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
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = () => output.split('\n').filter((line) => line !== '');
  const said = (pattern: RegExp) => lines().filter((line) => pattern.test(line));
  const port = new URL(redis.url).port;
  try {
    await until(() => output.includes('"msg":"crawler started') || child.exitCode !== null, 'the crawler starts', 60_000);
    assert.equal(child.exitCode, null, output);
    await redis.stop();
    await until(() => said(/unreachable/).length > 0, 'the warning', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 7_000)); // three rounds of reconnecting, at least
    await redis.restart();
    await until(() => said(/is back/).length > 0, 'the line saying Redis is back', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // connections that come back later say nothing more

    assert.doesNotMatch(output, /TCPConnectWrap|afterConnect|Unhandled error event/, output);
    const unstructured = lines().filter((line) => !line.startsWith('{'));
    assert.deepEqual(unstructured, [], 'every line is a log object');
    assert.deepEqual(
      lines().filter((line) => /ECONNREFUSED/.test(line) && /"stack"/.test(line)),
      [],
      'no stack trace in a log object either',
    );
    const warnings = said(/unreachable/).map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.equal(warnings.length, 1, output);
    assert.equal(warnings[0]?.level, 40);
    assert.equal(warnings[0]?.msg, `Redis at 127.0.0.1:${port} unreachable: connect ECONNREFUSED; retrying`);
    const back = said(/is back/).map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.equal(back.length, 1, output);
    assert.equal(back[0]?.level, 30);
    assert.equal(back[0]?.msg, `Redis at 127.0.0.1:${port} is back`);
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    // A crawler closes its queues only on a Redis that answers: a failed test does not wait for that.
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    await redis.stop();
  }
});
