import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, recrawlScheduleId, removeSite, type Runtime, type Service, startCrawl, stopCrawl, updateSite } from '@winnow/runtime';
import { findCrawl, findPageByUrl, findSite, latestCrawl } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { serveGeneratedSite } from './testing/generatedSite.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const article = (n: number, links: string) =>
  `<html><head><title>Page ${n}</title></head><body><nav>${links}</nav><article><p>Paragraph number ${n} of the test site, long enough to read.</p></article></body></html>`;

/** A server on 127.0.0.1 that records the requests it receives: nothing may reach it. */
async function canaryServer(): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>internal admin page: secret words</p>');
  });
  await listenOnLoopback(server);
  return { server, port: (server.address() as AddressInfo).port, hits };
}

/** A small site with every kind of response a crawl must survive, on 127.0.0.1. */
function testSite(canaryPort: () => number): Server {
  const links = ['/a.html', '/b.html', '/big.html', '/file.pdf', '/missing.html', '/private/secret.html', '/same.html']
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' ');
  return createServer((request, response) => {
    const html = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    switch (request.url) {
      case '/robots.txt':
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      case '/':
        return void html(article(0, links));
      case '/a.html':
        return void html(article(1, links));
      case '/b.html':
        return void html(article(2, links));
      case '/same.html':
        return void html(article(1, links)); // the same bytes as /a.html
      case '/big.html':
        return void html(`<html><body><p>${'x'.repeat(8000)}</p></body></html>`);
      case '/file.pdf':
        return void response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 binary');
      case '/private/secret.html':
        return void html(article(99, ''));
      case '/to-internal':
        return void response.writeHead(302, { location: `http://127.0.0.1:${canaryPort()}/admin` }).end();
      case '/to-metadata':
        return void response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      case '/redirects':
        return void html(article(3, '<a href="/to-internal">internal</a> <a href="/to-metadata">metadata</a>'));
      default:
        return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
    }
  });
}

describe('crawling a site', () => {
  let rt: Runtime;
  let crawler: Service;
  let server: Server;
  let origin: string;
  let canary: Awaited<ReturnType<typeof canaryServer>>;
  before(async () => {
    canary = await canaryServer();
    server = testSite(() => canary.port);
    origin = await listenOnLoopback(server);
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_MAX_PAGE_BYTES: '4096' }));
    // canary.test stands for a public-looking name whose DNS answer is an internal address.
    crawler = startCrawler(rt, { resolve: async (hostname) => (hostname === 'canary.test' ? ['127.0.0.1'] : []) });
  });
  after(async () => {
    await crawler.close();
    await rt.close();
    for (const listening of [server, canary.server]) {
      await closeServer(listening);
    }
  });

  test('stores HTML pages once by content hash, records refused responses with their reason, honours robots.txt', async () => {
    await addSite(rt, { name: 'mixed', seeds: [`${origin}/`], templateEveryMs: 0, allowPrivateAddresses: true });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'mixed')).id);
    assert.equal(crawl.state, 'finished');
    const site = await findSite(rt.db, 'mixed');
    assert.ok(site);
    const page = (path: string) => findPageByUrl(rt.db, site.id, `${origin}${path}`);
    for (const path of ['/', '/a.html', '/b.html', '/same.html']) assert.ok((await page(path))?.contentHash, `${path} stored`);
    assert.equal((await page('/same.html'))?.contentHash, (await page('/a.html'))?.contentHash);
    const [{ bodies }] = (await rt.db.query<{ bodies: number }>('SELECT count(*)::int AS bodies FROM raw_pages')) as [{ bodies: number }];
    assert.equal(bodies, 3, 'identical bodies are stored once');
    assert.match((await page('/big.html'))?.fetchError ?? '', /larger than the limit of 4096/);
    assert.match((await page('/file.pdf'))?.fetchError ?? '', /not HTML: application\/pdf/);
    assert.match((await page('/missing.html'))?.fetchError ?? '', /HTTP 404/);
    for (const path of ['/big.html', '/file.pdf', '/missing.html']) assert.equal((await page(path))?.contentHash, null);
    assert.equal(await page('/private/secret.html'), undefined, 'robots.txt disallows it');
    assert.equal(crawl.counts.stored, 4);
    assert.equal(crawl.counts.refused, 3, 'too large, not HTML, HTTP 404');
    assert.equal(crawl.counts.disallowed, 1);
    const extractJobs = await rt.queues.queue('extract').getJobs(['waiting']);
    assert.equal(extractJobs.length, 4, 'only stored pages are enqueued, by id');
    assert.ok(extractJobs.every((job) => Object.keys(job.data).join() === 'pageId'));
  });

  test("a site's recrawl schedule starts crawls on its own, and goes with the site", async () => {
    const site = await addSite(rt, { name: 'scheduled', seeds: [`${origin}/`], allowPrivateAddresses: true, templateEveryMs: 0, recrawlEveryMs: 1000 });
    const schedulers = async () => (await rt.queues.queue('crawl').getJobSchedulers()).map((scheduler) => scheduler.key);
    assert.ok((await schedulers()).includes(recrawlScheduleId(site.id)));
    let crawl: Awaited<ReturnType<typeof latestCrawl>>;
    for (let i = 0; i < 600 && !(crawl = await latestCrawl(rt.db, site.id)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(crawl, 'the schedule started a crawl');
    await crawlToEnd(rt, crawl.id);
    await removeSite(rt, 'scheduled');
    assert.ok(!(await schedulers()).includes(recrawlScheduleId(site.id)), 'removing the site removes its schedule');
  });

  test('a malformed seed or an unknown site is refused with a clear error', async () => {
    await assert.rejects(addSite(rt, { name: 'bad', seeds: ['not a url'] }), /seeds\.0: must be an absolute http\(s\) URL/);
    await assert.rejects(addSite(rt, { name: 'Bad Name', seeds: [`${origin}/`], allowPrivateAddresses: true }), /name: must be 1-63 lowercase/);
    await assert.rejects(startCrawl(rt, 'nosuch'), /no site named "nosuch"/);
  });

  test('a site whose stored settings this version refuses does not crawl, and says what to fix; fixed, it crawls', async () => {
    await addSite(rt, { name: 'legacy', seeds: [`${origin}/`], templateEveryMs: 0, allowPrivateAddresses: true });
    // As an earlier version stored it: a glob written as a path, which matches nothing and is now refused.
    await rt.db.query(`UPDATE sites SET config = jsonb_set(config, '{allow}', '["/articles/**"]') WHERE name = 'legacy'`);
    const refused = await crawlToEnd(rt, (await startCrawl(rt, 'legacy')).id);
    assert.equal(refused.state, 'failed');
    assert.match(
      refused.error ?? '',
      /site "legacy" has settings this version refuses \(.*allow\.0: glob "\/articles\/\*\*" refused.*\): fix them with `winnow sites update`/,
    );
    assert.equal(refused.counts.stored, 0, 'nothing was fetched under the refused glob');
    await updateSite(rt, 'legacy', { allow: null });
    assert.equal((await crawlToEnd(rt, (await startCrawl(rt, 'legacy')).id)).state, 'finished');
  });

  test("an operator's stop ends a crawl early", async () => {
    await addSite(rt, { name: 'stopped', seeds: [`${origin}/`], templateEveryMs: 0, concurrency: 1, delayMs: 300, allowPrivateAddresses: true });
    const crawl = await startCrawl(rt, 'stopped');
    // Stopped once under way: its first page stored, the next ones paced 300 ms apart.
    for (let i = 0; ((await findCrawl(rt.db, crawl.id))?.counts.stored ?? 0) === 0; i++) {
      assert.ok(i < 600, 'the crawl stored its first page');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stopCrawl(rt, 'stopped');
    const ended = await crawlToEnd(rt, crawl.id);
    assert.equal(ended.state, 'stopped');
    assert.ok(ended.counts.stored < 4, `stored ${ended.counts.stored}`);
  });

  test('a redirect to an internal address or outside the allowed URLs is refused and recorded; nothing reaches the target', async () => {
    await addSite(rt, { name: 'redirects', seeds: [`${origin}/redirects`], allowPrivateAddresses: true, templateEveryMs: 0 });
    await crawlToEnd(rt, (await startCrawl(rt, 'redirects')).id);
    const site = await findSite(rt.db, 'redirects');
    const page = (path: string) => findPageByUrl(rt.db, site?.id ?? 0, `${origin}${path}`);
    assert.match((await page('/to-internal'))?.fetchError ?? '', /redirect to http:\/\/127\.0\.0\.1:\d+\/admin refused: outside the site's allowed URLs/);
    assert.match((await page('/to-metadata'))?.fetchError ?? '', /redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/ refused/);

    // A site cannot allow every URL: its globs stay on its seeds' hosts.
    await assert.rejects(
      addSite(rt, { name: 'open-globs', seeds: [`${origin}/to-metadata`], allow: ['http://**'], allowPrivateAddresses: true, templateEveryMs: 0 }),
      /glob "http:\/\/\*\*" refused: its host "\*\*" is not a seed's host/,
    );
    assert.equal(canary.hits.length, 0, 'the internal server was never reached');
  });

  test('a seed whose host name resolves to an internal address is refused at the connection, and the crawl says nothing could be fetched', async () => {
    await addSite(rt, { name: 'rebind', seeds: [`http://canary.test:${canary.port}/admin`], templateEveryMs: 0 });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'rebind')).id);
    assert.equal(crawl.state, 'failed');
    assert.match(crawl.error ?? '', /nothing could be fetched: refused: canary\.test resolves to .*127\.0\.0\.1 is a private address/);
    const site = await findSite(rt.db, 'rebind');
    const page = await findPageByUrl(rt.db, site?.id ?? 0, `http://canary.test:${canary.port}/admin`);
    assert.match(page?.fetchError ?? '', /refused: canary\.test resolves to/);
    assert.equal(page?.contentHash, null);
    assert.equal(canary.hits.length, 0, 'the internal server was never reached');
    assert.equal((await findCrawl(rt.db, crawl.id))?.counts.refused, 1);
  });

  test('an unreachable seed says "connection refused"', async () => {
    const closed = createServer();
    await listenOnLoopback(closed);
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await addSite(rt, { name: 'unreachable', seeds: [`http://127.0.0.1:${port}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'unreachable')).id);
    assert.equal(crawl.state, 'failed');
    assert.match(crawl.error ?? '', /nothing could be fetched: .*connection refused/);
  });
});

/** The blocks below share one embedded runtime and crawler; each test crawls a site of its own name. */
describe('an embedded crawler', () => {
  let rt: Runtime;
  let crawler: Service;
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    crawler = startCrawler(rt);
  });
  after(async () => {
    await crawler.close();
    await rt.close();
  });

  describe('politeness towards a site', () => {
    test('every request names Winnow, and the robots.txt group for winnowbot is the one obeyed', async () => {
      const site = await serveGeneratedSite({
        pages: 4,
        robotsTxt: 'User-agent: winnowbot\nDisallow: /articles/2.html\n\nUser-agent: *\nDisallow: /\n',
      });
      try {
        await addSite(rt, { name: 'agent', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'agent')).id);
        assert.equal(crawl.state, 'finished');
        assert.equal(site.hits('/articles/1.html'), 1, 'allowed to winnowbot although disallowed to everyone else');
        assert.equal(site.hits('/articles/2.html'), 0, "disallowed by winnowbot's own group");
        assert.equal(crawl.counts.disallowed, 1);
        assert.ok(site.requests.length > 3);
        assert.ok(
          site.requests.every((request) => request.userAgent === rt.env.WINNOW_USER_AGENT),
          'robots.txt included, every request carries the configured User-Agent',
        );
        assert.match(rt.env.WINNOW_USER_AGENT, /^WinnowBot\/[\d.]+ \(\+https?:\/\/\S+\)$/);
      } finally {
        await site.close();
      }
    });

    test('a 429 with Retry-After backs the whole host off, then the page is fetched', async () => {
      let busyAt = 0;
      const site = await serveGeneratedSite({
        pages: 2,
        override: (request, response, seen) => {
          if (request.url !== '/articles/1.html' || seen > 1) return false;
          busyAt = Date.now();
          response.writeHead(429, { 'retry-after': '2', 'content-type': 'text/plain' }).end('slow down');
          return true;
        },
      });
      try {
        await addSite(rt, { name: 'busy', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0, concurrency: 1 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'busy')).id);
        assert.equal(crawl.counts.stored, site.paths.length, 'the page refused with 429 was fetched again');
        const after429 = site.requests.filter((request) => request.at > busyAt).map((request) => request.at - busyAt);
        assert.ok(after429.length > 0);
        assert.ok(Math.min(...after429) >= 2000, `the host was asked again ${Math.min(...after429)} ms after its Retry-After: 2`);
      } finally {
        await site.close();
      }
    });

    test('a robots.txt answering 503 is asked again after its Retry-After, and the crawl goes on once it answers', async () => {
      const site = await serveGeneratedSite({
        pages: 2,
        override: (request, response, seen) => {
          if (request.url !== '/robots.txt' || seen > 2) return false;
          response.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain' }).end('down for maintenance');
          return true;
        },
      });
      try {
        await addSite(rt, { name: 'robots-back', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'robots-back')).id);
        assert.equal(crawl.state, 'finished');
        assert.equal(site.hits('/robots.txt'), 3, 'two 503s, then the rules');
        assert.equal(crawl.counts.stored, site.paths.length);
        const robots = site.requests.filter((request) => request.path === '/robots.txt').map((request) => request.at);
        assert.ok((robots[2] as number) - (robots[0] as number) >= 2000, 'each try waited for the Retry-After');
        assert.equal(site.hits('/'), 1, 'nothing else was fetched while robots.txt failed');
      } finally {
        await site.close();
      }
    });

    test('a robots.txt that keeps answering 503 fails the crawl after a bounded number of tries, saying so', async () => {
      const site = await serveGeneratedSite({
        pages: 2,
        override: (request, response) => {
          if (request.url !== '/robots.txt') return false;
          response.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain' }).end('down');
          return true;
        },
      });
      try {
        await addSite(rt, { name: 'robots-down', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'robots-down')).id);
        assert.equal(crawl.state, 'failed');
        assert.match(crawl.error ?? '', /nothing could be fetched: fetch failed: robots\.txt answered HTTP 503, 5 tries over \d+ s/);
        assert.equal(site.hits('/robots.txt'), 5, 'the five tries the README promises');
        assert.equal(site.hits('/'), 0, 'no page of the host was fetched');
      } finally {
        await site.close();
      }
    });

    test('a robots.txt redirecting to an unreadable Location is a robots.txt that is not there: the pages are fetched, robots.txt once', async () => {
      const site = await serveGeneratedSite({
        pages: 2,
        override: (request, response) => {
          if (request.url !== '/robots.txt') return false;
          response.writeHead(301, { location: 'http://[' }).end();
          return true;
        },
      });
      try {
        await addSite(rt, { name: 'robots-nowhere', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'robots-nowhere')).id);
        assert.equal(crawl.state, 'finished', crawl.error ?? '');
        assert.equal(crawl.counts.stored, 3, 'the home page and its two articles');
        assert.equal(site.hits('/robots.txt'), 1);
      } finally {
        await site.close();
      }
    });

    test('sitemaps named by robots.txt join the frontier; a per-pattern cap stops a trap', async () => {
      let origin = '';
      const site = await serveGeneratedSite({
        pages: 30,
        override: (request, response) => {
          if (request.url === '/robots.txt') {
            response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: ${origin}/listed.xml\n`);
            return true;
          }
          if (request.url === '/listed.xml') {
            response
              .writeHead(200, { 'content-type': 'application/xml' })
              .end(
                `<urlset><url><loc>${origin}/articles/25.html</loc></url>${[1, 2, 3].map((day) => `<url><loc>${origin}/calendar/2026/${day}.html</loc></url>`).join('')}</urlset>`,
              );
            return true;
          }
          return false;
        },
      });
      origin = site.origin;
      try {
        await addSite(rt, {
          name: 'mapped',
          seeds: [`${site.origin}/`],
          allowPrivateAddresses: true,
          templateEveryMs: 0,
          maxDepth: 0,
          sitemaps: true,
          maxPagesPerPattern: 1,
        });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'mapped')).id);
        assert.equal(site.hits('/listed.xml'), 1);
        assert.equal(site.hits('/articles/25.html'), 1, 'a page known only from the sitemap was fetched');
        assert.equal(site.hits('/articles/1.html'), 0, 'maxDepth 0: links of the seed are not followed');
        const calendar = site.requests.filter((request) => request.path.startsWith('/calendar/')).length;
        assert.equal(calendar, 1, 'one page of the pattern /calendar/:n/:n.html, as capped');
        assert.equal(crawl.state, 'finished');
      } finally {
        await site.close();
      }
    });
  });

  describe('responses without a Content-Type', () => {
    test('are sniffed as browsers do: HTML by its opening tag is stored, anything else refused; a declared non-HTML type stays refused', async () => {
      const site = await serveGeneratedSite({
        pages: 0,
        override: (request, response) => {
          const untyped = (body: string) => void response.writeHead(200).end(body);
          switch (request.url) {
            case '/':
              response
                .writeHead(200)
                .end(
                  '\n  <!doctype html><html><head><title>Untyped</title></head><body><p>A home page served without a content type.</p>' +
                    '<a href="/comment.html">c</a> <a href="/para.html">p</a> <a href="/data.txt">d</a> <a href="/typed.txt">t</a></body></html>',
                );
              return true;
            case '/comment.html':
              untyped('<!-- generated --><html><body><p>Opens with a comment.</p></body></html>');
              return true;
            case '/para.html':
              untyped('<P>A bare paragraph, upper case.</P>');
              return true;
            case '/data.txt':
              untyped('name,value\nharbour,3\n<p>not at the start</p>');
              return true;
            case '/typed.txt':
              response.writeHead(200, { 'content-type': 'text/plain' }).end('<html><body><p>Declared as text.</p></body></html>');
              return true;
            default:
              return false;
          }
        },
      });
      try {
        await addSite(rt, { name: 'untyped', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'untyped')).id);
        assert.equal(crawl.state, 'finished');
        const stored = await findSite(rt.db, 'untyped');
        const page = (path: string) => findPageByUrl(rt.db, stored?.id ?? 0, `${site.origin}${path}`);
        for (const path of ['/', '/comment.html', '/para.html']) assert.ok((await page(path))?.contentHash, `${path} sniffed as HTML and stored`);
        assert.match((await page('/data.txt'))?.fetchError ?? '', /not HTML: no content type/);
        assert.match((await page('/typed.txt'))?.fetchError ?? '', /not HTML: text\/plain/);
        assert.equal(crawl.counts.stored, 3);
      } finally {
        await site.close();
      }
    });
  });

  describe('one page, many URLs', () => {
    test('an empty query is the same URL; a canonical URL of the site (in markup or a Link header) is fetched even when nothing links to it, one elsewhere is not', async () => {
      const links = ['/article/3.html?ref=home', '/article/3.html?', '/article/3.html', '/story?id=7', '/mirror', '/deep', '/print/9'].map(
        (href) => `<a href="${href}">${href}</a>`,
      );
      const html = (response: import('node:http').ServerResponse, head: string, body: string) =>
        void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head>${head}</head><body>${body}</body></html>`);
      const site = await serveGeneratedSite({
        pages: 0,
        override: (request, response) => {
          const path = request.url ?? '';
          if (path === '/') html(response, '<title>Home</title>', `<p>Home of the trial site.</p>${links.join(' ')}`);
          else if (path.startsWith('/article/3.html')) html(response, '<link rel="canonical" href="/article/3.html">', '<p>Article three.</p>');
          else if (path === '/story?id=7') html(response, '<link rel="canonical" href="/stories/7?utm_source=feed">', '<p>Story seven, print view.</p>');
          else if (path === '/stories/7') html(response, '', '<p>Story seven.</p>');
          else if (path === '/mirror') html(response, '<link rel="canonical" href="http://elsewhere.example/original">', '<p>A mirror.</p>');
          else if (path === '/deep') html(response, '<meta name="robots" content="nofollow"><link rel="canonical" href="/deep/original">', '<p>Deep.</p>');
          else if (path === '/deep/original') html(response, '', '<p>Deep original.</p>');
          else if (path === '/print/9') {
            response.writeHead(200, { 'content-type': 'text/html', link: '</stories/9>; rel="canonical"' }).end('<p>Story nine, print view.</p>');
          } else if (path === '/stories/9') html(response, '', '<p>Story nine.</p>');
          else return false;
          return true;
        },
      });
      try {
        await addSite(rt, { name: 'many-urls', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0, maxDepth: 1 });
        const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'many-urls')).id);
        assert.equal(crawl.state, 'finished');
        const stored = await findSite(rt.db, 'many-urls');
        const page = (path: string) => findPageByUrl(rt.db, stored?.id ?? 0, `${site.origin}${path}`);
        assert.equal(site.hits('/article/3.html'), 2, '/article/3.html and ?ref=home: the empty query is no third URL');
        assert.equal(await page('/article/3.html?'), undefined);
        assert.equal((await page('/story?id=7'))?.canonicalUrl, `${site.origin}/stories/7`, 'stored normalised');
        assert.equal(site.hits('/stories/7'), 1, 'the canonical URL nothing links to was fetched');
        assert.ok((await page('/stories/7'))?.contentHash);
        assert.equal(site.hits('/deep/original'), 1, "at the page's depth (maxDepth 1), whatever its nofollow");
        assert.equal((await page('/print/9'))?.canonicalUrl, `${site.origin}/stories/9`, "the Link header's, when the markup names none");
        assert.equal(site.hits('/stories/9'), 1);
        assert.equal((await page('/mirror'))?.canonicalUrl, 'http://elsewhere.example/original', 'kept as the page said it');
        const [{ count }] = (await rt.db.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM frontier WHERE url LIKE 'http://elsewhere.example/%'",
        )) as [{ count: number }];
        assert.equal(count, 0, "a canonical outside the site's allowed URLs is not admitted");
      } finally {
        await site.close();
      }
    });
  });
});
