import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { DEMO_SITE_NAMES, serveDemoWeb, type DemoWeb } from '@winnow/demo-corpus';
import { lcsF1 } from '@winnow/eval';
import { addSite, openRuntime, pipelineStatus, search, startCrawl, templateScheduleId, waitForIdle, type Runtime, type Service } from '@winnow/runtime';
import { wordsOf } from '@winnow/search';
import { openRedisClient } from '@winnow/queue';
import { startRedisCluster, type RedisClusterServer } from '@winnow/queue/testing';
import { HoldingIndex } from '@winnow/search/testing';
import { findSite, listTemplates, siteCounts } from '@winnow/storage';
import { demoPhrases } from './commands/demo.js';
import { closeAll, startWorkers } from './pipeline.js';
import { BOILERPLATE_ONLY_PHRASES, pagesWithPhrase, searchAll } from './testing/phrases.js';
import { removedMidCrawl, twoSitesOnOneOrigin } from './testing/sitesOnOneOrigin.js';

describe('the pipeline, embedded (PGlite, Postgres index, private redis-server)', () => {
  let web: DemoWeb;
  let rt: Runtime;
  let services: Service[];
  before(async () => {
    web = await serveDemoWeb(DEMO_SITE_NAMES, { articles: 80 });
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    services = await startWorkers(rt);
    await crawlEveryDemoSite(rt, web);
  });
  after(async () => {
    await closeAll(services);
    await rt.close();
    await web.close();
  });

  test('every page is crawled, templated, extracted and indexed', async () => {
    await everyPageIndexed(rt, web);
  });

  test('each site has an article template and a list template, and every page was read by a template', async () => {
    for (const site of web.sites) {
      const stored = await findSite(rt.db, site.name);
      const current = (await listTemplates(rt.db, site.name)).filter((template) => template.current);
      assert.deepEqual(current.map((template) => template.urlPatterns.sort().join(' ')).sort(), ['/ /page/:n.html', '/articles/:n.html'], site.name);
      const stale = await rt.db.query(
        `SELECT p.url FROM pages p JOIN extractions e ON e.page_id = p.id
          WHERE p.site_id = $1 AND (e.method <> 'pipeline' OR e.template_id IS NULL OR (e.template_version IS DISTINCT FROM $2 AND e.read_alone))`,
        [stored?.id, stored?.templateVersion],
      );
      assert.deepEqual(stale, [], `${site.name}: every page was read by a template, and by the current version's unless the self-check trusted its reading`);
    }
  });

  test('the demo corpus extracts with lcs F1 >= 0.95 against its gold', async () => {
    for (const site of web.sites) {
      const rows = await rt.db.query<{ url: string; main_text: string }>(
        `SELECT p.url, e.main_text FROM extractions e JOIN pages p ON p.id = e.page_id JOIN sites s ON s.id = p.site_id WHERE s.name = $1`,
        [site.name],
      );
      const scores = rows.filter((row) => site.goldByUrl.has(row.url)).map((row) => lcsF1(site.goldByUrl.get(row.url) as string, row.main_text));
      assert.equal(scores.length, site.pages.length);
      const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
      assert.ok(mean >= 0.95, `${site.name}: mean lcs F1 ${mean.toFixed(3)}`);
    }
  });

  test('a phrase across an inline <span> and one across two blocks find exactly the pages holding them', async () => {
    for (const site of web.sites) {
      const { acrossInline, acrossBlocks } = demoPhrases(site);
      for (const phrase of [acrossInline, acrossBlocks]) {
        const expected = pagesWithPhrase(web, phrase);
        assert.ok(expected.length > 0, `"${phrase}" occurs in the gold`);
        assert.deepEqual(await searchAll(rt, `"${phrase}"`), expected, `"${phrase}"`);
      }
    }
  });

  test('a phrase only boilerplate holds (navigation, footer, sidebar, advertisement) finds nothing', async () => {
    for (const phrase of [...BOILERPLATE_ONLY_PHRASES, 'Older stories']) {
      assert.deepEqual(pagesWithPhrase(web, phrase), [], `"${phrase}" is not in any gold text`);
      const result = await search(rt, { q: `"${phrase}"` });
      assert.equal(result.total, 0, `"${phrase}" found in ${result.hits.map((hit) => hit.url).join(', ')}`);
    }
  });

  test('a phrase is exact: the same words in another order do not match, and hits are highlighted', async () => {
    const site = web.sites[0];
    assert.ok(site);
    const { acrossBlocks } = demoPhrases(site);
    const reversed = acrossBlocks.split(' ').reverse().join(' ');
    assert.deepEqual(await searchAll(rt, `"${reversed}"`), pagesWithPhrase(web, reversed));
    const result = await search(rt, { q: `"${acrossBlocks}"`, site: site.name });
    assert.ok(result.hits[0]?.highlights.some((fragment) => fragment.toLowerCase().includes('<mark>')));
    const words = acrossBlocks.split(' ');
    const marked = /<mark>(.*?)<\/mark>/.exec(result.hits[0]?.highlights[0] ?? '')?.[1] ?? '';
    assert.deepEqual(wordsOf(marked), words, 'the whole phrase is one highlight, across the block boundary');
  });

  test("a hit's title is the article's headline, and the page's <title>, site name included, a field of its own", async () => {
    for (const site of web.sites) {
      const [hit] = (await search(rt, { q: `"${demoPhrases(site).acrossBlocks}"`, site: site.name })).hits;
      assert.ok(hit, `${site.name}: no hit`);
      const headline = site.goldByUrl.get(hit.url)?.split('\n')[0];
      assert.equal(hit.title, headline, `${site.name}: ${hit.url}`);
      assert.ok(hit.pageTitle.includes(hit.title) && hit.pageTitle !== hit.title, `${site.name}: <title> ${hit.pageTitle}`);
    }
  });

  test("a site's template schedule is registered, first fires one interval later, and fires again", async () => {
    const registeredAt = Date.now();
    const site = await addSite(rt, {
      name: 'scheduled',
      seeds: [`${web.sites[0]?.origin}/`],
      templateEveryMs: 1000,
      minTemplatePages: 2,
      allowPrivateAddresses: true,
    });
    const schedulers = await rt.queues.queue('template').getJobSchedulers();
    assert.ok(
      schedulers.some(
        (scheduler) => scheduler.key === templateScheduleId(site.id) && Number(scheduler.every) === 1000 && Number(scheduler.next) >= registeredAt + 1000,
      ),
      JSON.stringify(schedulers),
    );
    const completedBefore = (await rt.queues.counts()).template.completed;
    for (let i = 0; i < 600 && (await rt.queues.counts()).template.completed < completedBefore + 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok((await rt.queues.counts()).template.completed >= completedBefore + 2, 'the schedule ran the template job at least twice');
  });
});

describe('sites that crawl the same URLs, embedded (PGlite, Postgres index, private redis-server)', () => {
  let web: DemoWeb;
  let rt: Runtime;
  let holding: HoldingIndex;
  let services: Service[];
  before(async () => {
    web = await serveDemoWeb(['ledger'], { articles: 40 });
    // Small batches, so that a site's pages reach the index in many writes.
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_INDEX_BATCH_SIZE: '5', WINNOW_INDEX_FLUSH_MS: '20' }));
    holding = new HoldingIndex(rt.search);
    services = await startWorkers({ ...rt, search: holding });
  });
  after(async () => {
    await closeAll(services);
    await rt.close();
    await web.close();
  });

  test("two sites on one origin are both fully indexed and searched apart; removing one leaves the other's documents", async () => {
    await twoSitesOnOneOrigin(rt, web, ['first', 'second']);
  });

  test('a site removed mid-crawl, with an indexer batch of its pages in flight, leaves no document once the pipeline is idle', async () => {
    await removedMidCrawl(rt, holding, web, 'doomed', 'second');
  });
});

/** Every demo page is stored, extracted and indexed, with the demo's broken links recorded as refused. */
async function everyPageIndexed(rt: Runtime, web: DemoWeb): Promise<void> {
  const counts = await siteCounts(rt.db);
  for (const site of web.sites) {
    const count = counts.find((candidate) => candidate.site === site.name);
    assert.ok(count);
    assert.equal(count.stored, site.pages.length, `${site.name}: every demo page is stored`);
    assert.equal(count.extracted, site.pages.length, `${site.name}: every page is extracted`);
    assert.equal(await rt.search.count(site.name), site.pages.length, `${site.name}: every page is indexed`);
    const crawl = (await pipelineStatus(rt)).sites.find((candidate) => candidate.site === site.name)?.crawl;
    assert.ok((crawl?.counts.refused ?? 0) > 0, `${site.name}: the demo's broken links are recorded as refused`);
    assert.equal(count.failedExtract + count.failedIndex, 0);
  }
}

describe('the pipeline on a three-master Redis Cluster (PGlite, Postgres index)', () => {
  let web: DemoWeb;
  let redisCluster: RedisClusterServer;
  let rt: Runtime;
  let services: Service[];
  before(async () => {
    redisCluster = await startRedisCluster(3);
    web = await serveDemoWeb(['ledger'], { articles: 30 });
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', REDIS_URL: redisCluster.url, WINNOW_REDIS_MODE: 'cluster' }));
    services = await startWorkers(rt);
    await crawlEveryDemoSite(rt, web);
  });
  after(async () => {
    await closeAll(services);
    await rt.close();
    await web.close();
    await redisCluster.stop();
  });

  test('every page is crawled, templated, extracted and indexed, and an exact phrase finds exactly its pages', async () => {
    await everyPageIndexed(rt, web);
    const site = web.sites[0];
    assert.ok(site);
    const { acrossBlocks } = demoPhrases(site);
    assert.deepEqual(await searchAll(rt, `"${acrossBlocks}"`), pagesWithPhrase(web, acrossBlocks));
  });

  test("the queues' keys share the prefix's hash slot, while the hosts' politeness keys carry their own", async () => {
    const client = openRedisClient(rt.queueSettings.connection);
    let keys: string[];
    try {
      await client.ping();
      assert.ok('nodes' in client, 'the runtime talks to the cluster through a cluster client');
      const masters = client.nodes('master');
      assert.equal(masters.length, 3);
      keys = (await Promise.all(masters.map((master) => master.keys('*')))).flat();
    } finally {
      client.disconnect();
    }
    const queueKeys = keys.filter((key) => key.startsWith('{winnow}:'));
    assert.ok(
      queueKeys.some((key) => key.startsWith('{winnow}:extract:')),
      'the extract queue lives under the hash-tagged prefix',
    );
    assert.ok(
      queueKeys.some((key) => key.startsWith('{winnow}:index:')),
      'the index queue lives under the hash-tagged prefix',
    );
    const hostKeys = keys.filter((key) => key.startsWith('winnow:crawl:host:{'));
    assert.ok(hostKeys.length > 0, `the crawl's host state is kept: ${keys.filter((key) => !key.startsWith('{winnow}')).join(', ')}`);
  });
});

/** Adds each of the demo web's sites and crawls them all, until the pipeline is idle. */
async function crawlEveryDemoSite(rt: Runtime, web: DemoWeb): Promise<void> {
  for (const site of web.sites) {
    await addSite(rt, { name: site.name, seeds: [`${site.origin}/`], minTemplatePages: 5, templateEveryMs: 0, concurrency: 4, allowPrivateAddresses: true });
    await startCrawl(rt, site.name);
  }
  await waitForIdle(rt);
}
