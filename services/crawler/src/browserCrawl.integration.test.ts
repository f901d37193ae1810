import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, type Runtime, startCrawl } from '@winnow/runtime';
import { findPageByUrl, findSite, loadBody } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { assertCrawlDelayOfOneSecondKept } from './testing/crawlDelay.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

/** Pages whose text and links exist only after their script has run. */
const rendered = (text: string, link: string) =>
  `<html><head><title>${text}</title></head><body><div id="app"></div><script>
document.getElementById('app').innerHTML = '<article><p>${text}</p><a href="${link}">next</a></article>';
fetch('/data.json').then((r) => r.json()).then((data) => { document.getElementById('app').insertAdjacentHTML('beforeend', '<p>' + data.note + '</p>'); });
</script></body></html>`;

let server: Server;
let origin: string;
let rt: Runtime;
const userAgents: string[] = [];
/**
 * Chromium's own traffic goes to a proxy that answers nothing: the test reaches no outside host.
 * Pages wait as long as their scripts fetch (a loaded machine may take seconds to answer one).
 */
const env = { WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_BROWSER_PROXY: 'http://127.0.0.1:9', WINNOW_BROWSER_SETTLE_MS: '60000' };

before(async () => {
  server = createServer((request, response) => {
    userAgents.push(request.headers['user-agent'] ?? '');
    const pages: Record<string, string> = {
      '/': rendered('Rendered by script on the home page', '/two.html'),
      '/two.html': rendered('The second page, also rendered', '/'),
    };
    const page = pages[request.url ?? ''];
    if (request.url === '/robots.txt') return void response.writeHead(404).end();
    if (request.url === '/data.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"note":"fetched by the page script"}');
    if (!page) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>none</p>');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  origin = await listenOnLoopback(server);
  rt = await openRuntime(loadEnv(env));
});

after(async () => {
  await rt.close();
  await closeServer(server);
});

test('a site configured as JavaScript-rendered is crawled in the system Chromium: the stored page is the rendered DOM', async () => {
  const crawler = startCrawler(rt);
  try {
    await addSite(rt, { name: 'spa', seeds: [`${origin}/`], render: 'browser', templateEveryMs: 0, allowPrivateAddresses: true });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'spa')).id, 120_000);
    assert.equal(crawl.state, 'finished');
    assert.equal(crawl.counts.stored, 2, 'the link that only the script writes was followed');
    const site = await findSite(rt.db, 'spa');
    const home = await findPageByUrl(rt.db, site?.id ?? 0, `${origin}/`);
    assert.equal(home?.status, 200);
    const hash = home?.contentHash ?? '';
    const body = (await loadBody(rt.bodies, hash))?.toString('utf8') ?? '';
    assert.match(body, /<article><p>Rendered by script on the home page<\/p>/);
    assert.match(body, /fetched by the page script/, "the page's own request went through the crawler");
    assert.ok(userAgents.length >= 4);
    assert.ok(
      userAgents.every((agent) => agent === rt.env.WINNOW_USER_AGENT),
      `every request, the browser's included, names Winnow: ${[...new Set(userAgents)].join(' | ')}`,
    );
  } finally {
    await crawler.close();
  }
});

test("a rendered page is stored once its scripts' requests are answered, waiting for them WINNOW_BROWSER_SETTLE_MS at most", async () => {
  const page = `<html><body><div id="app"><p>Written at once</p></div><script>
fetch('/late.json').then((r) => r.json()).then((data) => { document.getElementById('app').insertAdjacentHTML('beforeend', '<p>' + data.note + '</p>'); });
</script></body></html>`;
  // Answered after the former fixed 2 s, or held until the test lets it go.
  let holdLate = false;
  const held: (() => void)[] = [];
  const late = createServer((request, response) => {
    if (request.url === '/robots.txt') return void response.writeHead(404).end();
    if (request.url !== '/late.json') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"note":"answered late"}');
    if (holdLate) held.push(answer);
    else setTimeout(answer, 2500);
  });
  const lateOrigin = await listenOnLoopback(late);
  const storedPage = async (runtime: Runtime, name: string) => {
    const crawler = startCrawler(runtime);
    try {
      await addSite(runtime, { name, seeds: [`${lateOrigin}/`], render: 'browser', templateEveryMs: 0, allowPrivateAddresses: true });
      assert.equal((await crawlToEnd(runtime, (await startCrawl(runtime, name)).id, 120_000)).counts.stored, 1);
      const home = await findPageByUrl(runtime.db, (await findSite(runtime.db, name))?.id ?? 0, `${lateOrigin}/`);
      return (await loadBody(runtime.bodies, home?.contentHash ?? ''))?.toString('utf8') ?? '';
    } finally {
      for (const answer of held.splice(0)) answer();
      await crawler.close();
    }
  };
  const noWait = await openRuntime(loadEnv({ ...env, WINNOW_BROWSER_SETTLE_MS: '0' }));
  try {
    assert.match(await storedPage(rt, 'late-answer'), /<p>answered late<\/p>/, 'the answer 2.5 s after load is in the page');
    holdLate = true;
    const unanswered = await storedPage(noWait, 'late-answer');
    assert.match(unanswered, /Written at once/);
    assert.doesNotMatch(unanswered, /answered late/, 'with 0, the page is stored at load');
  } finally {
    await noWait.close();
    await closeServer(late);
  }
});

test('without a Chromium, a browser crawl fails at once with what to do', async () => {
  const noBrowser = await openRuntime(loadEnv({ ...env, WINNOW_CHROMIUM_PATH: '/nonexistent/chromium' }));
  const crawler = startCrawler(noBrowser);
  try {
    await addSite(noBrowser, { name: 'spa', seeds: [`${origin}/`], render: 'browser', templateEveryMs: 0, allowPrivateAddresses: true });
    const crawl = await crawlToEnd(noBrowser, (await startCrawl(noBrowser, 'spa')).id);
    assert.equal(crawl.state, 'failed');
    assert.match(crawl.error ?? '', /no Chromium at \/nonexistent\/chromium: install it \(Debian: apt-get install chromium\)/);
  } finally {
    await crawler.close();
    await noBrowser.close();
  }
});

test("Crawl-delay holds for every request of a rendered page, its scripts', styles' and data requests included, by the server's clock", async () => {
  const requests: { at: number; path: string }[] = [];
  const page = (text: string, link: string) =>
    `<html><head><link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head><body><div id="app"></div><script>
fill(${JSON.stringify(text)}, ${JSON.stringify(link)});
fetch('/data.json').then((r) => r.json()).then((data) => { document.getElementById('app').insertAdjacentHTML('beforeend', '<p>' + data.note + '</p>'); });
</script></body></html>`;
  const resources: Record<string, [string, string]> = {
    '/robots.txt': ['text/plain', 'User-agent: *\nCrawl-delay: 1\n'],
    '/': ['text/html; charset=utf-8', page('The delayed home page', '/second.html')],
    '/second.html': ['text/html; charset=utf-8', page('The delayed second page', '/')],
    '/style.css': ['text/css', 'p { margin: 0 }'],
    '/app.js': [
      'text/javascript',
      "function fill(text, link) { document.getElementById('app').innerHTML = '<p>' + text + '</p><a href=\"' + link + '\">next</a>'; }",
    ],
    '/data.json': ['application/json', '{"note":"data for the page"}'],
  };
  const delayed = createServer((request, response) => {
    requests.push({ at: performance.now(), path: request.url ?? '' });
    const [type, body] = resources[request.url ?? ''] ?? ['text/html', '<p>none</p>'];
    response.writeHead(type === 'text/html' ? 404 : 200, { 'content-type': type }).end(body);
  });
  const delayedOrigin = await listenOnLoopback(delayed);
  const crawler = startCrawler(rt);
  try {
    await addSite(rt, {
      name: 'delayed-spa',
      seeds: [`${delayedOrigin}/`],
      render: 'browser',
      concurrency: 4,
      templateEveryMs: 0,
      allowPrivateAddresses: true,
    });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'delayed-spa')).id, 120_000);
    assert.equal(crawl.counts.stored, 2, 'both pages, the second reached through the link the script wrote');
    const paths = requests.map((request) => request.path);
    for (const resource of ['/style.css', '/app.js', '/data.json']) assert.ok(paths.includes(resource), `${resource} was requested: ${paths.join(' ')}`);
    // Unpaced, a page's subresources would follow it within a few milliseconds.
    assertCrawlDelayOfOneSecondKept(requests);
  } finally {
    await crawler.close();
    await closeServer(delayed);
  }
});
