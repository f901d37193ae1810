import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, startCrawl } from '@winnow/runtime';
import { startCrawler } from './crawler.js';
import { assertCrawlDelayOfOneSecondKept } from './testing/crawlDelay.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

test("a retried request keeps the host's Crawl-delay like any other, by the server's clock (503 then 200, 500 then 200)", async () => {
  const requests: { at: number; path: string }[] = [];
  const seen = new Map<string, number>();
  const links = ['/unavailable.html', '/broken.html', '/plain.html', '/other.html'];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ at: performance.now(), path });
    const count = (seen.get(path) ?? 0) + 1;
    seen.set(path, count);
    if (path === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 1\n');
    if (path === '/unavailable.html' && count === 1) return void response.writeHead(503, { 'retry-after': '1' }).end();
    if (path === '/broken.html' && count === 1) return void response.writeHead(500).end();
    const body = path === '/' ? links.map((link) => `<a href="${link}">${link}</a>`).join('') : `<p>The page ${path}, served.</p>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><title>${path}</title><body>${body}</body></html>`);
  });
  const origin = await listenOnLoopback(server);
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
  const crawler = startCrawler(rt);
  try {
    await addSite(rt, { name: 'retried', seeds: [`${origin}/`], concurrency: 4, templateEveryMs: 0, allowPrivateAddresses: true });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'retried')).id, 120_000);
    assert.equal(crawl.counts.stored, 1 + links.length, JSON.stringify(crawl.counts));
    assert.equal(seen.get('/unavailable.html'), 2, 'the 503 was retried once');
    assert.equal(seen.get('/broken.html'), 2, 'the 500 was retried once');
    // Unpaced, a retry would land within milliseconds of another request.
    assertCrawlDelayOfOneSecondKept(requests);
  } finally {
    await crawler.close();
    await rt.close();
    await closeServer(server);
  }
});
