import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, pipelineStatus, removeSite, type Runtime } from '@winnow/runtime';
import { storeFetchedPage } from '@winnow/storage';
import { startExtractor } from './index.js';

/** Waits until a job has completed or failed (no deadline of its own: the test runner's timeout applies). */
async function settled(job: { getState(): Promise<string> }): Promise<string> {
  for (;;) {
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('extract jobs of a removed site (embedded: PGlite, a private Redis)', () => {
  let rt: Runtime;
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_CPU_THREADS: '1' }));
  });
  after(async () => {
    await rt.close();
  });

  test('complete as skips, queue no index job, and status lists no failure', async () => {
    const site = await addSite(rt, { name: 'removed', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });
    const pageIds: number[] = [];
    for (const n of [1, 2, 3]) {
      const fetched = { siteId: site.id, url: `http://127.0.0.1:9/${n}.html`, crawlId: null, status: 200, headers: {}, contentType: 'text/html' };
      pageIds.push((await storeFetchedPage(rt.db, fetched, Buffer.from(`<html><body><p>Page ${n} of a site about to go.</p></body></html>`))).pageId);
    }
    // Queued while the site existed, run after it was removed.
    const queue = rt.queues.queue('extract');
    const jobs = await Promise.all(pageIds.map((pageId) => queue.add('extract', { pageId })));
    await removeSite(rt, 'removed');
    const extractor = startExtractor(rt);
    try {
      for (const job of jobs) {
        assert.equal(await settled(job), 'completed', `job of page ${job.data.pageId}`);
        assert.deepEqual((await queue.getJob(job.id as string))?.returnvalue, { skipped: 'the page no longer exists (its site was removed)' });
      }
      const status = await pipelineStatus(rt);
      assert.deepEqual(status.failedJobs, [], 'no failed job');
      assert.deepEqual(status.failedPages, []);
      assert.equal(status.queues.index.waiting + status.queues.index.active, 0, 'no index job queued for a page that is gone');
    } finally {
      await extractor.close();
    }
  });
});
