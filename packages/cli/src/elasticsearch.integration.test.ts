import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { loadEnv } from '@winnow/config';
import { DEMO_SITE_NAMES, serveDemoWeb, type DemoWeb } from '@winnow/demo-corpus';
import { freePort } from '@winnow/queue/testing';
import { addSite, openRuntime, replaceSite, requestTemplates, search, startCrawl, waitForIdle, type Runtime, type Service } from '@winnow/runtime';
import type { ElasticsearchIndex, IndexDocument } from '@winnow/search';
import { elasticsearchForTests, HoldingIndex, startLocalElasticsearch, type LocalElasticsearch } from '@winnow/search/testing';
import { findSite, listStoredPages } from '@winnow/storage';
import { demoPhrases } from './commands/demo.js';
import { closeAll, startWorkers } from './pipeline.js';
import { BOILERPLATE_ONLY_PHRASES, pagesWithPhrase, searchAll } from './testing/phrases.js';
import { removedMidCrawl, twoSitesOnOneOrigin } from './testing/sitesOnOneOrigin.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function storedPages(rt: Runtime, web: DemoWeb): Promise<number> {
  let total = 0;
  for (const site of web.sites) total += (await listStoredPages(rt.db, (await findSite(rt.db, site.name))?.id ?? 0)).length;
  return total;
}

/** The index the workers write through, knowing how many writes are under way (one under way while the node is stopped is retrying). */
class WritesInFlightIndex extends HoldingIndex {
  writesInFlight = 0;

  override async upsert(documents: readonly IndexDocument[]): Promise<void> {
    this.writesInFlight++;
    try {
      await super.upsert(documents);
    } finally {
      this.writesInFlight--;
    }
  }
}

function embeddedWithElasticsearch(url: string, overrides: Record<string, string> = {}) {
  return loadEnv({
    WINNOW_DATA_DIR: 'memory',
    WINNOW_LOG_LEVEL: 'silent',
    ELASTICSEARCH_URL: url,
    WINNOW_ES_ALIAS: `winnow-test-${randomBytes(4).toString('hex')}`,
    WINNOW_INDEX_FLUSH_MS: '50',
    ...overrides,
  });
}

describe('the pipeline with Elasticsearch as the index (a real node)', () => {
  let cluster: LocalElasticsearch;
  let web: DemoWeb;
  let rt: Runtime;
  let services: Service[];
  const refresh = () => (rt.search as ElasticsearchIndex).refresh();

  before(async () => {
    cluster = await elasticsearchForTests();
    web = await serveDemoWeb(DEMO_SITE_NAMES, { articles: 40 });
    rt = await openRuntime(embeddedWithElasticsearch(cluster.url));
    services = await startWorkers(rt);
    for (const site of web.sites) {
      await addSite(rt, { name: site.name, seeds: [`${site.origin}/`], minTemplatePages: 4, templateEveryMs: 0, allowPrivateAddresses: true });
      await startCrawl(rt, site.name);
    }
    await waitForIdle(rt);
    await refresh();
  });
  after(async () => {
    await closeAll(services);
    await rt.close();
    await web.close();
    await cluster.stop();
  });

  test('every page is indexed; inline-element and cross-block phrases are found, boilerplate is not', async () => {
    assert.equal(rt.search.kind, 'elasticsearch');
    assert.equal(await rt.search.count(), await storedPages(rt, web));
    for (const site of web.sites) {
      const { acrossInline, acrossBlocks } = demoPhrases(site);
      for (const phrase of [acrossInline, acrossBlocks]) {
        const expected = pagesWithPhrase(web, phrase);
        assert.ok(expected.length > 0);
        assert.deepEqual(await searchAll(rt, `"${phrase}"`), expected, `"${phrase}"`);
      }
    }
    for (const phrase of BOILERPLATE_ONLY_PHRASES) {
      assert.equal((await search(rt, { q: `"${phrase}"` })).total, 0, phrase);
    }
  });

  test('running the pipeline twice leaves the same documents', async () => {
    const before = await rt.search.count();
    for (const site of web.sites) await startCrawl(rt, site.name);
    await waitForIdle(rt);
    await refresh();
    assert.equal(await rt.search.count(), before);
  });

  test('a template change re-indexes the site while searches keep answering', async () => {
    // Preparing again from the same pages changes nothing; a larger minimum takes the listing pages' template away.
    const site = web.sites[0];
    assert.ok(site);
    const { acrossBlocks } = demoPhrases(site);
    const expected = pagesWithPhrase(web, acrossBlocks).length;
    const versionBefore = (await findSite(rt.db, site.name))?.templateVersion ?? 0;
    const totals: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        totals.push((await search(rt, { q: `"${acrossBlocks}"` })).total);
        await sleep(10);
      }
    })();
    const config = (await findSite(rt.db, site.name))?.config;
    assert.ok(config);
    await replaceSite(rt, site.name, { ...config, minTemplatePages: site.pages.filter((page) => page.path.startsWith('/page/')).length + 2 });
    await requestTemplates(rt, site.name);
    await waitForIdle(rt);
    await refresh();
    polling = false;
    await poller;
    const versionAfter = (await findSite(rt.db, site.name))?.templateVersion ?? 0;
    assert.ok(versionAfter > versionBefore);
    assert.ok(totals.length >= 3, `searched ${totals.length} times during the re-indexing: too few to say anything`);
    assert.deepEqual([...new Set(totals)], [expected], 'every search during the re-indexing found the page');
    const client = new Client({ node: cluster.url });
    const reindexed = await client.count({
      index: rt.env.WINNOW_ES_ALIAS,
      query: { bool: { filter: [{ term: { site: site.name } }, { term: { template_version: versionAfter } }] } },
    });
    await client.close();
    assert.equal(reindexed.count, site.pages.length, 'every page of the site carries the new template version');
  });
});

describe('sites that crawl the same URLs, with Elasticsearch as the index (a real node)', () => {
  let cluster: LocalElasticsearch;
  let web: DemoWeb;
  let rt: Runtime;
  let holding: HoldingIndex;
  let services: Service[];
  before(async () => {
    cluster = await elasticsearchForTests();
    web = await serveDemoWeb(['ledger'], { articles: 40 });
    // Small batches, so that a site's pages reach the index in many writes.
    rt = await openRuntime(embeddedWithElasticsearch(cluster.url, { WINNOW_INDEX_BATCH_SIZE: '5', WINNOW_INDEX_FLUSH_MS: '20' }));
    holding = new HoldingIndex(rt.search);
    services = await startWorkers({ ...rt, search: holding });
  });
  after(async () => {
    await closeAll(services);
    await rt.close();
    await web.close();
    await cluster.stop();
  });

  test("two sites on one origin are both fully indexed and searched apart; removing one leaves the other's documents", async () => {
    await twoSitesOnOneOrigin(rt, web, ['first', 'second']);
  });

  test('a site removed mid-crawl, with an indexer batch of its pages in flight, leaves no document once the pipeline is idle', async () => {
    await removedMidCrawl(rt, holding, web, 'doomed', 'second');
  });
});

describe('Elasticsearch stopped mid-indexing', () => {
  test('the indexer retries; after a restart every page is indexed, none lost, none duplicated', async () => {
    const home = await mkdtemp(join(tmpdir(), 'winnow-es-home-'));
    const port = await freePort();
    let cluster = await startLocalElasticsearch({ home, port });
    const web = await serveDemoWeb(['ledger'], { articles: 150 });
    const rt = await openRuntime(embeddedWithElasticsearch(cluster.url, { WINNOW_INDEX_BATCH_SIZE: '10', WINNOW_INDEX_RETRY_MS: '120000' }));
    const index = new WritesInFlightIndex(rt.search);
    const services = await startWorkers({ ...rt, search: index });
    try {
      await addSite(rt, { name: 'ledger', seeds: [`${web.sites[0]?.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true });
      await startCrawl(rt, 'ledger');
      const deadline = Date.now() + 60_000;
      while ((await rt.search.count().catch(() => 0)) < 20 && Date.now() < deadline) await sleep(100);
      await cluster.stop();
      // The node comes back once the indexer has met the outage: a write is under way that the stopped node cannot take.
      const outageDeadline = Date.now() + 60_000;
      while (index.writesInFlight === 0 && Date.now() < outageDeadline) await sleep(50);
      assert.ok(index.writesInFlight > 0, 'the indexer is writing while the node is stopped');
      cluster = await startLocalElasticsearch({ home, port });
      await waitForIdle(rt);
      await (rt.search as ElasticsearchIndex).refresh();
      const stored = await storedPages(rt, web);
      assert.equal(stored, web.sites[0]?.pages.length);
      assert.equal(await rt.search.count(), stored, 'every stored page is indexed');
      const client = new Client({ node: cluster.url });
      const urls = await client.search({ index: rt.env.WINNOW_ES_ALIAS, size: 0, aggs: { urls: { cardinality: { field: 'url' } } } });
      await client.close();
      assert.equal((urls.aggregations?.urls as { value: number } | undefined)?.value, stored, 'one document per URL');
      const [failures] = await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM page_failures');
      assert.equal(failures?.n, 0);
    } finally {
      await closeAll(services);
      await rt.close();
      await web.close();
      await cluster.stop();
      await rm(home, { recursive: true, force: true });
    }
  });
});
