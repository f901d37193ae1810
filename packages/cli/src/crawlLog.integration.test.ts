import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type EmbeddedCli, embeddedCli } from './testing/embeddedCli.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const page = (title: string, links = '') =>
  `<html><head><title>${title}</title></head><body><nav>${links}</nav><article><h1>${title}</h1><p>${title} is a page of the test site, long enough to be read as its main text.</p></article></body></html>`;

/**
 * A site whose home page links to one URL of each way a URL can end up not stored: a PDF, a 404,
 * a redirect out of the site, one within it, a path robots.txt disallows, a 500 and a dropped
 * connection (both retried, then failed).
 */
function troubledSite(): Server {
  const server = createServer((request, response) => {
    const { port } = server.address() as AddressInfo;
    const html = { 'content-type': 'text/html; charset=utf-8' };
    switch (request.url) {
      case '/robots.txt':
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      case '/':
        return void response
          .writeHead(200, html)
          .end(
            page(
              'Home',
              ['/a', '/doc.pdf', '/missing', '/out', '/hop', '/private/x', '/boom', '/drop'].map((path) => `<a href="${path}">${path}</a>`).join(' '),
            ),
          );
      case '/a':
      case '/a2':
        return void response.writeHead(200, html).end(page(`Article ${request.url}`));
      case '/doc.pdf':
        return void response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
      case '/out':
        return void response.writeHead(302, { location: `http://localhost:${port}/article/7.html` }).end();
      case '/hop':
        return void response.writeHead(301, { location: '/a2' }).end();
      case '/boom':
        return void response.writeHead(500, html).end('<p>broken</p>');
      case '/drop':
        return void request.socket.destroy();
      default:
        return void response.writeHead(404, html).end('<p>no such page</p>');
    }
  });
  return server;
}

describe('what a crawl did not store: status counts and the crawl log (the real CLI, embedded)', () => {
  let server: Server;
  let origin: string;
  let winnow: EmbeddedCli['winnow'];

  before(async () => {
    server = troubledSite();
    origin = await listenOnLoopback(server);
    ({ winnow } = await embeddedCli('crawl-log'));
    await winnow('sites', 'add', 'troubled', '--seed', `${origin}/`, '--allow-private', '--template-every-ms', '0', '--min-template-pages', '50');
  });
  after(async () => {
    await closeServer(server);
  });

  test("status says each outcome by the name its JSON uses, for the latest crawl, apart from the site's pages", async () => {
    const crawled = await winnow('crawl', 'troubled');
    const expected =
      'troubled: crawl 1 finished: 3 stored, 0 unchanged, 1 moved, 0 gone, 3 refused, 1 disallowed, 2 failed (why: winnow crawl-log troubled)\n' +
      '  pages: 3 stored, 0 gone, 0 duplicates, 3 extracted, 3 indexed; no templates yet; 0 failed to extract, 0 failed to index\n';
    assert.equal(crawled.stdout, expected);
    const status = JSON.parse((await winnow('status', '--json')).stdout);
    const site = status.sites.find((candidate: { site: string }) => candidate.site === 'troubled');
    assert.deepEqual(site.crawl.counts, {
      stored: 3,
      unchanged: 0,
      moved: 1,
      gone: 0,
      refused: 3,
      disallowed: 1,
      failed: 2,
      cancelled: 0,
      queued: 0,
      inFlight: 0,
      revisited: 0,
      duplicate: 0,
    });
    assert.equal(site.stored, 3);
    for (const key of ['rejected', 'pagesRejected', 'pagesStored']) assert.ok(!(key in site) && !(key in site.crawl), `no "${key}" beside the counts`);
    assert.ok((await winnow('status')).stdout.startsWith(expected));

    // A recrawl of the same site: nothing new to store, and the line says so.
    await winnow('crawl', 'troubled');
    const again = JSON.parse((await winnow('status', '--json')).stdout).sites.find((candidate: { site: string }) => candidate.site === 'troubled');
    assert.equal(again.crawl.id, 2);
    assert.deepEqual([again.crawl.counts.stored, again.crawl.counts.unchanged, again.stored], [0, 3, 3]);
    assert.match(
      (await winnow('status')).stdout,
      /^troubled: crawl 2 finished: 0 stored, 3 unchanged, 1 moved, 0 gone, 3 refused, 1 disallowed, 2 failed .*\n {2}pages: 3 stored,/,
    );
  });

  test('crawl-log lists the URLs not stored with their reasons, newest crawl first, by outcome and by page', async () => {
    const { stdout } = await winnow('crawl-log', 'troubled');
    const lines = stdout.trimEnd().split('\n');
    assert.equal(lines.at(-1), 'moved, gone, refused, disallowed, failed, cancelled, duplicate URLs of every crawl of troubled: 14 (showing 1-14)');
    const entries = lines.slice(0, -1).map((line) => line.split('\t'));
    assert.deepEqual(
      entries.map(([crawl]) => crawl),
      [...Array(7).fill('crawl 2'), ...Array(7).fill('crawl 1')],
      'newest crawl first',
    );
    const ofFirst = new Map(entries.filter(([crawl]) => crawl === 'crawl 1').map(([, outcome, url, reason]) => [url, [outcome, reason]]));
    assert.deepEqual(Object.fromEntries(ofFirst), {
      [`${origin}/doc.pdf`]: ['refused', 'not HTML: application/pdf'],
      [`${origin}/missing`]: ['refused', 'HTTP 404'],
      [`${origin}/out`]: ['refused', `redirect to http://localhost:${new URL(origin).port}/article/7.html refused: outside the site's allowed URLs`],
      // Crawl 2 fetched /hop again; crawl 1's entry keeps its own reason.
      [`${origin}/hop`]: ['moved', `HTTP 301: moved to ${origin}/a2`],
      [`${origin}/private/x`]: ['disallowed', 'robots.txt line 2: Disallow: /private/'],
      [`${origin}/boom`]: ['failed', 'HTTP 500'],
      [`${origin}/drop`]: ['failed', ofFirst.get(`${origin}/drop`)?.[1]],
    });
    assert.match(ofFirst.get(`${origin}/drop`)?.[1] ?? '', /^fetch failed: /, 'a dropped connection failed: it was not refused');
    const hop = entries.find(([crawl, , url]) => crawl === 'crawl 2' && url === `${origin}/hop`);
    assert.deepEqual(hop?.slice(1), ['moved', `${origin}/hop`, `HTTP 301: moved to ${origin}/a2`], "the latest crawl's move names its target too");

    const failed = JSON.parse((await winnow('crawl-log', 'troubled', '--outcome', 'failed', '--crawl', '1', '--json')).stdout);
    assert.deepEqual(
      { total: failed.total, outcomes: failed.outcomes, crawl: failed.crawl, urls: failed.entries.map((entry: { url: string }) => entry.url) },
      { total: 2, outcomes: ['failed'], crawl: 1, urls: [`${origin}/boom`, `${origin}/drop`] },
    );
    assert.equal(failed.entries[0].attempts, 3, 'failed after its retries');

    const paged = await winnow('crawl-log', 'troubled', '--outcome', 'refused,disallowed', '--size', '3', '--page', '2');
    assert.match(paged.stdout, /\nrefused, disallowed URLs of every crawl of troubled: 8 \(showing 4-6; next: --page 3\)\n$/);

    await assert.rejects(winnow('crawl-log', 'troubled', '--outcome', 'stored'), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2, 'a bad value: a usage error');
      assert.match(error.stderr ?? '', /unknown outcome "stored"; the crawl log lists: moved, gone, refused, disallowed, failed, cancelled, duplicate\n/);
      return true;
    });
    await assert.rejects(winnow('crawl-log', 'troubled', '--crawl', '9'), /troubled has no crawl 9/);
    await assert.rejects(winnow('crawl-log', 'nosuch'), /no site named "nosuch"/);
  });

  test('crawl --stop with no crawl queued or running says so', async () => {
    assert.equal((await winnow('crawl', 'troubled', '--stop')).stdout, 'troubled has no crawl queued or running\n');
  });
});

/**
 * A site whose every page links to the same three URLs outside it (another host, another port's
 * host name, another scheme's site) and to a crawler trap; its home page links to eight articles.
 */
function leakySite(): Server {
  const server = createServer((request, response) => {
    const { port } = server.address() as AddressInfo;
    const outside = [`http://localhost:${port}/elsewhere`, 'https://elsewhere.example/a', 'https://elsewhere.example/b'];
    const links = [...outside, '/x/x/x/loop'].map((href) => `<a href="${href}">${href}</a>`);
    if (request.url === '/robots.txt') return void response.writeHead(404).end();
    const articles = request.url === '/' ? Array.from({ length: 8 }, (_, i) => `<a href="/articles/${i}.html">Article ${i}</a>`) : [];
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Page ${request.url}`, [...articles, ...links].join(' ')));
  });
  return server;
}

describe('what a crawl found and did not admit: counted by reason, in status and the crawl log (the real CLI, embedded)', () => {
  test('links outside the allowed URLs, crawler traps and the URLs over maxPages are counted once each, with examples', async () => {
    const server = leakySite();
    const origin = await listenOnLoopback(server);
    const { winnow } = await embeddedCli('not-admitted');
    try {
      await winnow(
        'sites',
        'add',
        'leaky',
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
      const crawled = await winnow('crawl', 'leaky');
      assert.match(
        crawled.stdout,
        /^leaky: crawl 1 finished: 5 stored, .*; not admitted: 3 outside the allowed URLs, 1 crawler trap, 4 over maxPages \(why: winnow crawl-log leaky\)\n/,
      );
      const { port } = new URL(origin);
      const log = JSON.parse((await winnow('crawl-log', 'leaky', '--json')).stdout);
      assert.equal(log.total, 0, 'nothing admitted went unstored');
      assert.deepEqual(
        log.notAdmitted.map(({ reason, urls, examples }: { reason: string; urls: number; examples: string[] }) => ({
          reason,
          urls,
          examples: examples.sort(),
        })),
        [
          {
            reason: 'outside-allowed',
            urls: 3,
            examples: [`http://localhost:${port}/elsewhere`, 'https://elsewhere.example/a', 'https://elsewhere.example/b'],
          },
          { reason: 'trap', urls: 1, examples: [`${origin}/x/x/x/loop`] },
          { reason: 'max-pages', urls: 4, examples: log.notAdmitted[2].examples },
        ],
      );
      assert.ok(
        log.notAdmitted[2].examples.every((url: string) => /\/articles\/\d\.html$/.test(url)),
        'the articles the budget left out are the examples',
      );
      const text = (await winnow('crawl-log', 'leaky')).stdout;
      assert.equal(
        text,
        'no moved, gone, refused, disallowed, failed, cancelled, duplicate URLs of every crawl of leaky\n' +
          `crawl 1\tnot admitted\t3 URLs outside the site's allowed URLs\te.g. ${log.notAdmitted[0].examples.join(' ')}\n` +
          `crawl 1\tnot admitted\t1 URL refused as crawler traps (too long, or a path repeating a segment)\te.g. ${origin}/x/x/x/loop\n` +
          `crawl 1\tnot admitted\tthe crawl's page budget (the site's maxPages) was reached: 4 more URLs not admitted\te.g. ${log.notAdmitted[2].examples.join(' ')}\n`,
      );
    } finally {
      await closeServer(server);
    }
  });
  test("links on pages at the site's maxDepth are counted as beyond it, except those the crawl has already", async () => {
    // Two pages at depth 1 link back to the home page and to each other (admitted already), to
    // seven pages at depth 2 (two of them from both) and to one URL outside the site.
    const links: Record<string, string[]> = {
      '/': ['/d1/a', '/d1/b'],
      '/d1/a': ['/', '/d1/b', '/d2/1', '/d2/2', '/d2/3', '/d2/4', 'https://elsewhere.example/x'],
      '/d1/b': ['/', '/d1/a', '/d2/3', '/d2/4', '/d2/5', '/d2/6', '/d2/7'],
    };
    const requested: string[] = [];
    const server = createServer((request, response) => {
      requested.push(request.url ?? '');
      if (request.url === '/robots.txt') return void response.writeHead(404).end();
      const hrefs = (links[request.url ?? ''] ?? []).map((href) => `<a href="${href}">${href}</a>`).join(' ');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Page ${request.url}`, hrefs));
    });
    const origin = await listenOnLoopback(server);
    const { winnow } = await embeddedCli('max-depth');
    try {
      await winnow(
        'sites',
        'add',
        'deep',
        '--seed',
        `${origin}/`,
        '--allow-private',
        '--max-depth',
        '1',
        '--template-every-ms',
        '0',
        '--min-template-pages',
        '50',
      );
      const crawled = await winnow('crawl', 'deep');
      assert.match(
        crawled.stdout,
        /^deep: crawl 1 finished: 3 stored, .*; not admitted: 1 outside the allowed URLs, 7 beyond maxDepth \(why: winnow crawl-log deep\)\n/,
      );
      assert.deepEqual(
        requested.filter((path) => path.startsWith('/d2/')),
        [],
        'the links beyond maxDepth were not fetched',
      );
      const log = JSON.parse((await winnow('crawl-log', 'deep', '--json')).stdout);
      const deep = Array.from({ length: 7 }, (_, i) => `${origin}/d2/${i + 1}`);
      assert.deepEqual(
        log.notAdmitted.map(({ reason, urls }: { reason: string; urls: number }) => ({ reason, urls })),
        [
          { reason: 'outside-allowed', urls: 1 },
          { reason: 'max-depth', urls: 7 },
        ],
      );
      const examples: string[] = log.notAdmitted[1].examples;
      assert.equal(new Set(examples).size, 5, 'five examples, each once');
      assert.ok(
        examples.every((url) => deep.includes(url)),
        `examples among the depth-2 pages: ${examples.join(' ')}`,
      );
      const text = (await winnow('crawl-log', 'deep')).stdout;
      assert.equal(text.split('\n').at(-2), `crawl 1\tnot admitted\t7 URLs linked from pages at the site's maxDepth, not followed\te.g. ${examples.join(' ')}`);
    } finally {
      await closeServer(server);
    }
  });
});

describe('what a crawl fetched and did not index on its own: duplicates in status and the crawl log (the real CLI, embedded)', () => {
  test('a copy and a page naming another canonical are listed with the page they are indexed under, crawl by crawl', async () => {
    const article = page('Article A');
    let copy = article;
    const server = createServer((request, response) => {
      const html = { 'content-type': 'text/html; charset=utf-8' };
      switch (request.url) {
        case '/':
          return void response.writeHead(200, html).end(page('Home', '<a href="/a">a</a> <a href="/copy">copy</a> <a href="/print/a">print</a>'));
        case '/a':
          return void response.writeHead(200, html).end(article);
        case '/copy':
          return void response.writeHead(200, html).end(copy);
        case '/print/a':
          return void response.writeHead(200, html).end(page('Article A, to print').replace('</head>', '<link rel="canonical" href="/a"></head>'));
        default:
          return void response.writeHead(404, html).end('<p>no such page</p>');
      }
    });
    const origin = await listenOnLoopback(server);
    const { winnow } = await embeddedCli('crawl-duplicates');
    const duplicates = async () =>
      JSON.parse((await winnow('crawl-log', 'twins', '--outcome', 'duplicate', '--json')).stdout).entries.map(
        (entry: { crawlId: number; url: string; outcome: string; duplicateOf: string; reason: string }) => [
          entry.crawlId,
          entry.url.slice(origin.length),
          entry.outcome,
          entry.duplicateOf.slice(origin.length),
          entry.reason,
        ],
      );
    const ofA = (crawl: number) => [
      [crawl, '/copy', 'duplicate', '/a', `same content as ${origin}/a: indexed under it`],
      [crawl, '/print/a', 'duplicate', '/a', `names ${origin}/a as its canonical URL: indexed under it`],
    ];
    try {
      await winnow('sites', 'add', 'twins', '--seed', `${origin}/`, '--allow-private', '--template-every-ms', '0', '--min-template-pages', '50');
      const crawled = await winnow('crawl', 'twins');
      assert.match(
        crawled.stdout,
        /^twins: crawl 1 finished: 4 stored, 0 unchanged, .* 0 failed \(2 duplicates indexed under another page\) \(why: winnow crawl-log twins\)\n {2}pages: 4 stored, 0 gone, 2 duplicates, 4 extracted, 2 indexed;/,
      );
      assert.deepEqual(await duplicates(), ofA(1));
      const text = (await winnow('crawl-log', 'twins')).stdout;
      assert.equal(
        text,
        `crawl 1\tduplicate\t${origin}/copy\tsame content as ${origin}/a: indexed under it\n` +
          `crawl 1\tduplicate\t${origin}/print/a\tnames ${origin}/a as its canonical URL: indexed under it\n` +
          'moved, gone, refused, disallowed, failed, cancelled, duplicate URLs of every crawl of twins: 2 (showing 1-2)\n',
      );

      // Found unchanged, the pages are decided nothing anew: this crawl's fetches of them are duplicates all the same.
      await winnow('crawl', 'twins');
      assert.deepEqual(await duplicates(), [...ofA(2), ...ofA(1)]);
      const counts = async () => JSON.parse((await winnow('status', '--json')).stdout).sites[0].crawl.counts;
      assert.deepEqual([(await counts()).unchanged, (await counts()).duplicate], [4, 2]);

      // The copy changes: the crawl that stored it indexes it on its own; the earlier crawls keep what they found.
      copy = page('Article A, rewritten');
      await winnow('crawl', 'twins');
      assert.deepEqual(await duplicates(), [ofA(3)[1], ...ofA(2), ...ofA(1)]);
      assert.deepEqual([(await counts()).stored, (await counts()).duplicate], [1, 1]);
    } finally {
      await closeServer(server);
    }
  });
});
