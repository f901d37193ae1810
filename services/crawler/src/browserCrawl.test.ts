import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, startCrawl, type Runtime } from '@winnow/runtime';
import { findPageByUrl, findSite, loadRawPage } from '@winnow/storage';
import { runCrawl } from './crawl.js';

/** Pages whose text and links exist only after their script has run. */
const rendered = (text: string, link: string) =>
  `<html><head><title>${text}</title></head><body><div id="app"></div><script>
document.getElementById('app').innerHTML = '<article><p>${text}</p><a href="${link}">next</a></article>';
</script></body></html>`;

let server: Server;
let origin: string;
let rt: Runtime;

before(async () => {
  server = createServer((request, response) => {
    const pages: Record<string, string> = { '/': rendered('Rendered by script on the home page', '/two.html'), '/two.html': rendered('The second page, also rendered', '/') };
    const page = pages[request.url ?? ''];
    if (request.url === '/robots.txt') return void response.writeHead(404).end();
    if (!page) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>none</p>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
});

after(async () => {
  await rt.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a site configured as JavaScript-rendered is crawled in the system Chromium: the stored page is the rendered DOM', async () => {
  await addSite(rt, { name: 'spa', seeds: [`${origin}/`], render: 'browser', templateEveryMs: 0 });
  const crawl = await startCrawl(rt, 'spa');
  const outcome = await runCrawl(rt, crawl.id);
  assert.equal(outcome.state, 'finished');
  assert.equal(outcome.stored, 2, 'the link that only the script writes was followed');
  const site = await findSite(rt.db, 'spa');
  const home = await findPageByUrl(rt.db, site?.id ?? 0, `${origin}/`);
  assert.equal(home?.status, 200);
  const body = (await loadRawPage(rt.db, home?.contentHash ?? ''))?.toString('utf8') ?? '';
  assert.match(body, /<article><p>Rendered by script on the home page<\/p>/);
});

test('without a Chromium, a browser crawl fails at once with what to do', async () => {
  const noBrowser = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_CHROMIUM_PATH: '/nonexistent/chromium' }));
  try {
    await addSite(noBrowser, { name: 'spa', seeds: [`${origin}/`], render: 'browser', templateEveryMs: 0 });
    const crawl = await startCrawl(noBrowser, 'spa');
    await assert.rejects(runCrawl(noBrowser, crawl.id), /no Chromium at \/nonexistent\/chromium: install it/);
    const [row] = await noBrowser.db.query<{ state: string; error: string }>('SELECT state, error FROM crawls WHERE id = $1', [crawl.id]);
    assert.equal(row?.state, 'failed');
    assert.match(row?.error ?? '', /apt-get install chromium/);
  } finally {
    await noBrowser.close();
  }
});
