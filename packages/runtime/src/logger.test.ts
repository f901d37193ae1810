import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { createLogger } from './logger.js';

test("logs an error's message, code and stack, without the connection pg-pool pins on an idle connection's error", () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger(loadEnv({ WINNOW_LOG_LEVEL: 'info' }), 'probe', sink);
  const error = Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    client: { connectionParameters: { host: '127.0.0.1', port: 5432 }, _queryQueue: [] },
  });
  log.warn({ err: error }, 'the database failed outside a query');
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0] as string) as { name: string; msg: string; err: Record<string, unknown> };
  assert.equal(line.name, 'probe');
  assert.equal(line.msg, 'the database failed outside a query');
  assert.equal(line.err.message, 'terminating connection due to administrator command');
  assert.equal(line.err.code, '57P01');
  assert.match(String(line.err.stack), /^Error: terminating connection/);
  assert.ok(!('client' in line.err), JSON.stringify(line.err));
});
