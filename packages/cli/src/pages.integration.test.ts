import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type EmbeddedCli, embeddedCli } from './testing/embeddedCli.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const VOCABULARY =
  'harbour tide ferry council market lighthouse storm festival bridge school river orchard baker mayor library station garden quarry museum choir railway lantern meadow clock tower chapel mill dock pier canal'.split(
    ' ',
  );

/** `count` words drawn from the vocabulary by a seeded generator: each article's text is its own, as a site's stories are. */
function words(count: number, seed: number): string {
  let x = seed * 7919 + 17;
  return Array.from({ length: count }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return VOCABULARY[x % VOCABULARY.length];
  }).join(' ');
}

const NAV = '<nav><a href="/">Home</a> <a href="/about">About</a></nav>';
const FOOTER = '<footer><p>Copyright 2024 The Test Gazette. All rights reserved.</p></footer>';
const article = (n: number, headline = `Story ${n}`) =>
  `<html><head><title>Story ${n}</title></head><body><div id="top">${NAV}</div><main><article><h1>${headline}</h1>` +
  [1, 2, 3, 4].map((p) => `<p>Paragraph ${p} of story ${n}: the ${words(30, n * 10 + p)} went on as planned.</p>`).join('') +
  `</article></main>${FOOTER}</body></html>`;

/**
 * A gazette of six articles of one layout, with a template's worth of pages, and three that an
 * analyst should look at: /articles/7.html of another layout (the self-check reads it alone),
 * /articles/8.html a photo without a word (read alone, and empty), /articles/9.html of the usual
 * layout but sent without a charset in windows-1252 (a warning, read by the template).
 */
function gazette(): Server {
  const pages = new Map<string, string>();
  for (let n = 1; n <= 6; n++) pages.set(`/articles/${n}.html`, article(n));
  pages.set(
    '/articles/7.html',
    `<html><head><title>Story 7</title></head><body><table><tr><td><font><b>Story 7</b></font></td></tr><tr><td>${[1, 2, 3]
      .map((p) => `<span>Line ${p} of the odd one: the ${words(25, p)} stayed.</span><br>`)
      .join('')}</td></tr></table></body></html>`,
  );
  pages.set('/articles/8.html', '<html><head><title></title></head><body><img src="/photo.jpg" alt=""></body></html>');
  pages.set('/articles/9.html', article(9, 'Story 9: café society'));
  pages.set(
    '/',
    `<html><head><title>Gazette</title></head><body>${NAV}<ul>${[...pages.keys()].map((path) => `<li><a href="${path}">${path}</a></li>`).join('')}</ul></body></html>`,
  );
  return createServer((request, response) => {
    const page = pages.get(request.url ?? '');
    if (!page) return void response.writeHead(404).end();
    if (request.url === '/articles/9.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from(page, 'latin1'));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
}

/** The paths of a `winnow pages` listing's lines (the first column), and its last line. */
function listed(stdout: string, origin: string): { paths: string[]; footer: string } {
  const lines = stdout.trimEnd().split('\n');
  return { paths: lines.slice(0, -1).map((line) => (line.split('\t')[0] ?? '').slice(origin.length)), footer: lines.at(-1) ?? '' };
}

describe("what extraction made of each page: `winnow pages`, `winnow page` and status's counts (the real CLI, embedded)", () => {
  let server: Server;
  let origin: string;
  let winnow: EmbeddedCli['winnow'];

  before(async () => {
    server = gazette();
    origin = await listenOnLoopback(server);
    ({ winnow } = await embeddedCli('pages'));
    await winnow('sites', 'add', 'gazette', '--seed', `${origin}/`, '--allow-private', '--template-every-ms', '0', '--min-template-pages', '3');
    await winnow('crawl', 'gazette');
  });
  after(async () => {
    await closeServer(server);
  });

  test('pages lists every extracted page with its template, method, words, reading and warnings; the filters keep the pages that need a look', async () => {
    const all = await winnow('pages', 'gazette');
    const { paths, footer } = listed(all.stdout, origin);
    assert.deepEqual(paths, ['/', ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `/articles/${n}.html`)]);
    assert.equal(footer, 'extracted pages of gazette: 10 (showing 1-10)');
    const line = (path: string) =>
      all.stdout
        .split('\n')
        .find((candidate) => candidate.startsWith(`${origin}${path}\t`))
        ?.split('\t') ?? [];
    assert.match(line('/articles/1.html').join('\t'), /^[^\t]+\tv1 \/articles\/:n\.html\tpipeline\t\d{3} words\tno warnings$/);
    assert.match(
      line('/articles/8.html').join('\t'),
      /^[^\t]+\tv1 \/articles\/:n\.html\tpipeline, read alone\t0 words \(empty\)\t1 warning: the page has none of the template's layouts/,
    );
    assert.match(line('/articles/9.html').join('\t'), /\tpipeline\t\d+ words\t1 warning: no charset was declared .*windows-1252$/);

    const filtered = async (...flags: string[]) => listed((await winnow('pages', 'gazette', ...flags)).stdout, origin);
    assert.deepEqual(await filtered('--read-alone'), {
      paths: ['/', '/articles/7.html', '/articles/8.html'],
      footer: 'extracted pages of gazette (read alone): 3 (showing 1-3)',
    });
    assert.deepEqual(await filtered('--empty'), { paths: ['/articles/8.html'], footer: 'extracted pages of gazette (empty): 1 (showing 1-1)' });
    assert.deepEqual((await filtered('--warnings')).paths, ['/', '/articles/7.html', '/articles/8.html', '/articles/9.html']);
    assert.deepEqual((await filtered('--read-alone', '--empty', '--warnings')).paths, ['/articles/8.html']);
    assert.equal((await filtered('--page-type', '/articles/:n.html')).paths.length, 10, 'the home page joined the largest type');
    assert.deepEqual(await filtered('--warnings', '--size', '3', '--page', '2'), {
      paths: ['/articles/9.html'],
      footer: 'extracted pages of gazette (with warnings): 4 (showing 4-4)',
    });
    assert.match((await winnow('pages', 'gazette', '--read-alone', '--size', '2')).stdout, /: 3 \(showing 1-2; next: --page 2\)\n$/);

    const json = JSON.parse((await winnow('pages', 'gazette', '--empty', '--json')).stdout);
    assert.deepEqual(
      { ...json, entries: json.entries.map(({ extractedAt: _, ...entry }: { extractedAt: string }) => entry) },
      {
        site: 'gazette',
        filters: { readAlone: null, empty: true, warnings: null, pageType: null },
        page: 1,
        size: 50,
        total: 1,
        entries: [
          {
            url: `${origin}/articles/8.html`,
            pageType: '/articles/:n.html',
            templateVersion: 1,
            method: 'pipeline',
            wordCount: 0,
            readAlone: true,
            warningCount: 1,
            firstWarning: json.entries[0].firstWarning,
            duplicateOf: null,
          },
        ],
      },
    );

    // A page type the site's templates do not name is a bad value (status 2, as the API's 400); a site that is not there, 1.
    for (const [args, message, code] of [
      [['pages', 'gazette', '--page-type', '/nope'], /gazette has no page type "\/nope"; its templates' page types: \/articles\/:n\.html/, 2],
      [['pages', 'nosuch'], /no site named "nosuch"/, 1],
    ] as const) {
      await assert.rejects(winnow(...args), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, code, args.join(' '));
        assert.match(error.stderr, message);
        return true;
      });
    }
    await assert.rejects(winnow('pages', 'gazette', '--size', '0'), (error: { code: number; stderr: string }) => error.code === 2);
    await assert.rejects(
      winnow('pages', 'gazette', '--size', '101'),
      (error: { code: number; stderr: string }) =>
        error.code === 2 && /'--size <n>' argument '101' is invalid\. expected an integer from 1 to 100/.test(error.stderr),
    );
  });

  test('page shows one page in full: every warning and its main text (the start of it, all with --text); a URL the site does not have exits 1', async () => {
    const empty = await winnow('page', `${origin}/articles/8.html`);
    assert.equal(
      empty.stdout.replace(/extracted: \S+/, 'extracted: …'),
      [
        `${origin}/articles/8.html`,
        '  site: gazette',
        '  title: (none)',
        '  template: v1 /articles/:n.html',
        '  method: pipeline',
        "  read alone: yes: the self-check did not trust the template's reading",
        '  words: 0 (empty)',
        '  extracted: …',
        '  warnings (1):',
        `    - ${JSON.parse((await winnow('page', `${origin}/articles/8.html`, '--json')).stdout).page.warnings[0]}`,
        '  main text: none',
        '',
      ].join('\n'),
    );
    const story = await winnow('page', `${origin}/articles/9.html`);
    assert.match(story.stdout, /\n {2}read alone: no\n/);
    assert.match(story.stdout, /\n {2}warnings \(1\):\n {4}- no charset was declared .*windows-1252\n/);
    assert.match(story.stdout, /\n {2}main text \(first 3 of 5 lines; --text prints it all\):\n {4}Story 9: café society\n {4}Paragraph 1 of story 9: /);
    assert.doesNotMatch(story.stdout, /Paragraph 4/);
    const whole = await winnow('page', `${origin}/articles/9.html`, '--text');
    const json = JSON.parse((await winnow('page', `${origin}/articles/9.html`, '--json')).stdout).page;
    assert.ok(whole.stdout.endsWith(`  main text:\n\n${json.mainText}\n`), whole.stdout);
    assert.match(json.mainText, /Paragraph 4 of story 9/);

    for (const [url, message] of [
      [`${origin}/nowhere.html`, /no site has a page "http:\/\/127\.0\.0\.1:\d+\/nowhere\.html": no crawl reached that URL/],
      [`${origin}/about`, /\/about \(gazette\) has no stored body: HTTP 404/],
    ] as const) {
      await assert.rejects(winnow('page', url), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1, url);
        assert.match(error.stderr, message);
        return true;
      });
    }
    // A URL that cannot be a page's is a mistake in the call: a usage error, with the line that points to the help.
    for (const url of ['/articles/9.html', 'gazette', 'http://', 'mailto:editor@example.com']) {
      await assert.rejects(winnow('page', url), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 2, url);
        assert.match(error.stderr, /argument 'url'\. expected an absolute http\(s\) URL, such as https:\/\/example\.com\/a\n\(see `winnow page --help`\)\n$/);
        return true;
      });
    }
  });

  test("status counts the site's pages read alone and extracted empty, and names the command that lists them", async () => {
    const { stdout } = await winnow('status');
    assert.match(stdout, /\n {2}pages: 10 stored, 0 gone, 0 duplicates, 10 extracted \(3 read alone, 1 empty: winnow pages gazette\), 10 indexed; /);
    const site = JSON.parse((await winnow('status', '--json')).stdout).sites.find((candidate: { site: string }) => candidate.site === 'gazette');
    assert.deepEqual([site.readAlone, site.empty], [3, 1]);
  });
});
