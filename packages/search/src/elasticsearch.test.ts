import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndex } from './elasticsearchIndex.js';
import { parseQuery } from './query.js';
import { documentIdFor, type IndexDocument } from './searchIndex.js';
import { elasticsearchForTests, type LocalElasticsearch } from './testing/localElasticsearch.js';

const doc = (url: string, mainText: string, extractedAt = new Date('2026-11-01T00:00:00Z'), site = 'news'): IndexDocument => ({
  docId: documentIdFor(url),
  pageId: 1,
  site,
  url,
  title: `Title of ${url}`,
  mainText,
  templateVersion: 1,
  extractedAt,
});

describe('the Elasticsearch index (a real node)', () => {
  let cluster: LocalElasticsearch;
  let index: ElasticsearchIndex;
  let client: Client;
  const alias = `winnow-test-${randomBytes(4).toString('hex')}`;
  const search = async (q: string, site?: string, offset = 0, limit = 10) => index.search({ query: parseQuery(q), site, offset, limit });

  before(async () => {
    cluster = await elasticsearchForTests();
    index = new ElasticsearchIndex({ url: cluster.url, alias, retryForMs: 5000 });
    client = new Client({ node: cluster.url });
    await index.ensureReady();
    await index.ensureReady(); // idempotent
    await index.upsert([
      doc('http://a.test/1', 'The harbour master spoke at noon.\nTides rose by six feet.'),
      doc('http://a.test/2', 'Noon came. The harbour was quiet and the master slept.'),
      doc('http://b.test/1', 'The harbour master spoke at noon, said the mayor.', undefined, 'other'),
    ]);
    await index.refresh();
  });
  after(async () => {
    await client.indices.delete({ index: `${alias}-v1` }).catch(() => undefined);
    await client.close();
    await index.close();
    await cluster.stop();
  });

  test('writes go through an alias to an index mapped for phrases', async () => {
    const aliases = await client.indices.getAlias({ name: alias });
    assert.deepEqual(Object.keys(aliases), [`${alias}-v1`]);
    const mapping = await client.indices.getMapping({ index: alias });
    const mainText = mapping[`${alias}-v1`]?.mappings.properties?.main_text as { index_phrases?: boolean; fields?: Record<string, unknown> };
    assert.equal(mainText.index_phrases, true);
    assert.ok(mainText.fields?.exact);
    assert.equal((mapping[`${alias}-v1`]?.mappings.properties?.url as { type: string }).type, 'keyword');
  });

  test('a quoted phrase matches its words in order, across two blocks, case and punctuation aside', async () => {
    assert.deepEqual((await search('"noon tides rose"')).hits.map((hit) => hit.url), ['http://a.test/1']);
    assert.equal((await search('"HARBOUR MASTER spoke"')).total, 2);
    assert.equal((await search('"master harbour"')).total, 0);
    assert.equal((await search('harbour master')).total, 3, 'terms need not be adjacent');
    assert.equal((await search('harbour mayor')).total, 1, 'every term must occur');
    const [hit] = (await search('"noon tides rose"')).hits;
    assert.match(hit?.highlights[0] ?? '', /<mark>noon\. Tides rose<\/mark>/);
  });

  test('site filter and pagination', async () => {
    assert.deepEqual((await search('"harbour master spoke"', 'other')).hits.map((hit) => hit.url), ['http://b.test/1']);
    const first = await search('harbour', undefined, 0, 2);
    const second = await search('harbour', undefined, 2, 2);
    assert.equal(first.total, 3);
    assert.equal(first.hits.length, 2);
    assert.equal(second.hits.length, 1);
    assert.equal(new Set([...first.hits, ...second.hits].map((hit) => hit.url)).size, 3);
  });

  test('writing the same documents again changes nothing; an older extraction never replaces a newer one', async () => {
    const url = 'http://a.test/versioned';
    await index.upsert([doc(url, 'second version text', new Date('2026-11-02T00:00:00Z'))]);
    await index.upsert([doc(url, 'second version text', new Date('2026-11-02T00:00:00Z'))]);
    await index.upsert([doc(url, 'first version text', new Date('2026-11-01T00:00:00Z'))]);
    await index.refresh();
    assert.equal(await index.count(), 4);
    assert.equal((await search('"second version"')).total, 1);
    assert.equal((await search('"first version"')).total, 0);
    await index.upsert([doc(url, 'third version text', new Date('2026-11-03T00:00:00Z'))]);
    await index.refresh();
    assert.equal((await search('"third version"')).total, 1);
    assert.equal(await index.count(), 4);
  });

  test('removing a site removes only its documents', async () => {
    await index.removeSite('other');
    await index.refresh();
    assert.equal(await index.count('other'), 0);
    assert.equal(await index.count('news'), 3);
  });

  test('a cluster that cannot be reached fails with a clear error after the retry window', async () => {
    const nowhere = new ElasticsearchIndex({ url: 'http://127.0.0.1:9', alias, retryForMs: 300 });
    await assert.rejects(nowhere.upsert([doc('http://a.test/x', 'text')]), /ConnectionError|ECONNREFUSED|did not take/);
    await nowhere.close();
  });
});
