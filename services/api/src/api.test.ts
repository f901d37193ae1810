import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, type Runtime } from '@winnow/runtime';
import { documentIdFor } from '@winnow/search';
import { startApi, type ApiService } from './index.js';

describe('the HTTP API', () => {
  let rt: Runtime;
  let api: ApiService;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    api = await startApi(rt, 0, '127.0.0.1');
    await addSite(rt, { name: 'news', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0 });
    const [site] = await rt.db.query<{ id: number }>(`SELECT id FROM sites WHERE name = 'news'`);
    const documents = Array.from({ length: 25 }, (_, i) => ({
      url: `http://127.0.0.1:9/${i}.html`,
      title: `Story ${i}`,
      mainText: i % 2 === 0 ? `The harbour master <b> spoke at noon.\nTides rose by ${i} feet.` : `Nothing about ports here, story ${i}.`,
    }));
    for (const [i, doc] of documents.entries()) {
      await rt.db.query(`INSERT INTO pages (id, site_id, url) VALUES ($1, $2, $3)`, [i + 1, site?.id, doc.url]);
    }
    await rt.search.upsert(documents.map((doc, i) => ({ ...doc, docId: documentIdFor(doc.url), pageId: i + 1, site: 'news', templateVersion: 1, extractedAt: new Date() })));
  });
  after(async () => {
    await api.close();
    await rt.close();
  });

  test('health and readiness', async () => {
    assert.deepEqual(await call('GET', '/health'), { status: 200, body: { status: 'ok' } });
    const ready = await call('GET', '/ready');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks, { database: 'ok', redis: 'ok', search: 'ok' });
  });

  test('sites: create, read, replace, delete; bad bodies get 400 with the reason', async () => {
    const created = await call('POST', '/sites', { name: 'blog', seeds: ['http://127.0.0.1:9/blog/'], maxPages: 50 });
    assert.equal(created.status, 201);
    assert.equal(created.body.site.config.maxPages, 50);
    assert.equal((await call('POST', '/sites', { name: 'blog', seeds: ['http://127.0.0.1:9/'] })).status, 409);
    const malformed = await call('POST', '/sites', { name: 'x', seeds: ['ftp//nope'] });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.error, /seeds\.0: must be an absolute http\(s\) URL/);
    const unknownField = await call('POST', '/sites', { name: 'y', seeds: ['http://127.0.0.1:9/'], maxPagez: 3 });
    assert.equal(unknownField.status, 400);
    assert.match(unknownField.body.error, /maxPagez/);
    assert.equal((await call('POST', '/sites', '{"name": ')).status, 400);
    const replaced = await call('PUT', '/sites/blog', { seeds: ['http://127.0.0.1:9/other/'], maxDepth: 2 });
    assert.equal(replaced.status, 200);
    assert.deepEqual(replaced.body.site.config.seeds, ['http://127.0.0.1:9/other/']);
    assert.equal((await call('DELETE', '/sites/blog')).status, 204);
    assert.equal((await call('GET', '/sites/blog')).status, 404);
  });

  test('an unknown site is a 404 everywhere', async () => {
    for (const [method, path] of [['GET', '/sites/nosuch'], ['POST', '/sites/nosuch/crawl'], ['POST', '/sites/nosuch/crawl/stop'], ['POST', '/sites/nosuch/templates'], ['DELETE', '/sites/nosuch'], ['GET', '/search?q=harbour&site=nosuch']] as const) {
      const response = await call(method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.match(response.body.error, /no site named "nosuch"/);
    }
  });

  test('crawl start is accepted once; a second while the first is queued conflicts', async () => {
    const first = await call('POST', '/sites/news/crawl');
    assert.equal(first.status, 202);
    assert.equal(first.body.crawl.state, 'queued');
    assert.equal((await call('POST', '/sites/news/crawl')).status, 409);
    assert.equal((await call('GET', '/sites/news/crawl')).body.crawl.id, first.body.crawl.id);
    assert.equal((await call('POST', '/sites/news/crawl/stop')).body.crawl.state, 'stopping');
  });

  test('search: exact phrase, highlights, site filter, pagination', async () => {
    const phrase = await call('GET', `/search?q=${encodeURIComponent('"noon tides rose"')}&size=5`);
    assert.equal(phrase.status, 200);
    assert.equal(phrase.body.total, 13, 'the phrase crosses the line between two blocks');
    assert.equal(phrase.body.hits.length, 5);
    assert.match(phrase.body.hits[0].highlights[0], /<mark>noon\.\nTides rose<\/mark>|<mark>noon\. Tides rose<\/mark>/);
    assert.match(phrase.body.hits[0].highlights[0], /&#60;b&#62;/, 'text is HTML-escaped');
    const last = await call('GET', `/search?q=${encodeURIComponent('"noon tides rose"')}&size=5&page=3`);
    assert.equal(last.body.hits.length, 3);
    const seen = new Set([...phrase.body.hits, ...last.body.hits].map((hit: { url: string }) => hit.url));
    assert.equal(seen.size, 8, 'pages do not overlap');
    assert.equal((await call('GET', `/search?q=${encodeURIComponent('"tides noon"')}`)).body.total, 0, 'order matters in a phrase');
    assert.equal((await call('GET', '/search?q=harbour%20ports')).body.total, 0, 'terms must all occur');
    assert.equal((await call('GET', '/search?q=harbour&site=news')).body.total, 13);
  });

  test('bad search requests get 400 with the reason', async () => {
    for (const [path, reason] of [
      ['/search', /no words/],
      ['/search?q=%22unclosed', /unclosed quote/],
      ['/search?q=%22%22', /quoted phrase has no words/],
      [`/search?q=${'a'.repeat(600)}`, /at most 500/],
      ['/search?q=x&size=1000', /size must be/],
      ['/search?q=x&page=0', /page must be/],
      ['/search?q=x&page=abc', /page must be a positive integer/],
      ['/search?q=a&q=b', /must be a string/],
    ] as const) {
      const response = await call('GET', path);
      assert.equal(response.status, 400, path);
      assert.match(response.body.error, reason, path);
    }
  });

  test('status reports sites and queues', async () => {
    const status = await call('GET', '/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.sites.find((site: { site: string }) => site.site === 'news').indexed, 25);
    assert.ok('extract' in status.body.queues);
  });
});
