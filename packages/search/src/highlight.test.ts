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

test('a phrase found only across an interruption is marked from its first word to its last; one found as written is marked alone', () => {
  const text = 'The tides rose\nPhoto: AP\nover the wall.\nLater the tides rose over the wall.';
  assert.deepEqual(highlight(text, parseQuery('"tides rose over the wall"')), [
    'The tides rose Photo: AP over the wall. Later the <mark>tides rose over the wall</mark>.',
  ]);
  assert.deepEqual(highlight(text.split('\nLater')[0] as string, parseQuery('"tides rose over the wall"')), [
    'The <mark>tides rose Photo: AP over the wall</mark>.',
  ]);
});
