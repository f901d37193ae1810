import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { redisName, RedisWatch } from './redisWatch.js';

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
}

function recorder() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (_fields: object, message: string) => lines.push({ level, message });
  return { lines, log: { warn: at('warn'), info: at('info'), debug: at('debug') } };
}

test('many connections failing again and again: one warning; one line once every one of them is ready again', () => {
  const { lines, log } = recorder();
  const watch = new RedisWatch('Redis at 127.0.0.1:6390', log);
  const client = watch.watch(new EventEmitter());
  const backend = new EventEmitter();
  const queue = watch.watch(Object.assign(new EventEmitter(), { getBackend: () => backend }));
  for (let round = 0; round < 3; round++) {
    client.emit('error', refused());
    queue.emit('error', refused());
  }
  queue.emit('error', new Error('Connection is closed.'));
  assert.deepEqual(
    lines.filter((line) => line.level !== 'debug'),
    [{ level: 'warn', message: 'Redis at 127.0.0.1:6390 unreachable: connect ECONNREFUSED; retrying' }],
  );
  assert.equal(watch.down, true);
  client.emit('ready');
  assert.equal(watch.down, true, 'the queue has not reconnected yet');
  backend.emit('ready');
  assert.equal(watch.down, false);
  queue.emit('error', new Error('Connection is closed.')); // a command cut off before, heard late
  assert.deepEqual(
    lines.filter((line) => line.level !== 'debug'),
    [
      { level: 'warn', message: 'Redis at 127.0.0.1:6390 unreachable: connect ECONNREFUSED; retrying' },
      { level: 'info', message: 'Redis at 127.0.0.1:6390 is back' },
    ],
  );
  client.emit('error', refused());
  assert.equal(lines.filter((line) => line.level === 'warn').length, 2, 'a second outage is told again');
});

test("a command's own error is told as it is, and is no outage", () => {
  const { lines, log } = recorder();
  const watch = new RedisWatch('Redis at h:1', log);
  watch.watch(new EventEmitter()).emit('error', Object.assign(new Error('OOM command not allowed'), { name: 'ReplyError' }));
  assert.deepEqual(lines, [{ level: 'warn', message: 'Redis at h:1: a command failed (OOM command not allowed)' }]);
  assert.equal(watch.down, false);
});

test('a stopping process stops waiting: every connection is dropped once Redis is unreachable, and nothing says it is back', () => {
  const { lines, log } = recorder();
  const watch = new RedisWatch('Redis at h:1', log);
  const dropped: string[] = [];
  const connection = (name: string) => watch.watch(Object.assign(new EventEmitter(), { disconnect: () => dropped.push(name) }));
  const client = connection('client');
  connection('queue');
  watch.stopWaiting();
  assert.deepEqual(dropped, [], 'Redis answers: a stopping process closes its connections the usual way');
  client.emit('error', refused());
  assert.deepEqual(dropped, ['client', 'queue'], 'dropped at once, before the owners close them');
  client.emit('end');
  assert.deepEqual(
    lines.filter((line) => line.level !== 'debug').map((line) => line.message),
    ['Redis at h:1 unreachable while stopping: its connections are dropped; held jobs return to their queues when their locks lapse'],
  );
});

test('stopping while Redis is already unreachable drops the connections at once', () => {
  const { log } = recorder();
  const watch = new RedisWatch('Redis at h:1', log);
  let dropped = 0;
  const client = watch.watch(Object.assign(new EventEmitter(), { disconnect: () => dropped++ }));
  client.emit('error', refused());
  assert.equal(dropped, 0, 'a running process keeps retrying');
  watch.stopWaiting();
  assert.equal(dropped, 1);
});

test('redisName: host and port, never the credentials', () => {
  assert.equal(redisName('redis://user:secret@cache.internal:6380/2'), 'Redis at cache.internal:6380');
  assert.equal(redisName('redis://cache.internal'), 'Redis at cache.internal:6379');
  assert.equal(redisName(undefined), 'the private Redis');
});
