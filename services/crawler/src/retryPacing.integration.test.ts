import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, startCrawl } from '@winnow/runtime';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';

test("a retried request keeps the host's Crawl-delay like any other, by the server's clock (503 then 200, 500 then 200)", async () => {
  const starts: number[] = [];
  const paths: string[] = [];
  const seen = new Map<string, number>();
  const links = ['/unavailable.html', '/broken.html', '/plain.html', '/other.html'];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    starts.push(performance.now());
    paths.push(path);
    const count = (seen.get(path) ?? 0) + 1;
    seen.set(path, count);
    if (path === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 1\n');
    if (path === '/unavailable.html' && count === 1) return void response.writeHead(503, { 'retry-after': '1' }).end();
    if (path === '/broken.html' && count === 1) return void response.writeHead(500).end();
    const body = path === '/' ? links.map((link) => `<a href="${link}">${link}</a>`).join('') : `<p>The page ${path}, served.</p>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><title>${path}</title><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
  const crawler = startCrawler(rt);
  try {
    await addSite(rt, { name: 'retried', seeds: [`${origin}/`], concurrency: 4, templateEveryMs: 0, allowPrivateAddresses: true });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'retried')).id, 120_000);
    assert.equal(crawl.counts.stored, 1 + links.length, JSON.stringify(crawl.counts));
    assert.equal(seen.get('/unavailable.html'), 2, 'the 503 was retried once');
    assert.equal(seen.get('/broken.html'), 2, 'the 500 was retried once');
    // As in the other Crawl-delay tests: starts are confirmed 1000 ms apart in Redis, and a loaded
    // machine may send one late, which brings it closer to the next; unpaced, a retry lands within
    // milliseconds of another request.
    const gaps = starts.slice(1).map((start, index) => Math.round(start - (starts[index] as number)));
    assert.ok(
      gaps.every((gap) => gap >= 750),
      `requests ${gaps.join(', ')} ms apart against Crawl-delay: 1 (${paths.join(' ')})`,
    );
  } finally {
    await crawler.close();
    await rt.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
