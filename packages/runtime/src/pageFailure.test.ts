import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { pino } from 'pino';
import type { Runtime } from './runtime.js';
import { keepPageFailure } from './service.js';

test('a page job that failed for good is recorded and logged once, at error, with its stage, its attempts and the reason', async () => {
  const lines: { level: number; msg: string; stage?: string; attempts?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const recorded: unknown[][] = [];
  // The runtime's parts it uses: the log, the retry setting, and a database that records the failure.
  const rt = {
    env: loadEnv({}),
    log: pino({ level: 'info' }, stream),
    db: {
      query: async (_sql: string, params: unknown[]) => {
        recorded.push(params);
        return [];
      },
    },
  } as unknown as Runtime;
  await keepPageFailure(rt, 'extract')({ pageId: 42 }, new Error('its body is missing from the body store'), 3);
  await keepPageFailure(rt, 'index')({ pageId: 'not-a-page' }, new Error('pageId: expected a number'), 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(recorded, [[42, 'extract', 'its body is missing from the body store', 3]], 'the page kept with its error, for status');
  assert.deepEqual(
    lines.map(({ level, msg, stage, attempts }) => [level, msg, stage, attempts]),
    [
      [50, 'extract of page 42 failed for good after 3 attempts: its body is missing from the body store', 'extract', 3],
      [50, 'index of a page failed for good after 1 attempt: pageId: expected a number', 'index', 1],
    ],
  );
});
