import assert from 'node:assert/strict';
import type { DemoWeb } from '@winnow/demo-corpus';
import { addSite, removeSite, search, startCrawl, waitForIdle, type Runtime } from '@winnow/runtime';
import type { ElasticsearchIndex } from '@winnow/search';
import type { HoldingIndex } from '@winnow/search/testing';
import { demoPhrases } from '../commands/demo.js';
import { pagesWithPhrase } from './phrases.js';

/**
 * Scenarios of sites that crawl the same URLs, for the embedded pipeline with either index: the
 * workers must run on a runtime whose index is `holding` (so that a write can be held), the
 * operations on `rt`.
 */

/** Makes every write so far searchable (Elasticsearch refreshes each second on its own). */
export async function refreshIndex(rt: Runtime): Promise<void> {
  if (rt.search.kind === 'elasticsearch') await (rt.search as ElasticsearchIndex).refresh();
}

const siteOn = (name: string, origin: string) => ({ name, seeds: [`${origin}/`], minTemplatePages: 4, templateEveryMs: 0, allowPrivateAddresses: true });

/** URLs a query finds among one site's documents. */
async function urlsFound(rt: Runtime, q: string, site?: string): Promise<{ urls: string[]; sites: string[] }> {
  const result = await search(rt, { q, site, size: 100 });
  assert.ok(result.total <= 100, 'one page of results holds every hit');
  return { urls: result.hits.map((hit) => hit.url).sort(), sites: [...new Set(result.hits.map((hit) => hit.site))].sort() };
}

/**
 * Two sites seeded with the demo web's one site crawl the same URLs: each is fully indexed and
 * found on its own; removing the first leaves every document of the second.
 */
export async function twoSitesOnOneOrigin(rt: Runtime, web: DemoWeb, [first, second]: readonly [string, string]): Promise<void> {
  const [demo] = web.sites;
  assert.ok(demo && web.sites.length === 1);
  for (const name of [first, second]) {
    await addSite(rt, siteOn(name, demo.origin));
    await startCrawl(rt, name);
  }
  await waitForIdle(rt);
  await refreshIndex(rt);
  const { acrossBlocks } = demoPhrases(demo);
  const expected = pagesWithPhrase(web, acrossBlocks);
  assert.ok(expected.length > 0);
  for (const name of [first, second]) {
    assert.equal(await rt.search.count(name), demo.pages.length, `${name}: every page is indexed`);
    assert.deepEqual(await urlsFound(rt, `"${acrossBlocks}"`, name), { urls: expected, sites: [name] }, `${name}: the phrase finds its own pages`);
  }
  assert.equal((await rt.queues.counts()).index.failed, 0);

  await removeSite(rt, first);
  await refreshIndex(rt);
  assert.equal(await rt.search.count(first), 0);
  assert.equal(await rt.search.count(second), demo.pages.length, `${second} keeps every document`);
  assert.deepEqual(await urlsFound(rt, `"${acrossBlocks}"`), { urls: expected, sites: [second] });
}

/**
 * A site on the same origin as `survivor` is removed mid-crawl while one of its indexer batches
 * has read its pages and is held before writing them (pages are still being crawled, extracted
 * and indexed); once the pipeline is idle, no document of the removed site is left, its index
 * jobs did not fail, and the survivor's documents of the same URLs are all there.
 */
export async function removedMidCrawl(rt: Runtime, holding: HoldingIndex, web: DemoWeb, removed: string, survivor: string): Promise<void> {
  const [demo] = web.sites;
  assert.ok(demo);
  const survivorDocuments = await rt.search.count(survivor);
  await addSite(rt, siteOn(removed, demo.origin));
  let writes = 0;
  // The third write of the site's documents: earlier ones are in the index, later pages are on their way.
  const hold = holding.holdWrite((documents) => documents.some((document) => document.site === removed) && ++writes === 3);
  await startCrawl(rt, removed);
  await hold.held;
  await removeSite(rt, removed);
  hold.release();
  await waitForIdle(rt);
  await refreshIndex(rt);
  assert.equal(await rt.search.count(removed), 0, 'no document of the removed site is left');
  assert.equal((await search(rt, { q: `"${demoPhrases(demo).acrossBlocks}"`, size: 100 })).hits.filter((hit) => hit.site === removed).length, 0);
  assert.equal((await rt.queues.counts()).index.failed, 0, 'index jobs of vanished pages are skipped, not failed');
  assert.equal(await rt.search.count(survivor), survivorDocuments, `${survivor}'s documents of the same URLs stay`);
}
