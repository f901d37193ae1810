import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureReason } from './errors.js';

test('failureReason reads the parts of an AggregateError, whose own message is empty (a refused dual-stack connect to localhost)', () => {
  const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
  const both = Object.assign(new AggregateError([refused('::1:6379'), refused('127.0.0.1:6379')]), { code: 'ECONNREFUSED' });
  assert.equal(both.message, '');
  assert.equal(failureReason(both), 'connect ECONNREFUSED ::1:6379; connect ECONNREFUSED 127.0.0.1:6379');
  assert.equal(failureReason(Object.assign(new AggregateError([]), { code: 'ETIMEDOUT' })), 'ETIMEDOUT');
  assert.equal(failureReason(new Error('plain')), 'plain');
  assert.equal(failureReason('a string'), 'a string');
});
