import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { loadEnv, type SiteConfigInput } from '@winnow/config';
import { addSite, openRuntime, type Runtime, startCrawl } from '@winnow/runtime';
import { type Crawl, crawlLog, findSite, type NotAdmitted, notAdmitted } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

let rt: Runtime;

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;
const index = (locs: string[]) => xml(`<sitemapindex>${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('')}</sitemapindex>`);
const urlset = (locs: string[]) => xml(`<urlset>${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('')}</urlset>`);
const html = (path: string) => `<html><body><p>The page at ${path}, with words enough to be a page of the site.</p></body></html>`;

/** A site on 127.0.0.1 whose sitemaps `sitemap(path, origin)` writes (null: not a sitemap); every other path is a page. */
async function serveSite(sitemap: (path: string, origin: string) => string | null): Promise<{ origin: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  let origin = '';
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push(path);
    if (path === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const body = sitemap(path, origin);
    if (body !== null) return void response.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(path));
  });
  origin = await listenOnLoopback(server);
  return {
    origin,
    seen,
    close: async () => {
      await closeServer(server);
    },
  };
}

/** Every sitemap of this site, `/sitemap.xml` first, is an index of `width` sitemaps never seen before: a tree without end. */
const endlessSitemaps = (width: number) => (path: string, origin: string) =>
  path === '/sitemap.xml' || path.startsWith('/sm/')
    ? index(Array.from({ length: width }, (_, i) => `${origin}/sm/${path === '/sitemap.xml' ? 'root' : path.slice(4, -4)}-${i}.xml`))
    : null;

const isSitemap = (path: string) => path === '/sitemap.xml' || path.startsWith('/sm/');

async function crawlSite(
  config: SiteConfigInput,
): Promise<{ crawl: Crawl; refusedSitemaps: { url: string; reason: string | null }[]; notAdmitted: Omit<NotAdmitted, 'crawlId' | 'firstAt'>[] }> {
  const crawler = startCrawler(rt);
  try {
    await addSite(rt, { allowPrivateAddresses: true, templateEveryMs: 0, sitemaps: true, maxDepth: 0, ...config });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, config.name)).id);
    const site = await findSite(rt.db, config.name);
    assert.ok(site);
    const log = await crawlLog(rt.db, site.id, { outcomes: ['refused'], crawlId: crawl.id, offset: 0, limit: 1000 });
    return {
      crawl,
      refusedSitemaps: log.entries.filter((entry) => entry.kind === 'sitemap').map(({ url, reason }) => ({ url, reason })),
      notAdmitted: (await notAdmitted(rt.db, crawl.id)).map(({ reason, urls, examples }) => ({ reason, urls, examples })),
    };
  } finally {
    await crawler.close();
  }
}

before(async () => {
  rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
});

after(async () => {
  await rt.close();
});

test('a sitemap tree without end: the crawl ends within its sitemap budget and its page budget', async () => {
  const site = await serveSite(endlessSitemaps(1000));
  try {
    const { crawl, notAdmitted } = await crawlSite({ name: 'endless', seeds: [`${site.origin}/`], maxPages: 5, maxSitemaps: 20 });
    assert.equal(crawl.state, 'finished');
    const sitemapsFetched = site.seen.filter(isSitemap);
    assert.equal(sitemapsFetched.length, 20, 'the 20 sitemaps of the budget, no more');
    assert.equal(new Set(sitemapsFetched).size, 20, 'each once');
    // /sitemap.xml lists 1,000: 19 fill the budget. (The 19 are indexes listed by an index: what they list is refused, not offered.)
    assert.deepEqual(notAdmitted, [{ reason: 'max-sitemaps', urls: 981, examples: [19, 20, 21, 22, 23].map((i) => `${site.origin}/sm/root-${i}.xml`) }]);
  } finally {
    await site.close();
  }
});

test('a sitemap index listed by a sitemap index is not followed, and the crawl log says why', async () => {
  const site = await serveSite(endlessSitemaps(3));
  try {
    const { crawl, refusedSitemaps } = await crawlSite({ name: 'nested', seeds: [`${site.origin}/`] });
    assert.equal(crawl.state, 'finished');
    assert.deepEqual(site.seen.filter(isSitemap).sort(), ['/sitemap.xml', '/sm/root-0.xml', '/sm/root-1.xml', '/sm/root-2.xml']);
    assert.deepEqual(
      refusedSitemaps.map((entry) => entry.url).sort(),
      [0, 1, 2].map((i) => `${site.origin}/sm/root-${i}.xml`),
    );
    for (const { reason } of refusedSitemaps) {
      assert.equal(reason, 'a sitemap index listed by a sitemap index: its 3 sitemaps are not followed (sitemaps.org allows one level of indexes)');
    }
  } finally {
    await site.close();
  }
});

test('a sitemap index of urlsets still yields their pages, held to maxPages', async () => {
  const pages = (part: string) => Array.from({ length: 3 }, (_, i) => `/listed/${part}-${i}.html`);
  const site = await serveSite((path, origin) => {
    if (path === '/sitemap.xml') return index([`${origin}/sm/a.xml`, `${origin}/sm/b.xml`]);
    if (path === '/sm/a.xml' || path === '/sm/b.xml') return urlset(pages(path.slice(4, 5)).map((page) => `${origin}${page}`));
    return null;
  });
  try {
    const { crawl } = await crawlSite({ name: 'two-levels', seeds: [`${site.origin}/`] });
    assert.equal(crawl.state, 'finished');
    for (const page of [...pages('a'), ...pages('b')]) assert.ok(site.seen.includes(page), `${page} was fetched`);

    site.seen.length = 0;
    const capped = await crawlSite({ name: 'two-levels-capped', seeds: [`${site.origin}/`], maxPages: 3 });
    assert.equal(capped.crawl.state, 'finished');
    const fetched = site.seen.filter((path) => path === '/' || path.startsWith('/listed/'));
    assert.equal(fetched.length, 3, `maxPages 3 admits the seed and two listed pages: ${fetched.join(' ')}`);
    const overBudget = capped.notAdmitted.find((count) => count.reason === 'max-pages');
    assert.deepEqual([capped.notAdmitted.length, overBudget?.urls], [1, 4], 'the four listed pages the budget left out are counted');
    const listed = [...pages('a'), ...pages('b')].map((page) => `${site.origin}${page}`);
    assert.ok(
      overBudget?.examples.every((url) => listed.includes(url) && !fetched.includes(new URL(url).pathname)),
      JSON.stringify(overBudget),
    );
  } finally {
    await site.close();
  }
});
