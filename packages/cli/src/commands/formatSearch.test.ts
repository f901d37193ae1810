import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSearch } from './operate.js';

const hit = {
  docId: 'd',
  url: 'http://news.test/a',
  site: 'news',
  title: 'A story',
  pageTitle: 'A story | News',
  score: 1,
  highlights: ['the <mark>harbour</mark> reopened'],
};

test('a hit standing for other URLs names them, and how many it leaves out', () => {
  const printed = formatSearch(
    'harbour',
    {
      total: 1,
      totalRelation: 'eq',
      page: 1,
      size: 10,
      hits: [{ ...hit, alsoAt: ['http://news.test/a?ref=rss', 'http://news.test/print/a'], alsoAtTotal: 5 }],
    },
    false,
  );
  assert.match(
    printed,
    /\n {2}http:\/\/news\.test\/a\n {2}also at http:\/\/news\.test\/a\?ref=rss, http:\/\/news\.test\/print\/a and 3 more\n {2}the «harbour» reopened\n/,
  );
});

test('a hit standing for no other URL prints no such line', () => {
  const printed = formatSearch('harbour', { total: 1, totalRelation: 'eq', page: 1, size: 10, hits: [{ ...hit, alsoAt: [], alsoAtTotal: 0 }] }, false);
  assert.doesNotMatch(printed, /also at/);
});

test('a count that stopped at the paging window says there are more', () => {
  const result = { total: 10_000, page: 1, size: 10, hits: [] };
  assert.match(formatSearch('harbour', { ...result, totalRelation: 'gte' }, false), /^10000 or more pages match harbour\n/);
  assert.match(formatSearch('harbour', { ...result, totalRelation: 'eq' }, false), /^10000 pages match harbour\n/);
});
