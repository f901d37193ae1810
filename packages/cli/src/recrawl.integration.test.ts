import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { crawlToEnd } from '@winnow/crawler/testing';
import { addSite, crawlLog, openRuntime, pipelineStatus, type Runtime, type Service, search, startCrawl, waitForIdle } from '@winnow/runtime';
import { closeAll, startWorkers } from './pipeline.js';
import { type EmbeddedCli, embeddedCli } from './testing/embeddedCli.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

interface Served {
  status: number;
  body?: string;
  etag?: string;
  location?: string;
}

const article = (text: string, links = '') =>
  `<html><head><title>${text.slice(0, 20)}</title></head><body><nav><a href="/">Home</a>${links}</nav><article><h1>${text.slice(0, 30)}</h1><p>${text}</p><p>${text} Told again in other words so that the paragraph is long enough to be the article.</p></article><footer>Footer of the recrawled site</footer></body></html>`;

/** A site whose pages can change between crawls, and that answers conditional requests as real servers do. */
function mutableSite(pages: Map<string, Served>, conditional: string[]): Server {
  return createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/robots.txt') return void response.writeHead(404).end();
    const page = pages.get(path);
    if (!page) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>no such page</p>');
    if (page.status === 200 && page.etag && request.headers['if-none-match'] === page.etag) {
      conditional.push(path);
      return void response.writeHead(304, { etag: page.etag }).end();
    }
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (page.etag) headers.etag = page.etag;
    if (page.location) headers.location = page.location;
    response.writeHead(page.status, headers).end(page.body ?? '');
  });
}

describe('a recrawl: 304s, a changed page, a removed page and a moved one (the embedded pipeline)', () => {
  let rt: Runtime;
  let services: Service[];
  let server: Server;
  let origin: string;
  const conditional: string[] = [];
  const links = '<a href="/a">A</a><a href="/b">B</a><a href="/c">C</a>';
  const pages = new Map<string, Served>([
    ['/', { status: 200, etag: '"home-1"', body: article('The home page of the quiet harbour town gazette.', links) }],
    ['/a', { status: 200, etag: '"a-1"', body: article('Ferry timetables change for the winter season.') }],
    ['/b', { status: 200, etag: '"b-1"', body: article('The lighthouse keeper retired after forty years.') }],
    ['/c', { status: 200, etag: '"c-1"', body: article('A lost otter was found in the boathouse.') }],
  ]);
  const phrase = async (text: string) => (await search(rt, { q: `"${text}"`, site: 'harbour' })).hits.map((hit) => new URL(hit.url).pathname);
  const runs = async (path: string) =>
    (await rt.db.query<{ runs: number }>('SELECT e.runs FROM extractions e JOIN pages p ON p.id = e.page_id WHERE p.url = $1', [`${origin}${path}`]))[0]?.runs;

  before(async () => {
    server = mutableSite(pages, conditional);
    origin = await listenOnLoopback(server);
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    services = await startWorkers(rt);
    // No page type reaches 50 pages: no template version comes to re-extract pages on its own.
    await addSite(rt, { name: 'harbour', seeds: [`${origin}/`], allowPrivateAddresses: true, minTemplatePages: 50, templateEveryMs: 0 });
    await crawlToEnd(rt, (await startCrawl(rt, 'harbour')).id);
    await waitForIdle(rt);
  });
  after(async () => {
    await closeAll(services);
    await rt.close();
    await closeServer(server);
  });

  test('the first crawl indexes every page', async () => {
    assert.deepEqual(await phrase('lighthouse keeper retired'), ['/b']);
    assert.deepEqual(await phrase('lost otter was found'), ['/c']);
    assert.equal(await rt.search.count('harbour'), 4);
  });

  test('the recrawl re-extracts only what changed, removes what is gone, and moves what moved', async () => {
    pages.set('/b', { status: 200, etag: '"b-2"', body: article('The new lighthouse keeper arrived by the morning boat.') });
    pages.set('/c', { status: 404 });
    pages.set('/a', { status: 301, location: '/a-moved' });
    pages.set('/a-moved', { status: 200, etag: '"a-moved-1"', body: article('Ferry timetables change for the winter season.') });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'harbour')).id);
    await waitForIdle(rt);

    assert.deepEqual(conditional, ['/'], 'the unchanged home page answered 304 to its ETag');
    assert.deepEqual(
      { unchanged: crawl.counts.unchanged, stored: crawl.counts.stored, gone: crawl.counts.gone, moved: crawl.counts.moved },
      { unchanged: 1, stored: 2, gone: 1, moved: 1 },
    );
    assert.equal(await runs('/'), 1, 'the unchanged page was not extracted again');
    assert.equal(await runs('/b'), 2, 'the changed page was extracted again');
    assert.deepEqual(await phrase('lighthouse keeper retired'), [], "the changed page's old text left the index");
    assert.deepEqual(await phrase('new lighthouse keeper arrived'), ['/b']);
    assert.deepEqual(await phrase('lost otter was found'), [], 'the page that answers 404 left the index');
    assert.deepEqual(await phrase('ferry timetables change'), ['/a-moved'], 'the moved page is indexed under its new URL only');
    assert.equal(await rt.search.count('harbour'), 3);
    const status = (await pipelineStatus(rt)).sites.find((site) => site.site === 'harbour');
    assert.equal(status?.gone, 2, 'status counts the removed and the moved page as gone');
  });

  test('a third crawl finds the removed page still missing: a refusal (HTTP 404), not gone again; the page stays gone', async () => {
    // The home page changes, so its links (the removed page's among them) are read again.
    pages.set('/', { status: 200, etag: '"home-2"', body: article('The home page of the quiet harbour town gazette, updated.', links) });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, 'harbour')).id);
    await waitForIdle(rt);
    assert.deepEqual({ gone: crawl.counts.gone, refused: crawl.counts.refused }, { gone: 0, refused: 1 });
    const refused = (await crawlLog(rt, 'harbour', { crawl: crawl.id, outcomes: ['refused'] })).entries;
    assert.deepEqual(
      refused.map((entry) => [new URL(entry.url).pathname, entry.reason]),
      [['/c', 'HTTP 404']],
    );
    const status = (await pipelineStatus(rt)).sites.find((site) => site.site === 'harbour');
    assert.equal(status?.gone, 2, 'status still counts the removed and the moved page as gone');
  });
});

describe('a recrawl after maxPages grew fetches the pages the first crawl left out (the real CLI, embedded)', () => {
  let server: Server;
  let cli: EmbeddedCli;
  const conditional: string[] = [];
  const winnow = async (...args: string[]) => (await cli.winnow(...args)).stdout;
  const articles = Array.from({ length: 20 }, (_, i) => `/articles/${i + 1}.html`);
  const pages = new Map<string, Served>([
    [
      '/',
      {
        status: 200,
        etag: '"home"',
        body: article('The home page of the capped site.', ['/about.html', ...articles].map((href) => `<a href="${href}">${href}</a>`).join('')),
      },
    ],
    ['/about.html', { status: 200, etag: '"about"', body: article('About the capped site and who writes it.') }],
    ...articles.map((path, i): [string, Served] => [
      path,
      { status: 200, etag: `"${i}"`, body: article(`Article ${i + 1} of the capped site tells its story.`) },
    ]),
  ]);

  before(async () => {
    server = mutableSite(pages, conditional);
    const origin = await listenOnLoopback(server);
    cli = await embeddedCli('recrawl');
    await winnow(
      'sites',
      'add',
      'capped',
      '--seed',
      `${origin}/`,
      '--allow-private',
      '--max-pages',
      '5',
      '--template-every-ms',
      '0',
      '--min-template-pages',
      '50',
    );
  });
  after(async () => {
    await closeServer(server);
  });

  test('5 stored and 17 over maxPages; after sites update --max-pages 100, 17 stored and 5 unchanged', async () => {
    assert.match(await winnow('crawl', 'capped'), /crawl 1 finished: 5 stored, 0 unchanged.*; not admitted: 17 over maxPages/);
    await winnow('sites', 'update', 'capped', '--max-pages', '100');
    const second = await winnow('crawl', 'capped', '--wait');
    assert.match(second, /crawl 2 finished: 17 stored, 5 unchanged, 0 moved, 0 gone, 0 refused, 0 disallowed, 0 failed\n/);
    assert.equal(conditional.length, 5, 'the 5 pages stored before answered 304');
    assert.match(second, /pages: 22 stored/);
  });

  test('back to --max-pages 5: links admit 5, the 17 other stored pages are revisited all the same, and the line and the log say so', async () => {
    pages.set('/articles/20.html', { status: 404 });
    await winnow('sites', 'update', 'capped', '--max-pages', '5');
    const third = await winnow('crawl', 'capped', '--wait');
    assert.match(
      third,
      /crawl 3 finished: 0 stored, 21 unchanged, 0 moved, 1 gone, 0 refused, 0 disallowed, 0 failed \(17 revisits of stored pages no link reached\); not admitted: 17 over maxPages/,
    );
    assert.match(third, /pages: 21 stored, 1 gone/);
    assert.match(
      await winnow('crawl-log', 'capped', '--crawl', '3'),
      /^crawl 3\tgone\t\(revisit\) http:\/\/127\.0\.0\.1:\d+\/articles\/20\.html\tHTTP 404: the page is gone\n/,
    );
  });
});
