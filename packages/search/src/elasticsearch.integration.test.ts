import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { DOCUMENT_SCHEME, ElasticsearchIndex, INDEX_BODY } from './elasticsearchIndex.js';
import { parseQuery } from './query.js';
import { documentIdFor, MAX_RESULT_WINDOW, SearchIndexError, type IndexDocument } from './searchIndex.js';
import { WORD_RULE_PHRASES, WORD_RULE_TEXT } from './testing/wordRule.js';
import { INTERRUPTED_TEXT, PHRASES_NOT_READ_PAST, PHRASES_READ_PAST } from './testing/interruptions.js';
import { testDocument } from './testing/documents.js';
import { elasticsearchForTests, type LocalElasticsearch } from './testing/localElasticsearch.js';

const doc = (url: string, mainText: string, extractedAt = new Date('2026-11-01T00:00:00Z'), site = 'news', pageId = 1): IndexDocument =>
  testDocument({ site, url, pageId, mainText, extractedAt, title: `Title of ${url}`, pageTitle: `Title of ${url} | News` });

describe('the Elasticsearch index (a real node)', () => {
  let cluster: LocalElasticsearch;
  let index: ElasticsearchIndex;
  let client: Client;
  const alias = `winnow-test-${randomBytes(4).toString('hex')}`;
  const search = async (q: string, site?: string, offset = 0, limit = 10) =>
    index.search({ query: parseQuery(q), sites: site ? [site] : ['news', 'other'], offset, limit });

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
    const mainWords = mapping[`${alias}-v1`]?.mappings.properties?.main_words as { index_phrases?: boolean; analyzer?: string };
    assert.equal(mainWords.index_phrases, true);
    assert.equal(mainWords.analyzer, 'winnow_exact');
    assert.equal((mapping[`${alias}-v1`]?.mappings.properties?.url as { type: string } | undefined)?.type, 'keyword');
  });

  test('a quoted phrase matches its words in order, across two blocks, case and punctuation aside', async () => {
    assert.deepEqual(
      (await search('"noon tides rose"')).hits.map((hit) => hit.url),
      ['http://a.test/1'],
    );
    assert.equal((await search('"HARBOUR MASTER spoke"')).total, 2);
    assert.equal((await search('"master harbour"')).total, 0);
    assert.equal((await search('harbour master')).total, 3, 'terms need not be adjacent');
    assert.equal((await search('harbour mayor')).total, 1, 'every term must occur');
    const [hit] = (await search('"noon tides rose"')).hits;
    assert.match(hit?.highlights[0] ?? '', /<mark>noon\. Tides rose<\/mark>/);
    assert.equal(hit?.title, 'Title of http://a.test/1', "the article's headline");
    assert.equal(hit?.pageTitle, 'Title of http://a.test/1 | News', "the page's <title>, a field of its own");
  });

  test('finds a Chinese word inside text written without spaces, as the Postgres index does', async () => {
    await index.upsert([doc('http://a.test/cjk', '北京明天天气晴朗，上海有小雨。', undefined, 'cjk', 7)]);
    await index.refresh();
    const cjk = (q: string) => index.search({ query: parseQuery(q), sites: ['cjk'], offset: 0, limit: 10 });
    assert.equal((await cjk('北京')).total, 1);
    assert.equal((await cjk('"天气晴朗"')).total, 1);
    assert.equal((await cjk('京北')).total, 0);
    assert.match((await cjk('上海')).hits[0]?.highlights[0] ?? '', /<mark>上海<\/mark>有小雨/);
    await index.removeSite('cjk');
    await index.refresh();
  });

  test('finds phrases typed as the page shows them where the standard tokenizer reads words its own way', async () => {
    await index.upsert([doc('http://w.test/1', WORD_RULE_TEXT, undefined, 'words')]);
    await index.refresh();
    for (const phrase of WORD_RULE_PHRASES) assert.equal((await search(`"${phrase}"`, 'words')).total, 1, phrase);
    for (const query of ['"non business"', '"1 billion"', '"ABT 264"']) assert.equal((await search(query, 'words')).total, 0, query);
    const [hit] = (await search('"company\'s 300,000"', 'words')).hits;
    assert.match(hit?.highlights[0] ?? '', /<mark>company&#39;s 300,000<\/mark>/);
    await index.removeSite('words');
    await index.refresh();
  });

  test('finds a phrase across a caption, a credit or a dateline that interrupts the article, and marks it; not across three lines or a long one', async () => {
    await index.upsert([doc('http://w.test/seals', INTERRUPTED_TEXT, undefined, 'seals')]);
    await index.refresh();
    for (const phrase of PHRASES_READ_PAST) assert.equal((await search(`"${phrase}"`, 'seals')).total, 1, phrase);
    for (const phrase of PHRASES_NOT_READ_PAST) assert.equal((await search(`"${phrase}"`, 'seals')).total, 0, phrase);
    const [hit] = (await search('"the harbour mouth the colony"', 'seals')).hits;
    assert.match(hit?.highlights[0] ?? '', /<mark>the harbour mouth\. Photo: J\. Doe The colony<\/mark>/);
    await index.removeSite('seals');
    await index.refresh();
  });

  test('site filter and pagination', async () => {
    assert.deepEqual(
      (await search('"harbour master spoke"', 'other')).hits.map((hit) => hit.url),
      ['http://b.test/1'],
    );
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

  test("lists every document's page and extraction time, past one page of results, including writes not yet refreshed", async () => {
    const many = Array.from({ length: 5003 }, (_, i) =>
      doc(`http://v.test/${i}`, `page ${i}`, new Date(Date.UTC(2026, 10, 1, 0, 0, 0, i)), 'versions', 100_000 + i),
    );
    await index.upsert(many);
    try {
      const versions = await index.documentVersions();
      for (const written of [many[0], many[4999], many[5000], many[5002]]) {
        assert.equal(versions.get(written?.pageId as number), written?.extractedAt.getTime(), written?.url);
      }
      assert.equal([...versions.keys()].filter((pageId) => pageId >= 100_000).length, 5003);
    } finally {
      await index.removeSite('versions');
    }
  });

  test('removing a site removes only its documents', async () => {
    await index.removeSite('other');
    await index.refresh();
    assert.equal(await index.count('other'), 0);
    assert.equal(await index.count('news'), 3);
  });

  test("two sites that index the same URL keep a document each; removing one leaves the other's", async () => {
    const url = 'http://shared.test/1';
    await index.upsert([doc(url, 'The lighthouse of alpha.', undefined, 'alpha', 10)]);
    await index.upsert([doc(url, 'The lighthouse of beta.', undefined, 'beta', 11)]);
    await index.refresh();
    assert.equal(await index.count('alpha'), 1);
    assert.equal(await index.count('beta'), 1);
    assert.deepEqual(
      (await index.search({ query: parseQuery('lighthouse'), sites: ['alpha'], offset: 0, limit: 10 })).hits.map((hit) => hit.site),
      ['alpha'],
    );
    await index.removeSite('alpha');
    await index.refresh();
    assert.equal(await index.count('alpha'), 0);
    assert.equal(await index.count('beta'), 1);
  });

  test('a search returns documents of the sites it lists only, and nothing for no site', async () => {
    const lighthouse = (sites: string[]) => index.search({ query: parseQuery('lighthouse'), sites, offset: 0, limit: 10 });
    assert.deepEqual(
      (await lighthouse(['beta', 'nosuch'])).hits.map((hit) => hit.site),
      ['beta'],
    );
    assert.deepEqual(await lighthouse([]), { total: 0, totalRelation: 'eq', hits: [] });
  });

  test('counts matches up to the paging window, and says when more match', async () => {
    const many = Array.from({ length: MAX_RESULT_WINDOW + 1 }, (_, i) =>
      doc(`http://many.test/${i}`, `Buoy ${i} marks the channel${i < 3 ? ' at the breakwater' : ''}.`, undefined, 'many', 100_000 + i),
    );
    await index.upsert(many);
    await index.refresh();
    const channel = await index.search({ query: parseQuery('"marks the channel"'), sites: ['many'], offset: 0, limit: 1 });
    assert.deepEqual([channel.total, channel.totalRelation], [MAX_RESULT_WINDOW, 'gte']);
    const few = await index.search({ query: parseQuery('breakwater'), sites: ['many'], offset: 0, limit: 1 });
    assert.deepEqual([few.total, few.totalRelation], [3, 'eq']);
    await index.removeSite('many');
  });

  test('removing pages removes their documents, even written a moment before (no refresh between)', async () => {
    await index.upsert([doc('http://pages.test/kept', 'kept', undefined, 'pages', 20), doc('http://pages.test/removed', 'removed', undefined, 'pages', 21)]);
    await index.removePages([21, 123_456]);
    await index.refresh();
    const left = await client.search<{ page_id: number }>({ index: alias, query: { term: { site: 'pages' } } });
    assert.deepEqual(
      left.hits.hits.map((hit) => hit._source?.page_id),
      [20],
    );
  });

  test("an error of Elasticsearch (paging past its result window) is a SearchIndexError without the engine's text or status", async () => {
    const error = await index.search({ query: parseQuery('harbour'), sites: ['news'], offset: 10_000, limit: 10 }).then(
      () => assert.fail('Elasticsearch pages no deeper than 10,000 results'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof SearchIndexError, String(error));
    assert.equal((error as { statusCode?: unknown }).statusCode, undefined);
    assert.doesNotMatch(error.message, /window|max_result|illegal_argument/i);
    assert.match(error.message, /Elasticsearch answered HTTP 400 to the search/);
  });

  test('a cluster that cannot be reached fails with a clear error after the retry window', async () => {
    const nowhere = new ElasticsearchIndex({ url: 'http://127.0.0.1:9', alias, retryForMs: 300 });
    await assert.rejects(nowhere.upsert([doc('http://a.test/x', 'text')]), /ConnectionError|ECONNREFUSED|did not take/);
    await nowhere.close();
  });
});

/** The id the URL-keyed scheme (1) gave a document: the URL alone. */
const urlKeyedId = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 32);

describe('an Elasticsearch index of the URL-keyed scheme (a real node)', () => {
  let cluster: LocalElasticsearch;
  let client: Client;
  const aliases: string[] = [];

  /** An index as the URL-keyed version made it (no `_meta`, ids per URL) behind a new alias, holding `count` documents of two sites. */
  async function urlKeyedIndex(count: number): Promise<{ alias: string; documents: IndexDocument[] }> {
    const alias = `winnow-test-${randomBytes(4).toString('hex')}`;
    aliases.push(alias);
    const { _meta, ...mappings } = INDEX_BODY(0).mappings;
    await client.indices.create({ index: `${alias}-v1`, settings: INDEX_BODY(0).settings, mappings, aliases: { [alias]: { is_write_index: true } } });
    const documents = Array.from({ length: count }, (_, i) =>
      doc(`http://keyed.test/${i}`, `The lighthouse keeper ${i}.`, undefined, i % 2 === 0 ? 'alpha' : 'beta', i + 1),
    );
    await client.bulk({
      refresh: true,
      operations: documents.flatMap((d) => [
        { index: { _index: `${alias}-v1`, _id: urlKeyedId(d.url), version: d.extractedAt.getTime(), version_type: 'external_gte' as const } },
        {
          doc_id: urlKeyedId(d.url),
          page_id: d.pageId,
          site: d.site,
          url: d.url,
          title: d.title,
          main_text: d.mainText,
          template_version: d.templateVersion,
          extracted_at: d.extractedAt.toISOString(),
        },
      ]),
    });
    return { alias, documents };
  }

  async function assertReindexed(alias: string, documents: readonly IndexDocument[]): Promise<void> {
    assert.deepEqual(Object.keys(await client.indices.getAlias({ name: alias })), [`${alias}-v2`]);
    assert.equal(await client.indices.exists({ index: `${alias}-v1` }), false, 'the old index is deleted');
    const mapping = await client.indices.getMapping({ index: `${alias}-v2` });
    assert.equal(mapping[`${alias}-v2`]?.mappings._meta?.winnow_document_scheme, DOCUMENT_SCHEME);
    assert.equal((await client.count({ index: alias })).count, documents.length);
    for (const d of [documents[0], documents[1], documents.at(-1)]) {
      assert.ok(d);
      const stored = await client.get<{ doc_id: string; site: string; page_title: string }>({ index: alias, id: documentIdFor(d.site, d.url) });
      assert.equal(stored._source?.doc_id, documentIdFor(d.site, d.url));
      assert.equal(stored._source?.page_title, d.title, "a document of an older scheme keeps its title as the page's title");
      assert.equal(stored._source?.site, d.site);
    }
  }

  before(async () => {
    cluster = await elasticsearchForTests();
    client = new Client({ node: cluster.url });
  });
  after(async () => {
    for (const alias of aliases) await client.indices.delete({ index: `${alias}-v*` }).catch(() => undefined);
    await client.close();
    await cluster.stop();
  });

  test('starting copies its documents under ids per site and URL into the next index and moves the alias; searches never find nothing', async () => {
    const { alias, documents } = await urlKeyedIndex(3000);
    const reader = new ElasticsearchIndex({ url: cluster.url, alias, retryForMs: 5000 });
    const totals: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) totals.push((await reader.search({ query: parseQuery('lighthouse keeper'), sites: ['alpha', 'beta'], offset: 0, limit: 1 })).total);
    })();
    // Two processes starting at once both find the old scheme.
    const first = new ElasticsearchIndex({ url: cluster.url, alias, retryForMs: 5000 });
    const second = new ElasticsearchIndex({ url: cluster.url, alias, retryForMs: 5000 });
    await Promise.all([first.ensureReady(), second.ensureReady()]);
    polling = false;
    await poller;
    await assertReindexed(alias, documents);
    assert.ok(totals.length > 0);
    assert.deepEqual([...new Set(totals)], [documents.length], `every search during the re-index found every document (${totals.length} searches)`);

    const settings = await client.indices.getSettings({ index: `${alias}-v2` });
    assert.equal(settings[`${alias}-v2`]?.settings?.index?.blocks?.write, undefined, 'the new index takes writes');
    const [alphaDocument] = documents;
    assert.ok(alphaDocument);
    await first.upsert([{ ...alphaDocument, site: 'gamma', docId: documentIdFor('gamma', alphaDocument.url), mainText: 'gamma' }]);
    await first.refresh();
    assert.equal((await client.count({ index: alias })).count, documents.length + 1, "another site's page with the same URL is a document of its own");
    await first.ensureReady();
    assert.deepEqual(Object.keys(await client.indices.getAlias({ name: alias })), [`${alias}-v2`], 'a second start changes nothing');
    for (const index of [reader, first, second]) await index.close();
  });

  test('a re-index interrupted after the copy began is finished by the next start', async () => {
    const { alias, documents } = await urlKeyedIndex(50);
    // Where a process stopped: writes to the old index blocked, the next index created with part of the documents.
    await client.indices.addBlock({ index: `${alias}-v1`, block: 'write' });
    await client.indices.create({ index: `${alias}-v2`, ...INDEX_BODY(0) });
    const partial = new ElasticsearchIndex({ url: cluster.url, alias: `${alias}-v2`, retryForMs: 5000 });
    await partial.upsert(documents.slice(0, 10));
    await partial.close();
    const index = new ElasticsearchIndex({ url: cluster.url, alias, retryForMs: 5000 });
    await index.ensureReady();
    await assertReindexed(alias, documents);
    await index.close();
  });
});
