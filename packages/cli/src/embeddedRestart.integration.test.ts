import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { serveGeneratedSite } from '@winnow/crawler/testing';
import { addSite, openRuntime, reconcile, type Runtime, search, startCrawl, waitForIdle } from '@winnow/runtime';
import { indexableVersions } from '@winnow/storage';
import { closeAll, startWorkers } from './pipeline.js';

/** The embedded pipeline on a data directory that outlives it: a private Redis each time, which keeps nothing. */
const openEmbedded = (dataDir: string) => openRuntime(loadEnv({ WINNOW_DATA_DIR: dataDir, WINNOW_LOG_LEVEL: 'silent' }));

async function pageIdOf(rt: Runtime, url: string): Promise<number> {
  const [row] = await rt.db.query<{ id: number }>('SELECT id FROM pages WHERE url = $1', [url]);
  assert.ok(row, url);
  return row.id;
}

describe('an embedded pipeline started again does the work an earlier process left queued', () => {
  test('pages left unextracted or unindexed, stale and outdated documents are put right, and a clean start queues nothing', async () => {
    const site = await serveGeneratedSite({ pages: 30, shape: 'listings' });
    const dataDir = await mkdtemp(join(tmpdir(), 'winnow-lost-jobs-'));
    try {
      // A first process crawls the site to the end.
      let rt = await openEmbedded(dataDir);
      let services = await startWorkers(rt);
      let unindexed: number[];
      let unextracted: number;
      let gone: number;
      let outdated: number;
      try {
        await addSite(rt, { name: 'lost', seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true });
        await startCrawl(rt, 'lost');
        await waitForIdle(rt);
        assert.equal(await rt.search.count('lost'), site.paths.length);
        await closeAll(services);
        // What it leaves when it dies with jobs queued in its private Redis (the crawl had
        // finished): documents never written, a page stored but never extracted, the removal of a
        // withdrawn page's document and the re-indexing of a new extraction never done.
        unindexed = await Promise.all(['/articles/1.html', '/articles/2.html', '/page/1.html'].map((path) => pageIdOf(rt, `${site.origin}${path}`)));
        await rt.search.removePages(unindexed);
        unextracted = await pageIdOf(rt, `${site.origin}/articles/3.html`);
        await rt.db.query('DELETE FROM extractions WHERE page_id = $1', [unextracted]);
        await rt.search.removePages([unextracted]);
        gone = await pageIdOf(rt, `${site.origin}/articles/4.html`);
        await rt.db.query('UPDATE pages SET content_hash = NULL WHERE id = $1', [gone]);
        outdated = await pageIdOf(rt, `${site.origin}/articles/5.html`);
        await rt.db.query(
          "UPDATE extractions SET main_text = main_text || E'\\nzanzibar quokka', extracted_at = extracted_at + interval '1 second' WHERE page_id = $1",
          [outdated],
        );
        assert.equal(await rt.search.count('lost'), site.paths.length - 4);
      } finally {
        await closeAll(services);
        await rt.close();
      }

      // The next process, with an empty private Redis, does that work before anything else.
      rt = await openEmbedded(dataDir);
      try {
        services = await startWorkers(rt);
        await waitForIdle(rt);
        const held = await rt.search.documentVersions();
        assert.deepEqual(held, await indexableVersions(rt.db), 'every document is there, from the current extraction, and no other');
        for (const pageId of [...unindexed, unextracted, outdated]) assert.ok(held.has(pageId), `page ${pageId} indexed`);
        assert.equal(held.has(gone), false, 'the withdrawn page has no document');
        assert.equal(await rt.search.count('lost'), site.paths.length - 1);
        const hits = await search(rt, { q: '"zanzibar quokka"', site: 'lost' });
        assert.deepEqual(
          hits.hits.map((hit) => hit.url),
          [`${site.origin}/articles/5.html`],
        );
        const [failures] = await rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM page_failures');
        assert.equal(failures?.n, 0);
      } finally {
        await closeAll(services);
        await rt.close();
      }

      // Nothing is left to do: a start after a clean end queues nothing.
      rt = await openEmbedded(dataDir);
      try {
        const { findings } = await reconcile(rt, 'start');
        for (const [kind, finding] of Object.entries(findings)) assert.deepEqual(finding, { found: 0, queued: 0 }, kind);
      } finally {
        await rt.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await site.close();
    }
  });
});
