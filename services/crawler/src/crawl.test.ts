import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, startCrawl, type Runtime } from '@winnow/runtime';
import { findCrawl, findPageByUrl, findSite } from '@winnow/storage';
import { runCrawl } from './crawl.js';

const article = (n: number, links: string) =>
  `<html><head><title>Page ${n}</title></head><body><nav>${links}</nav><article><p>Paragraph number ${n} of the test site, long enough to read.</p></article></body></html>`;

/** A small site with every kind of response a crawl must survive, on 127.0.0.1. */
function testSite(): Server {
  const links = ['/a.html', '/b.html', '/big.html', '/file.pdf', '/missing.html', '/private/secret.html', '/same.html'].map((href) => `<a href="${href}">${href}</a>`).join(' ');
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
      default:
        return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
    }
  });
}

describe('crawling a site', () => {
  let rt: Runtime;
  let server: Server;
  let origin: string;
  before(async () => {
    server = testSite();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_MAX_PAGE_BYTES: '4096' }));
  });
  after(async () => {
    await rt.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('stores HTML pages once by content hash, records refused responses with their reason, honours robots.txt', async () => {
    await addSite(rt, { name: 'mixed', seeds: [`${origin}/`], templateEveryMs: 0 });
    const crawl = await startCrawl(rt, 'mixed');
    const outcome = await runCrawl(rt, crawl.id);
    assert.equal(outcome.state, 'finished');
    const site = await findSite(rt.db, 'mixed');
    assert.ok(site);
    const page = (path: string) => findPageByUrl(rt.db, site.id, `${origin}${path}`);
    for (const path of ['/', '/a.html', '/b.html', '/same.html']) assert.ok((await page(path))?.contentHash, `${path} stored`);
    assert.equal((await page('/same.html'))?.contentHash, (await page('/a.html'))?.contentHash);
    const [{ bodies }] = (await rt.db.query<{ bodies: number }>('SELECT count(*)::int AS bodies FROM raw_pages')) as [{ bodies: number }];
    assert.equal(bodies, 3, 'identical bodies are stored once');
    assert.match((await page('/big.html'))?.fetchError ?? '', /exceeds the limit of 4096/);
    assert.match((await page('/file.pdf'))?.fetchError ?? '', /not HTML: application\/pdf/);
    assert.match((await page('/missing.html'))?.fetchError ?? '', /HTTP 404/);
    for (const path of ['/big.html', '/file.pdf', '/missing.html']) assert.equal((await page(path))?.contentHash, null);
    assert.equal(await page('/private/secret.html'), undefined, 'robots.txt disallows it');
    const recorded = await findCrawl(rt.db, crawl.id);
    assert.equal(recorded?.state, 'finished');
    assert.equal(recorded?.pagesStored, 4);
    assert.equal(recorded?.pagesRejected, 3);
    const extractJobs = await rt.queues.queue('extract').getJobs(['waiting']);
    assert.equal(extractJobs.length, 4, 'only stored pages are enqueued, by id');
    assert.ok(extractJobs.every((job) => Object.keys(job.data).join() === 'pageId'));
  });

  test('a malformed seed or an unknown site is refused with a clear error', async () => {
    await assert.rejects(addSite(rt, { name: 'bad', seeds: ['not a url'] }), /seeds\.0: must be an absolute http\(s\) URL/);
    await assert.rejects(addSite(rt, { name: 'Bad Name', seeds: [`${origin}/`] }), /name: must be 1-63 lowercase/);
    await assert.rejects(startCrawl(rt, 'nosuch'), /no site named "nosuch"/);
  });

  test('an operator\'s stop ends a crawl early', async () => {
    await addSite(rt, { name: 'stopped', seeds: [`${origin}/`], templateEveryMs: 0, concurrency: 1, delayMs: 200 });
    const crawl = await startCrawl(rt, 'stopped');
    const running = runCrawl(rt, crawl.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await rt.db.query(`UPDATE crawls SET state = 'stopping' WHERE id = $1`, [crawl.id]);
    const outcome = await running;
    assert.equal(outcome.state, 'stopped');
    assert.equal((await findCrawl(rt.db, crawl.id))?.state, 'stopped');
    assert.ok(outcome.stored < 4, `stored ${outcome.stored}`);
  });
});
