import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, mock, test } from 'node:test';
import { loadEnv, parseSiteConfig } from '@winnow/config';
import { openRuntime, removeSite, type Runtime } from '@winnow/runtime';
import type { ElasticsearchIndex } from '@winnow/search';
import { elasticsearchForTests, HoldingIndex, type LocalElasticsearch } from '@winnow/search/testing';
import { deleteSite, insertSite, saveExtraction, storeRawPage, upsertFetchedPage } from '@winnow/storage';
import { indexPages, startIndexer } from './index.js';

/** A site with one extracted page at `url`; returns the page id. */
async function extractedPage(rt: Runtime, site: string, url: string, mainText: string): Promise<number> {
  const stored = await insertSite(rt.db, parseSiteConfig({ name: site, seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true }));
  const contentHash = await storeRawPage(rt.db, Buffer.from(`<p>${mainText}</p>`));
  const pageId = await upsertFetchedPage(rt.db, {
    siteId: stored.id,
    url,
    crawlId: null,
    status: 200,
    headers: {},
    contentType: 'text/html',
    contentHash,
    fetchError: null,
  });
  await saveExtraction(rt.db, {
    pageId,
    contentHash,
    method: 'mainblock',
    templateId: null,
    templateVersion: null,
    title: null,
    headline: null,
    blocks: [],
    mainText,
    warnings: [],
    needsReextract: false,
    readAlone: false,
    wordCount: 0,
  });
  return pageId;
}

/** Waits until a job has completed or failed (no deadline of its own: the test runner's timeout applies). */
async function settled(job: { getState(): Promise<string> }): Promise<string> {
  for (;;) {
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the indexer, embedded (PGlite, Postgres index)', () => {
  let rt: Runtime;
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_INDEX_FLUSH_MS: '20' }));
  });
  after(async () => {
    await rt.close();
  });

  test('the job of a page that no longer exists completes as skipped, logged at debug, without a failure', async () => {
    const vanished = await extractedPage(rt, 'vanished', 'http://127.0.0.1:9/vanished.html', 'Text of a removed site.');
    await deleteSite(rt.db, 'vanished');
    const debug = mock.method(rt.log, 'debug');
    const indexer = startIndexer(rt);
    try {
      const queue = rt.queues.queue('index');
      const jobs = [await queue.add('index', { pageId: vanished }), await queue.add('index', { pageId: 987_654 })];
      for (const job of jobs) {
        assert.equal(await settled(job), 'completed', `job of page ${job.data.pageId}`);
        const done = await queue.getJob(job.id as string);
        assert.deepEqual(done?.returnvalue, { outcome: 'skipped', reason: 'the page no longer exists (its site was removed)' });
      }
      assert.equal((await rt.queues.counts()).index.failed, 0);
      assert.deepEqual(await rt.db.query('SELECT * FROM page_failures'), []);
      const logged = debug.mock.calls.flatMap((call) => (call.arguments[0] as { pageIds?: number[] }).pageIds ?? []);
      assert.deepEqual(logged.sort(), [vanished, 987_654].sort());
    } finally {
      await indexer.close();
      debug.mock.restore();
    }
  });

  test('a page that exists without an extraction still fails its job', async () => {
    const pageId = await extractedPage(rt, 'unextracted', 'http://127.0.0.1:9/unextracted.html', 'text');
    await rt.db.query('DELETE FROM extractions WHERE page_id = $1', [pageId]);
    const indexer = startIndexer(rt);
    try {
      const job = await rt.queues.queue('index').add('index', { pageId }, { attempts: 1 });
      assert.equal(await settled(job), 'failed');
      assert.match((await rt.queues.queue('index').getJob(job.id as string))?.failedReason ?? '', /has no extraction to index/);
    } finally {
      await indexer.close();
    }
  });
});

for (const kind of ['postgres', 'elasticsearch'] as const) {
  describe(`a batch in flight when its site is removed (${kind} index)`, () => {
    let cluster: LocalElasticsearch | undefined;
    let rt: Runtime;
    before(async () => {
      cluster = kind === 'elasticsearch' ? await elasticsearchForTests() : undefined;
      rt = await openRuntime(
        loadEnv({
          WINNOW_DATA_DIR: 'memory',
          WINNOW_LOG_LEVEL: 'silent',
          ...(cluster ? { ELASTICSEARCH_URL: cluster.url, WINNOW_ES_ALIAS: `winnow-test-${randomBytes(4).toString('hex')}` } : {}),
        }),
      );
    });
    after(async () => {
      await rt.close();
      await cluster?.stop();
    });
    const refresh = async () => {
      if (rt.search.kind === 'elasticsearch') await (rt.search as ElasticsearchIndex).refresh();
    };

    test('read its page before the site was removed and wrote after its documents were: nothing of the site is left', async () => {
      const url = 'http://127.0.0.1:9/shared.html';
      const doomed = await extractedPage(rt, 'doomed', url, 'The doomed lighthouse.');
      const kept = await extractedPage(rt, 'kept', url, 'The kept lighthouse.');
      await indexPages(rt, [kept]);
      const holding = new HoldingIndex(rt.search);
      const hold = holding.holdWrite((documents) => documents.some((document) => document.site === 'doomed'));
      const batch = indexPages({ ...rt, search: holding }, [doomed]);
      await hold.held;
      await removeSite(rt, 'doomed');
      hold.release();
      const outcome = await batch;
      assert.deepEqual(outcome, { indexed: [], vanished: [doomed], withdrawn: [], duplicates: new Map(), unextracted: [] });
      await refresh();
      assert.equal(await rt.search.count('doomed'), 0, 'the write that landed after the removal was taken away');
      assert.equal(await rt.search.count('kept'), 1, "the other site's document of the same URL stays");
    });
  });
}
