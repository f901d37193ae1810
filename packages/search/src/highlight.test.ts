import assert from 'node:assert/strict';
import { test } from 'node:test';
import { highlight, matcherFor } from './highlight.js';
import { parseQuery } from './query.js';

test("a query's matcher is built once and serves every hit from the start", () => {
  const query = parseQuery('"tides rose" harbour');
  assert.equal(matcherFor(query), matcherFor(query));
  assert.deepEqual(highlight('At noon the tides rose over the wall.', query), ['At noon the <mark>tides rose</mark> over the wall.']);
  assert.deepEqual(highlight('Tides rose early.', query), ['<mark>Tides rose</mark> early.']);
  assert.deepEqual(highlight('The harbour.', query), ['The <mark>harbour</mark>.']);
});
