import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, type Runtime, startCrawl } from '@winnow/runtime';
import { notAdmitted } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

let rt: Runtime;
let site: Server;
let origin: string;
let internal: Server;
let internalOrigin: string;
/** Paths the site served, and what reached the internal server (which must see nothing). */
const siteSeen: string[] = [];
const internalSeen: string[] = [];

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;

before(async () => {
  internal = createServer((request, response) => {
    internalSeen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/xml' }).end(xml('<urlset><url><loc>http://127.0.0.1:1/secret</loc></url></urlset>'));
  });
  internalOrigin = await listenOnLoopback(internal);
  site = createServer((request, response) => {
    const path = request.url ?? '/';
    siteSeen.push(path);
    const send = (type: string, body: string) => void response.writeHead(200, { 'content-type': type }).end(body);
    switch (path) {
      case '/robots.txt':
        return send(
          'text/plain',
          `User-agent: *\nAllow: /\nSitemap: ${internalOrigin}/x.xml\nSitemap: ${origin}/maps/maps/maps/trap.xml\nSitemap: ${origin}/index.xml\n`,
        );
      case '/index.xml':
        return send(
          'application/xml',
          xml(`<sitemapindex><sitemap><loc>${internalOrigin}/child.xml</loc></sitemap><sitemap><loc>${origin}/child.xml</loc></sitemap></sitemapindex>`),
        );
      case '/child.xml':
        return send('application/xml', xml(`<urlset><url><loc>${origin}/listed.html</loc></url></urlset>`));
      case '/':
      case '/listed.html':
        return send('text/html; charset=utf-8', `<html><body><p>The page at ${path}, with words enough to be a page.</p></body></html>`);
      default:
        return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>none</p>');
    }
  });
  origin = await listenOnLoopback(site);
  rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
});

after(async () => {
  await rt.close();
  for (const server of [site, internal]) {
    await closeServer(server);
  }
});

test("sitemaps named by robots.txt or a sitemap index are fetched only on the site's own origins and never as traps; each one refused is counted in the crawl log", async () => {
  const crawler = startCrawler(rt);
  try {
    await addSite(rt, { name: 'maps', seeds: [`${origin}/`], allowPrivateAddresses: true, templateEveryMs: 0, sitemaps: true, maxDepth: 0 });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'maps')).id);
    assert.equal(crawl.state, 'finished');
    assert.deepEqual(internalSeen, [], 'no sitemap on another host was fetched');
    assert.ok(!siteSeen.includes('/maps/maps/maps/trap.xml'), 'the trap-shaped sitemap was not fetched');
    for (const path of ['/index.xml', '/child.xml', '/listed.html']) assert.ok(siteSeen.includes(path), `${path} was fetched`);
    const refused = await notAdmitted(rt.db, crawl.id);
    assert.deepEqual(
      refused.map(({ reason, urls, examples }) => ({ reason, urls, examples: [...examples].sort() })),
      [
        { reason: 'trap', urls: 1, examples: [`${origin}/maps/maps/maps/trap.xml`] },
        { reason: 'sitemap-elsewhere', urls: 2, examples: [`${internalOrigin}/child.xml`, `${internalOrigin}/x.xml`] },
      ],
      'each sitemap refused is counted in the crawl log, by reason',
    );
  } finally {
    await crawler.close();
  }
});
