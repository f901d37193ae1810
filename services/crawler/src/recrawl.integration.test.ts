import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, crawlLog, openRuntime, replaceSite, type Runtime, type Service, startCrawl, stopCrawl, updateSite } from '@winnow/runtime';
import { type Crawl, findCrawl, findPageByUrl, findSite } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const ARTICLES = 20;
/** Every page of the site: the home page, an about page, and 20 articles, 22 in all. */
const PATHS = ['/', '/about.html', ...Array.from({ length: ARTICLES }, (_, i) => `/articles/${i + 1}.html`)];

const page = (title: string, links: readonly string[], filler = '') =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> ${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</nav><article><h1>${title}</h1><p>${title}: a page of the recrawled test site, long enough to read as an article.${filler}</p></article></body></html>`;

/** A server on 127.0.0.1 whose pages can change between crawls, with an ETag each, answering `If-None-Match` with 304 as real servers do. */
interface TestSite {
  origin: string;
  /** Path to the body it answers with, to a status with no page, or to where it moved (301); `/robots.txt` is absent (404) until set. */
  pages: Map<string, string | number | { movedTo: string }>;
  /** Every request, by path, and the ones answered 304. */
  requests: string[];
  notModified: string[];
  close(): Promise<void>;
}

async function serveSite(options: { latencyMs?: number } = {}): Promise<TestSite> {
  const pages: TestSite['pages'] = new Map();
  pages.set('/', page('Home', ['/about.html', ...PATHS.filter((path) => path.startsWith('/articles/'))]));
  pages.set('/about.html', page('About', []));
  for (let n = 1; n <= ARTICLES; n++) pages.set(`/articles/${n}.html`, page(`Article ${n}`, n < ARTICLES ? [`/articles/${n + 1}.html`] : []));
  const requests: string[] = [];
  const notModified: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    const answer = () => {
      if (path === '/robots.txt') {
        const robots = pages.get(path);
        return void (typeof robots === 'string' ? response.writeHead(200, { 'content-type': 'text/plain' }).end(robots) : response.writeHead(404).end());
      }
      const body = pages.get(path) ?? 404;
      if (typeof body === 'number') return void response.writeHead(body, { 'content-type': 'text/html' }).end('<p>no such page</p>');
      if (typeof body === 'object') return void response.writeHead(301, { location: body.movedTo }).end();
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      if (request.headers['if-none-match'] === etag) {
        notModified.push(path);
        return void response.writeHead(304, { etag }).end();
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
    };
    if (options.latencyMs) setTimeout(answer, options.latencyMs);
    else answer();
  });
  const origin = await listenOnLoopback(server);
  return {
    origin,
    pages,
    requests,
    notModified,
    close: async () => {
      await closeServer(server);
    },
  };
}

/**
 * Every crawl, the first or a recrawl, starts from the seeds and follows links under the site's
 * current settings; an unchanged page (304) still has its links followed, from its stored body.
 * The crawler runs as a long-lived worker: a site's settings changed just before a crawl apply to it.
 */
describe('a recrawl follows links under the current settings', () => {
  let rt: Runtime;
  let crawler: Service;
  const sites: TestSite[] = [];
  const newSite = async (options: { latencyMs?: number } = {}) => {
    const site = await serveSite(options);
    sites.push(site);
    return site;
  };
  const crawl = async (name: string): Promise<Crawl> => crawlToEnd(rt, (await startCrawl(rt, name)).id);
  const storedPaths = async (name: string, origin: string) => {
    const site = await findSite(rt.db, name);
    const rows = await rt.db.query<{ url: string }>('SELECT url FROM pages WHERE site_id = $1 AND content_hash IS NOT NULL ORDER BY url', [site?.id]);
    return rows.map((row) => row.url.slice(origin.length)).sort();
  };

  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_MAX_PAGE_BYTES: '4096' }));
    crawler = startCrawler(rt);
  });
  after(async () => {
    await crawler.close();
    await rt.close();
    for (const site of sites) await site.close();
  });

  test('a larger maxPages: the recrawl fetches the pages the first crawl left out, and the unchanged ones answer 304', async () => {
    const site = await newSite();
    await addSite(rt, { name: 'capped', seeds: [`${site.origin}/`], maxPages: 5, allowPrivateAddresses: true, templateEveryMs: 0 });
    const first = await crawl('capped');
    assert.equal(first.counts.stored, 5);
    const log = await crawlLog(rt, 'capped');
    assert.deepEqual(
      log.notAdmitted.map((entry) => [entry.reason, entry.urls]),
      [['max-pages', 17]],
    );

    await updateSite(rt, 'capped', { maxPages: 100 });
    const second = await crawl('capped');
    assert.deepEqual({ stored: second.counts.stored, unchanged: second.counts.unchanged }, { stored: 17, unchanged: 5 });
    assert.equal(site.notModified.length, 5, 'the pages stored before answered 304 to their ETags');
    assert.deepEqual(await storedPaths('capped', site.origin), [...PATHS].sort());
    assert.deepEqual((await crawlLog(rt, 'capped')).notAdmitted, [], 'nothing is over maxPages any more');

    // maxPages counts per crawl: a third crawl under a small budget again admits that many through
    // links, all unchanged, then revisits the 17 stored pages it left out, outside that budget.
    await updateSite(rt, 'capped', { maxPages: 5 });
    const third = await crawl('capped');
    assert.deepEqual(
      { stored: third.counts.stored, unchanged: third.counts.unchanged, revisited: third.counts.revisited },
      { stored: 0, unchanged: 22, revisited: 17 },
    );
    assert.deepEqual(
      (await crawlLog(rt, 'capped')).notAdmitted.map((entry) => [entry.reason, entry.urls]),
      [['max-pages', 17]],
      'the links over maxPages are counted as before: the revisits did not use the budget',
    );
  });

  test('links fill maxPages with other pages: every stored page they no longer reach is revisited all the same, and a removed one found gone', async () => {
    const site = await newSite();
    const articles = (from: number) => Array.from({ length: 4 }, (_, i) => `/articles/${from + i}.html`);
    // The home page and articles 1-4 fill maxPages 5 (article 4's link to 5 is over it).
    site.pages.set('/', page('Home', articles(1)));
    await addSite(rt, { name: 'full', seeds: [`${site.origin}/`], maxPages: 5, allowPrivateAddresses: true, templateEveryMs: 0 });
    const first = await crawl('full');
    assert.deepEqual({ stored: first.counts.stored, revisited: first.counts.revisited }, { stored: 5, revisited: 0 });

    // The home page now links to articles 11-14 instead, which fill maxPages again; article 1 is removed.
    site.pages.set('/', page('Home', articles(11)));
    site.pages.set('/articles/1.html', 404);
    const requestsBefore = site.requests.length;
    const second = await crawl('full');
    const asked = site.requests.slice(requestsBefore);
    for (const path of articles(1)) assert.ok(asked.includes(path), `${path}, stored and no longer linked, was revisited`);
    assert.deepEqual(
      { stored: second.counts.stored, unchanged: second.counts.unchanged, gone: second.counts.gone, revisited: second.counts.revisited },
      { stored: 5, unchanged: 3, gone: 1, revisited: 4 },
    );
    assert.ok(!asked.includes('/articles/15.html'), 'maxPages still bounds the pages links lead to');
    assert.deepEqual(
      (await crawlLog(rt, 'full')).notAdmitted.map((entry) => [entry.reason, entry.urls]),
      [['max-pages', 1]],
    );
    assert.equal((await findPageByUrl(rt.db, (await findSite(rt.db, 'full'))?.id ?? 0, `${site.origin}/articles/1.html`))?.contentHash, null);
    const gone = (await crawlLog(rt, 'full', { crawl: second.id, outcomes: ['gone'] })).entries;
    assert.deepEqual(
      gone.map((entry) => [entry.url.slice(site.origin.length), entry.revisit]),
      [['/articles/1.html', true]],
      'the crawl log tells the revisit apart',
    );
    assert.deepEqual(await storedPaths('full', site.origin), ['/', ...articles(1).slice(1), ...articles(11)].sort());

    // A page out of the index is no longer revisited: only links bring it back.
    const third = await crawl('full');
    assert.deepEqual({ gone: third.counts.gone, revisited: third.counts.revisited }, { gone: 0, revisited: 3 });
  });

  test('links fill maxPages: a stored page no link reached that moved is replaced by its target, over no budget; once, not down a chain', async () => {
    const site = await newSite();
    const articles = (from: number) => Array.from({ length: 4 }, (_, i) => `/articles/${from + i}.html`);
    site.pages.set('/', page('Home', articles(1)));
    await addSite(rt, { name: 'moving', seeds: [`${site.origin}/`], maxPages: 5, allowPrivateAddresses: true, templateEveryMs: 0 });
    await crawl('moving');

    // Links to articles 11-14 fill maxPages; article 2 moved to a URL no link reaches, and article 3
    // to one that moved again.
    site.pages.set('/', page('Home', articles(11)));
    site.pages.set('/articles/2.html', { movedTo: '/articles/2-new.html' });
    site.pages.set('/articles/2-new.html', page('Article 2, moved', []));
    site.pages.set('/articles/3.html', { movedTo: '/articles/3-new.html' });
    site.pages.set('/articles/3-new.html', { movedTo: '/articles/3-newer.html' });
    site.pages.set('/articles/3-newer.html', page('Article 3, moved twice', []));
    const second = await crawl('moving');
    assert.deepEqual(
      { stored: second.counts.stored, unchanged: second.counts.unchanged, moved: second.counts.moved, revisited: second.counts.revisited },
      { stored: 6, unchanged: 2, moved: 3, revisited: 6 },
      'home, 11-14 and 2-new stored; 1 and 4 unchanged; 2, 3 and 3-new moved; 1-4 revisited, and 2-new and 3-new in the place of 2 and 3',
    );
    assert.deepEqual(await storedPaths('moving', site.origin), ['/', '/articles/1.html', '/articles/2-new.html', '/articles/4.html', ...articles(11)].sort());
    const log = await crawlLog(rt, 'moving', { crawl: second.id, outcomes: ['moved'] });
    assert.deepEqual(
      log.entries.map((entry) => [entry.url.slice(site.origin.length), entry.revisit]),
      [
        ['/articles/2.html', true],
        ['/articles/3.html', true],
        ['/articles/3-new.html', true],
      ],
    );
    assert.deepEqual(
      log.notAdmitted.map((entry) => [entry.reason, entry.urls, entry.examples.map((url) => url.slice(site.origin.length)).sort()]),
      [['max-pages', 2, ['/articles/15.html', '/articles/3-newer.html']]],
      "a replacement's own redirect is a new URL, held to maxPages like a link",
    );
  });

  test('wider globs: the recrawl follows the links of an unchanged page that the old globs refused', async () => {
    const site = await newSite();
    await addSite(rt, {
      name: 'narrow',
      seeds: [`${site.origin}/`],
      allow: [`${site.origin}/articles/*`],
      allowPrivateAddresses: true,
      templateEveryMs: 0,
    });
    const first = await crawl('narrow');
    assert.equal(first.counts.stored, 21, 'the seed and the 20 articles');
    assert.ok(!(await storedPaths('narrow', site.origin)).includes('/about.html'));

    await updateSite(rt, 'narrow', { allow: null });
    const second = await crawl('narrow');
    assert.deepEqual({ stored: second.counts.stored, unchanged: second.counts.unchanged }, { stored: 1, unchanged: 21 });
    assert.ok(site.notModified.includes('/'), 'the home page answered 304: its links came from its stored body');
    assert.deepEqual(await storedPaths('narrow', site.origin), [...PATHS].sort());
  });

  test('a new seed and no globs (a replaced site): the recrawl reaches every page from the new seed', async () => {
    const site = await newSite();
    await addSite(rt, {
      name: 'replaced',
      seeds: [`${site.origin}/articles/19.html`],
      allow: [`${site.origin}/articles/*`],
      allowPrivateAddresses: true,
      templateEveryMs: 0,
    });
    const first = await crawl('replaced');
    assert.equal(first.counts.stored, 2, 'article 19 and article 20');

    await replaceSite(rt, 'replaced', { name: 'replaced', seeds: [`${site.origin}/articles/20.html`], allowPrivateAddresses: true, templateEveryMs: 0 });
    const second = await crawl('replaced');
    assert.deepEqual({ stored: second.counts.stored, unchanged: second.counts.unchanged }, { stored: 20, unchanged: 2 });
    assert.deepEqual(await storedPaths('replaced', site.origin), [...PATHS].sort());
  });

  test('a stopped crawl: the next one fetches the URLs the stop cancelled', async () => {
    const site = await newSite({ latencyMs: 50 });
    await addSite(rt, { name: 'slow', seeds: [`${site.origin}/`], concurrency: 1, delayMs: 100, allowPrivateAddresses: true, templateEveryMs: 0 });
    const started = await startCrawl(rt, 'slow');
    for (let i = 0; ((await findCrawl(rt.db, started.id))?.counts.stored ?? 0) < 4; i++) {
      assert.ok(i < 2400, 'the crawl stored its first pages');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await stopCrawl(rt, 'slow');
    const stopped = await crawlToEnd(rt, started.id);
    assert.equal(stopped.state, 'stopped');
    assert.ok(stopped.counts.cancelled > 0, `cancelled ${stopped.counts.cancelled}`);
    const before = stopped.counts.stored;
    assert.ok(before < PATHS.length, `stored ${before}`);

    const second = await crawl('slow');
    assert.equal(second.state, 'finished');
    assert.deepEqual({ stored: second.counts.stored, unchanged: second.counts.unchanged }, { stored: PATHS.length - before, unchanged: before });
    assert.deepEqual(await storedPaths('slow', site.origin), [...PATHS].sort());
  });

  test('a URL refused once (HTTP 404, too large) is tried again by the next crawl, through the links of an unchanged page', async () => {
    const site = await newSite();
    site.pages.set('/about.html', 404);
    site.pages.set('/articles/1.html', page('Article 1', ['/articles/2.html'], ' x'.repeat(4000)));
    await addSite(rt, { name: 'comeback', seeds: [`${site.origin}/`], maxDepth: 1, allowPrivateAddresses: true, templateEveryMs: 0 });
    const first = await crawl('comeback');
    const siteRow = await findSite(rt.db, 'comeback');
    const pageOf = (path: string) => findPageByUrl(rt.db, siteRow?.id ?? 0, `${site.origin}${path}`);
    assert.equal(first.counts.refused, 2);
    assert.match((await pageOf('/about.html'))?.fetchError ?? '', /HTTP 404/);
    assert.match((await pageOf('/articles/1.html'))?.fetchError ?? '', /larger than the limit/);

    site.pages.set('/about.html', page('About', []));
    site.pages.set('/articles/1.html', page('Article 1', ['/articles/2.html']));
    const second = await crawl('comeback');
    assert.ok(site.notModified.includes('/'), 'the home page was unchanged');
    assert.deepEqual({ stored: second.counts.stored, refused: second.counts.refused }, { stored: 2, refused: 0 });
    assert.ok((await pageOf('/about.html'))?.contentHash, 'the page that answered 404 came back');
    assert.ok((await pageOf('/articles/1.html'))?.contentHash, 'the page that was too large came back');
  });

  test('a page no link reaches any more is still revisited (and found gone), its links not followed; maxDepth holds on a recrawl', async () => {
    const site = await newSite();
    await addSite(rt, { name: 'orphan', seeds: [`${site.origin}/`], maxDepth: 1, allowPrivateAddresses: true, templateEveryMs: 0 });
    const first = await crawl('orphan');
    // The home page (0), the about page and 20 articles (1): every page.
    assert.equal(first.counts.stored, 22);

    // The home page drops its links to the about page and to articles 10-20; the about page now links to a new page.
    site.pages.set(
      '/',
      page(
        'Home',
        Array.from({ length: 9 }, (_, i) => `/articles/${i + 1}.html`),
      ),
    );
    site.pages.set('/about.html', 410);
    site.pages.set('/articles/20.html', page('Article 20', ['/new.html']));
    site.pages.set('/new.html', page('New', []));
    const requestsBefore = site.requests.length;
    const second = await crawl('orphan');
    const asked = site.requests.slice(requestsBefore);
    assert.ok(asked.includes('/about.html'), 'the page nothing links to was revisited');
    assert.equal(second.counts.gone, 1, 'and found gone');
    assert.ok(asked.includes('/articles/20.html'), 'an unlinked article was revisited');
    assert.ok(!asked.includes('/new.html'), "an unlinked page's links are not followed");
    assert.deepEqual({ stored: second.counts.stored, unchanged: second.counts.unchanged }, { stored: 2, unchanged: 19 });
    const log = await crawlLog(rt, 'orphan');
    assert.deepEqual(
      log.notAdmitted.map((entry) => entry.reason),
      ['max-depth'],
      "the articles' links at maxDepth 1 are counted, the unlinked pages' are not",
    );
  });

  test('globs narrowed: a stored page now outside them leaves the index, unfetched, and the crawl log says why', async () => {
    const site = await newSite();
    await addSite(rt, { name: 'narrowed', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
    assert.equal((await crawl('narrowed')).counts.stored, 22);

    await updateSite(rt, 'narrowed', { allow: [`${site.origin}/articles/*`] });
    const requestsBefore = site.requests.length;
    const second = await crawl('narrowed');
    assert.ok(!site.requests.slice(requestsBefore).includes('/about.html'), 'the page outside the globs was not fetched');
    assert.deepEqual({ gone: second.counts.gone, unchanged: second.counts.unchanged }, { gone: 1, unchanged: 21 });
    assert.deepEqual(await storedPaths('narrowed', site.origin), ['/', ...PATHS.filter((path) => path.startsWith('/articles/'))].sort());
    const gone = (await crawlLog(rt, 'narrowed', { outcomes: ['gone'] })).entries;
    assert.deepEqual(
      gone.map((entry) => [entry.url.slice(site.origin.length), entry.reason]),
      [['/about.html', "outside the site's allowed URLs: removed from the index"]],
    );

    // Widened again: the page comes back, and the earlier crawl's log still says why it went.
    await updateSite(rt, 'narrowed', { allow: null });
    assert.equal((await crawl('narrowed')).counts.stored, 1);
    const earlier = (await crawlLog(rt, 'narrowed', { crawl: second.id, outcomes: ['gone'] })).entries;
    assert.deepEqual(
      earlier.map((entry) => entry.reason),
      ["outside the site's allowed URLs: removed from the index"],
    );
  });

  test('robots.txt changed between crawls: the next crawl, started at once, obeys it; a stored page it disallows leaves the index once, unfetched', async () => {
    const site = await newSite();
    await addSite(rt, { name: 'disallowing', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
    assert.equal((await crawl('disallowing')).counts.stored, 22);

    // robots.txt is kept for WINNOW_ROBOTS_TTL_MS (1 h here) within a crawl, never into the next one.
    site.pages.set('/robots.txt', 'User-agent: *\nDisallow: /articles/3.html\nDisallow: /never-stored.html # linked from the about page\n');
    site.pages.set('/about.html', page('About', ['/never-stored.html']));
    const requestsBefore = site.requests.length;
    const second = await crawl('disallowing');
    const asked = site.requests.slice(requestsBefore);
    assert.ok(!asked.includes('/articles/3.html') && !asked.includes('/never-stored.html'));
    assert.equal(asked.filter((path) => path === '/robots.txt').length, 1, 'robots.txt fetched once by the crawl, not once a page');
    assert.deepEqual({ gone: second.counts.gone, disallowed: second.counts.disallowed }, { gone: 1, disallowed: 1 });
    assert.equal((await findPageByUrl(rt.db, (await findSite(rt.db, 'disallowing'))?.id ?? 0, `${site.origin}/articles/3.html`))?.contentHash, null);
    const log = (await crawlLog(rt, 'disallowing', { outcomes: ['gone', 'disallowed'] })).entries;
    assert.deepEqual(
      log.map((entry) => [entry.outcome, entry.url.slice(site.origin.length), entry.reason]),
      [
        ['gone', '/articles/3.html', 'robots.txt line 2: Disallow: /articles/3.html: removed from the index'],
        ['disallowed', '/never-stored.html', 'robots.txt line 3: Disallow: /never-stored.html'],
      ],
    );

    // A third crawl: the page left the index in the second, and is now only disallowed.
    const third = await crawl('disallowing');
    assert.deepEqual({ gone: third.counts.gone, disallowed: third.counts.disallowed }, { gone: 0, disallowed: 2 });
  });
});

describe("a robots.txt kept for less than the host's delay (1 s against 2.5 s)", () => {
  test('still lets the pages out', async () => {
    const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_ROBOTS_TTL_MS: '1000' }));
    const crawler = startCrawler(rt);
    const site = await serveSite();
    try {
      site.pages.set('/robots.txt', 'User-agent: *\nDisallow: /private/\n');
      await addSite(rt, { name: 'patient', seeds: [`${site.origin}/`], maxPages: 3, delayMs: 2500, allowPrivateAddresses: true, templateEveryMs: 0 });
      const crawled = await crawlToEnd(rt, (await startCrawl(rt, 'patient')).id);
      assert.deepEqual({ state: crawled.state, stored: crawled.counts.stored }, { state: 'finished', stored: 3 });
    } finally {
      await crawler.close();
      await rt.close();
      await site.close();
    }
  });
});
