import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv, parseSiteConfig } from '@winnow/config';
import { openRuntime, type Runtime, search } from '@winnow/runtime';
import { parseQuery } from '@winnow/search';
import { findPageByUrl, insertCrawl, insertSite, markPageGone, pagesStoodFor, saveExtraction, siteCounts, storeFetchedPage } from '@winnow/storage';
import { createScratchDatabase, type ScratchDatabase } from '@winnow/storage/testing';
import { indexPages } from './index.js';

const origin = 'http://127.0.0.1:9';

/** Stores a fetched page of `siteId` with its body and an extraction of it, as the crawler and extractor would; returns its id. */
async function storedPage(rt: Runtime, siteId: number, path: string, body: string, canonical?: string): Promise<number> {
  const { pageId, contentHash } = await storeFetchedPage(
    rt.db,
    {
      siteId,
      url: `${origin}${path}`,
      crawlId: null,
      status: 200,
      headers: {},
      contentType: 'text/html',
      canonicalUrl: canonical === undefined ? null : `${origin}${canonical}`,
    },
    Buffer.from(body),
  );
  await saveExtraction(rt.db, {
    pageId,
    contentHash,
    method: 'reader',
    templateId: null,
    templateVersion: null,
    title: null,
    headline: null,
    blocks: [],
    mainText: body.replace(/<[^>]+>/g, ' ').trim(),
    warnings: [],
    needsReextract: false,
    readAlone: false,
    wordCount: 0,
  });
  return pageId;
}

for (const kind of ['pglite', 'postgres'] as const)
  describe(`duplicate pages of a site are indexed once (${kind}, Postgres index)`, () => {
    let scratch: ScratchDatabase | undefined;
    let rt: Runtime;
    let siteCount = 0;
    before(async () => {
      scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
      rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', ...(scratch ? { DATABASE_URL: scratch.url } : {}) }));
    });
    after(async () => {
      await rt.close();
      await scratch?.drop();
    });

    const newSite = async () => {
      const name = `dupes-${++siteCount}`;
      const site = await insertSite(rt.db, parseSiteConfig({ name, seeds: [`${origin}/`], templateEveryMs: 0, allowPrivateAddresses: true }));
      const hits = async (words: string) =>
        (await rt.search.search({ query: parseQuery(words), sites: [name], offset: 0, limit: 10 })).hits.map((hit) => hit.url.slice(origin.length)).sort();
      const duplicateOf = async (path: string) => (await findPageByUrl(rt.db, site.id, `${origin}${path}`))?.duplicateOf?.slice(origin.length) ?? null;
      return { id: site.id, name, hits, duplicateOf };
    };

    test('byte-identical bodies: one document, under the shortest URL; a longer one indexed before is removed', async () => {
      const site = await newSite();
      const article = '<p>The harbour of Besançon reopened article three</p>';
      const home = '<p>Home page listing the harbour news</p>';
      const section = '<p>Section page about the lighthouse</p>';
      const first = await storedPage(rt, site.id, '/article/3.html?ref=home', article);
      await indexPages(rt, [first]);
      assert.deepEqual(await site.hits('harbour reopened'), ['/article/3.html?ref=home'], 'alone, the page stands for itself');

      const ids = [
        await storedPage(rt, site.id, '/article/3.html', article),
        await storedPage(rt, site.id, '/page/1', home),
        await storedPage(rt, site.id, '/', home),
        await storedPage(rt, site.id, '/section/world', section),
        await storedPage(rt, site.id, '/section/sport/', section),
      ];
      const batch = await indexPages(rt, ids);
      assert.deepEqual(await site.hits('harbour reopened'), ['/article/3.html'], 'one hit for the article; the longer URL indexed before is gone');
      assert.deepEqual(await site.hits('harbour news'), ['/']);
      assert.deepEqual(await site.hits('lighthouse'), ['/section/world']);
      assert.equal(await site.duplicateOf('/article/3.html?ref=home'), '/article/3.html', 'the duplicate is recorded with the URL that stands for it');
      assert.equal(await site.duplicateOf('/page/1'), '/');
      assert.equal(await site.duplicateOf('/section/sport/'), '/section/world');
      assert.equal(await site.duplicateOf('/'), null);
      assert.deepEqual(
        [...batch.duplicates.values()].map((url) => url.slice(origin.length)).sort(),
        ['/', '/section/world'],
        'the jobs of duplicates say so, with the URL',
      );
      assert.equal(batch.indexed.length, 3);
      const counts = (await siteCounts(rt.db)).find((row) => row.site === site.name);
      assert.equal(counts?.duplicates, 3, "the site's status counts them");
      const alsoAt = async (q: string) =>
        (await search(rt, { q, site: site.name })).hits.map((hit) => ({
          url: hit.url.slice(origin.length),
          alsoAt: hit.alsoAt.map((url) => url.slice(origin.length)),
          total: hit.alsoAtTotal,
        }));
      assert.deepEqual(
        await alsoAt('harbour reopened'),
        [{ url: '/article/3.html', alsoAt: ['/article/3.html?ref=home'], total: 1 }],
        'a hit names the URLs it stands for',
      );
      assert.deepEqual(await alsoAt('lighthouse'), [{ url: '/section/world', alsoAt: ['/section/sport/'], total: 1 }]);
      await indexPages(rt, [await storedPage(rt, site.id, '/article/3.html?ref=rss', article)]);
      const [stoodFor] = (await pagesStoodFor(rt.db, [{ site: site.name, url: `${origin}/article/3.html` }], 1)).values();
      assert.deepEqual(stoodFor, { urls: [`${origin}/article/3.html?ref=home`], total: 2 }, 'the first URLs, and how many in all');
    });

    test('a page naming another page of the site as canonical is indexed under that one, once it can be; a canonical elsewhere or in a loop is not followed', async () => {
      const site = await newSite();
      const story = await storedPage(rt, site.id, '/story?id=7', '<nav>print view</nav><p>The ferry timetable changes in spring</p>', '/stories/7');
      await indexPages(rt, [story]);
      assert.deepEqual(await site.hits('ferry timetable'), ['/story?id=7'], 'its canonical is not fetched yet: it stands for itself meanwhile');

      const canonical = await storedPage(rt, site.id, '/stories/7', '<p>The ferry timetable changes in spring</p>', '/stories/7');
      await indexPages(rt, [canonical]);
      assert.deepEqual(await site.hits('ferry timetable'), ['/stories/7']);
      assert.equal(await site.duplicateOf('/story?id=7'), '/stories/7');
      const [hit] = (await search(rt, { q: 'ferry timetable', site: site.name })).hits;
      assert.deepEqual(hit?.alsoAt, [`${origin}/story?id=7`], 'a hit names the pages that name it canonical');

      const outside = await storedPage(rt, site.id, '/mirror', '<p>A mirrored tide table</p>', '/not-a-page-of-this-site');
      const loopA = await storedPage(rt, site.id, '/loop/a', '<p>Loop page alpha words</p>', '/loop/b');
      const loopB = await storedPage(rt, site.id, '/loop/b', '<p>Loop page beta words</p>', '/loop/a');
      await indexPages(rt, [outside, loopA, loopB]);
      assert.deepEqual(await site.hits('tide table'), ['/mirror']);
      assert.deepEqual(await site.hits('loop page'), ['/loop/a', '/loop/b'], 'a canonical that names another canonical is no original: nothing vanishes');
    });

    test('recrawls and removals keep it so: a duplicate whose original is gone, or changed, or no longer named, is indexed', async () => {
      const site = await newSite();
      const body = '<p>Weather report for the coast</p>';
      const home = await storedPage(rt, site.id, '/', body);
      const list = await storedPage(rt, site.id, '/page/1', body);
      const print = await storedPage(rt, site.id, '/print/1', '<p>Printable weather report for the coast</p>', '/');
      await indexPages(rt, [home, list, print]);
      assert.deepEqual(await site.hits('weather coast'), ['/']);

      // The original is gone (a recrawl answered 404): the crawler marks it and asks for its index job.
      await markPageGone(rt.db, home, (await insertCrawl(rt.db, site.id)).id, 404, 'HTTP 404: the page is gone');
      await indexPages(rt, [home]);
      assert.deepEqual(await site.hits('weather coast'), ['/page/1', '/print/1'], 'both of its duplicates stand for themselves now');
      assert.equal(await site.duplicateOf('/page/1'), null);
      assert.equal(await site.duplicateOf('/print/1'), null);

      // It comes back, then its body changes: the page that had the same body stands for itself again.
      await indexPages(rt, [await storedPage(rt, site.id, '/', body)]);
      assert.deepEqual(await site.hits('weather coast'), ['/']);
      await indexPages(rt, [await storedPage(rt, site.id, '/', '<p>Weather report for the coast, updated at noon</p>')]);
      assert.deepEqual(await site.hits('weather coast'), ['/', '/page/1'], 'the print view still names / as canonical');
      assert.equal(await site.duplicateOf('/print/1'), '/');

      // The print view stops naming a canonical (a new body): it stands for itself.
      await indexPages(rt, [await storedPage(rt, site.id, '/print/1', '<p>Printable weather report for the coast, no canonical</p>')]);
      assert.deepEqual(await site.hits('weather coast'), ['/', '/page/1', '/print/1']);
    });
  });
