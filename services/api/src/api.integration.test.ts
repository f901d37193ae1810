import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, crawlStatus, openRuntime, type Runtime, templateChanges } from '@winnow/runtime';
import { documentIdFor } from '@winnow/search';
import { CRAWL_LOG_OUTCOMES, insertTemplateVersion, type NewTemplate, openDb, recordNotAdmitted, saveExtraction, storeRawPage } from '@winnow/storage';
import type { FastifyInstance } from 'fastify';
import { checkWarc } from '@winnow/archive/testing';
import { type ApiErrorCode, STATUS_BY_CODE } from './errors.js';
import { buildApi } from './index.js';
import { listenOnLoopback } from '@winnow/demo-corpus';

const OPERATE = randomBytes(24).toString('hex');
const SEARCH = randomBytes(24).toString('hex');
/** The API's own address when built without listening: WINNOW_API_PORT's default. */
const OWN_HOST = 'localhost:8080';

interface Call {
  body?: unknown;
  /** `null` sends no Authorization header. */
  token?: string | null;
  host?: string;
  headers?: Record<string, string>;
}

/** Requests through `app.inject` (no port): an operate token, JSON bodies and the API's own Host unless told otherwise. */
function caller(app: FastifyInstance) {
  return async (method: string, path: string, options: Call = {}) => {
    const { body, token = OPERATE, host = OWN_HOST, headers = {} } = options;
    const response = await app.inject({
      method: method as 'GET',
      url: path,
      headers: {
        host,
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body ? response.json() : undefined };
  };
}

/** Gives a site a page with a stored body: what a template preparation needs. */
async function storePage(rt: Runtime, site: string, url: string): Promise<void> {
  const hash = await storeRawPage(rt.db, Buffer.from(`<p>${url}</p>`));
  await rt.db.query(
    `INSERT INTO pages (id, site_id, url, content_hash, status) VALUES ((SELECT max(id) + 1 FROM pages), (SELECT id FROM sites WHERE name = $1), $2, $3, 200)`,
    [site, url, hash],
  );
}

/** A TCP relay on 127.0.0.1 to a local port; `close()` shuts it and every connection through it. */
async function tcpRelay(target: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await listenOnLoopback(server);
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Every operator endpoint, in an order where each answers 2xx to an operate token. */
const OPERATOR_CALLS: readonly [string, string, unknown?][] = [
  ['GET', '/sites'],
  ['POST', '/sites', { name: 'doors', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true }],
  ['GET', '/sites/doors'],
  ['PUT', '/sites/doors', { seeds: ['http://127.0.0.1:9/doors/'], templateEveryMs: 0, allowPrivateAddresses: true }],
  ['PATCH', '/sites/doors', { maxPages: 20 }],
  ['POST', '/sites/doors/crawl'],
  ['GET', '/sites/doors/crawl'],
  ['GET', '/sites/doors/crawl/log'],
  ['GET', '/sites/doors/pages'],
  ['GET', '/sites/doors/export'],
  ['POST', '/sites/doors/crawl/stop'],
  ['POST', '/sites/news/templates'],
  ['GET', '/sites/doors/templates/health'],
  ['GET', '/templates'],
  ['GET', '/templates?site=doors'],
  ['GET', '/sites/doors/templates'],
  ['GET', '/status'],
  ['GET', '/status/idle'],
  ['DELETE', '/sites/doors'],
];

describe('the HTTP API', () => {
  let rt: Runtime;
  let app: FastifyInstance;
  let call: ReturnType<typeof caller>;

  before(async () => {
    rt = await openRuntime(
      loadEnv({
        WINNOW_DATA_DIR: 'memory',
        WINNOW_LOG_LEVEL: 'silent',
        WINNOW_API_TOKEN: `operate:${OPERATE},search:${SEARCH}`,
        WINNOW_API_ALLOWED_HOSTS: 'winnow.example,proxy.example:8443',
      }),
    );
    app = buildApi(rt);
    call = caller(app);
    await addSite(rt, { name: 'news', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });
    const [site] = await rt.db.query<{ id: number }>(`SELECT id FROM sites WHERE name = 'news'`);
    const documents = Array.from({ length: 25 }, (_, i) => ({
      url: `http://127.0.0.1:9/${i}.html`,
      title: `Story ${i}`,
      pageTitle: `Story ${i} | News`,
      mainText: i % 2 === 0 ? `The harbour master <b> spoke at noon.\nTides rose by ${i} feet.` : `Nothing about ports here, story ${i}.`,
    }));
    for (const [i, doc] of documents.entries()) {
      await rt.db.query(`INSERT INTO pages (id, site_id, url) VALUES ($1, $2, $3)`, [i + 1, site?.id, doc.url]);
    }
    await storePage(rt, 'news', 'http://127.0.0.1:9/stored.html');
    await rt.search.upsert(
      documents.map((doc, i) => ({ ...doc, docId: documentIdFor('news', doc.url), pageId: i + 1, site: 'news', templateVersion: 1, extractedAt: new Date() })),
    );
  });
  after(async () => {
    await app.close();
    await rt.close();
  });

  test("the crawl log lists a site's URLs not stored with their reasons, by the names of the crawl's counts, newest crawl first", async () => {
    await addSite(rt, { name: 'logged', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });
    const [site] = await rt.db.query<{ id: number }>(`SELECT id FROM sites WHERE name = 'logged'`);
    const crawlIds: number[] = [];
    const rows: Record<number, [string, string | null, string | null][]> = {
      0: [
        ['/old-404', 'refused', 'HTTP 404'],
        ['/old-ok', 'stored', null],
      ],
      1: [
        ['/ok', 'stored', null],
        ['/same', 'unchanged', null],
        ['/pdf', 'refused', 'not HTML: application/pdf'],
        ['/big', 'refused', 'body larger than the limit of 5242880 bytes'],
        ['/private/x', 'disallowed', null],
        ['/boom', 'failed', 'HTTP 500'],
        ['/slow', 'failed', 'fetch failed: no complete response within 30 s'],
        ['/later', null, null],
      ],
    };
    for (const [index, urls] of Object.entries(rows)) {
      const [crawl] = await rt.db.query<{ id: number }>(`INSERT INTO crawls (site_id, state) VALUES ($1, 'stopped') RETURNING id`, [site?.id]);
      crawlIds[Number(index)] = crawl?.id as number;
      for (const [path, outcome, error] of urls) {
        await rt.db.query(
          `INSERT INTO frontier (crawl_id, site_id, url, host, depth, pattern, state, outcome, error, attempts) VALUES ($1, $2, $3, '127.0.0.1:9', 1, $4, $5, $6, $7, 1)`,
          [crawl?.id, site?.id, `http://127.0.0.1:9${path}`, path, outcome ? 'done' : 'cancelled', outcome, error],
        );
      }
    }
    const [first, latest] = crawlIds as [number, number];
    // What the indexer records of a fetched page it filed under another (resolveDuplicates).
    await rt.db.query(`UPDATE frontier SET duplicate_of = 'http://127.0.0.1:9/ok', duplicate_by = 'canonical' WHERE crawl_id = $1 AND url LIKE '%/same'`, [
      latest,
    ]);
    await recordNotAdmitted(rt.db, latest, [{ reason: 'outside-allowed', urls: 2, examples: ['https://elsewhere.example/a', 'https://elsewhere.example/b'] }]);
    await recordNotAdmitted(rt.db, latest, [{ reason: 'outside-allowed', urls: 1, examples: ['https://elsewhere.example/a'] }]);
    const log = await call('GET', '/sites/logged/crawl/log');
    assert.equal(log.status, 200);
    assert.deepEqual(
      {
        ...log.body,
        entries: log.body.entries.map((entry: { crawlId: number; url: string; outcome: string; reason: string | null }) => [
          entry.crawlId,
          entry.url.slice(18),
          entry.outcome,
          entry.reason,
        ]),
      },
      {
        site: 'logged',
        crawl: null,
        outcomes: [...CRAWL_LOG_OUTCOMES],
        page: 1,
        size: 50,
        total: 8,
        entries: [
          [latest, '/same', 'duplicate', 'names http://127.0.0.1:9/ok as its canonical URL: indexed under it'],
          [latest, '/pdf', 'refused', 'not HTML: application/pdf'],
          [latest, '/big', 'refused', 'body larger than the limit of 5242880 bytes'],
          [latest, '/private/x', 'disallowed', null],
          [latest, '/boom', 'failed', 'HTTP 500'],
          [latest, '/slow', 'failed', 'fetch failed: no complete response within 30 s'],
          [latest, '/later', 'cancelled', null],
          [first, '/old-404', 'refused', 'HTTP 404'],
        ],
        notAdmitted: [
          {
            crawlId: latest,
            reason: 'outside-allowed',
            urls: 3,
            examples: ['https://elsewhere.example/a', 'https://elsewhere.example/b'],
            firstAt: log.body.notAdmitted[0]?.firstAt,
          },
        ],
      },
    );
    assert.deepEqual(
      log.body.entries.map((entry: { duplicateOf: string | null }) => entry.duplicateOf),
      ['http://127.0.0.1:9/ok', ...Array(7).fill(null)],
      'a duplicate names the page it is indexed under',
    );
    assert.deepEqual((await call('GET', `/sites/logged/crawl/log?crawl=${first}`)).body.notAdmitted, [], "the other crawl's are its own");
    const counts = (await crawlStatus(rt, 'logged'))?.counts;
    for (const outcome of CRAWL_LOG_OUTCOMES) {
      const ofOutcome = await call('GET', `/sites/logged/crawl/log?outcome=${outcome}&crawl=${latest}`);
      assert.equal(ofOutcome.body.total, counts?.[outcome], `the crawl's ${outcome} count and its log agree`);
    }
    const paged = await call('GET', `/sites/logged/crawl/log?outcome=refused,%20failed&size=2&page=2`);
    assert.deepEqual([paged.body.total, paged.body.entries.map((entry: { url: string }) => entry.url.slice(18))], [5, ['/boom', '/slow']]);
    const refusals: [string, number, RegExp][] = [
      [
        '/sites/logged/crawl/log?outcome=stored',
        400,
        /unknown outcome "stored"; the crawl log lists: moved, gone, refused, disallowed, failed, cancelled, duplicate$/,
      ],
      ['/sites/logged/crawl/log?outcome=failed&outcome=refused', 400, /outcome must be given once/],
      ['/sites/logged/crawl/log?size=101', 400, /size must be an integer from 1 to 100/],
      ['/sites/logged/crawl/log?page=0', 400, /page must be a positive integer/],
      ['/sites/logged/crawl/log?crawl=x', 400, /crawl must be a positive integer/],
      ['/sites/news/crawl/log?crawl=' + first, 404, new RegExp(`news has no crawl ${first}`)],
      ['/sites/nosuch/crawl/log', 404, /no site named "nosuch"/],
    ];
    for (const [path, status, message] of refusals) {
      const refused = await call('GET', path);
      assert.equal(refused.status, status, path);
      assert.match(refused.body.error, message, path);
    }
  });

  test("a site's pages with their extractions, filtered and paged; one page's in full by its URL; bad filters 400, unknown sites and pages 404", async () => {
    const origin = 'http://127.0.0.1:9';
    const siteIds: Record<string, number> = {};
    for (const name of ['extracted', 'twin']) {
      const site = await addSite(rt, { name, seeds: [`${origin}/`], templateEveryMs: 0, allowPrivateAddresses: true });
      siteIds[name] = site.id;
    }
    const [template] = await rt.db.query<{ id: number }>(
      `INSERT INTO templates (site_id, version, cluster, url_patterns, signature, template, sample_size, page_count, method)
       VALUES ($1, 1, '/:slug', '{/:slug}', '[]', '{}', 3, 3, 'pipeline') RETURNING id`,
      [siteIds.extracted],
    );
    /** A stored page of a site, with an extraction of its current body (or of an older one), unless it has no body. */
    const page = async (
      site: string,
      path: string,
      extraction: { template: boolean; method: string; words: number; readAlone: boolean; warnings: string[]; stale?: boolean } | 'refused',
    ) => {
      const hash = extraction === 'refused' ? null : await storeRawPage(rt.db, Buffer.from(`<p>${site}${path}</p>`));
      // Ids of their own: the suite's pages were given theirs, which the sequence does not know.
      const [row] = await rt.db.query<{ id: number }>(
        `INSERT INTO pages (id, site_id, url, content_hash, fetch_error, status) VALUES ((SELECT max(id) + 1 FROM pages), $1, $2, $3, $4, $5) RETURNING id`,
        [siteIds[site], `${origin}${path}`, hash, hash ? null : 'HTTP 404', hash ? 200 : 404],
      );
      if (extraction === 'refused' || !hash || !row) return;
      const text = Array.from({ length: extraction.words }, (_, i) => `word${i}`).join(' ');
      await saveExtraction(rt.db, {
        pageId: row.id,
        contentHash: extraction.stale ? await storeRawPage(rt.db, Buffer.from(`<p>older ${path}</p>`)) : hash,
        method: extraction.method,
        templateId: extraction.template ? (template?.id ?? null) : null,
        templateVersion: extraction.template ? 1 : null,
        title: `Title of ${path}`,
        headline: null,
        blocks: [],
        mainText: text,
        warnings: extraction.warnings,
        needsReextract: false,
        readAlone: extraction.readAlone,
        wordCount: extraction.words,
      });
    };
    await page('extracted', '/a', { template: true, method: 'pipeline', words: 120, readAlone: false, warnings: [] });
    await page('extracted', '/b', { template: true, method: 'pipeline', words: 40, readAlone: true, warnings: ['first of two', 'second of two'] });
    await page('extracted', '/c', { template: false, method: 'reader', words: 0, readAlone: false, warnings: ['no main text'] });
    await page('extracted', '/d', { template: false, method: 'reader', words: 5, readAlone: false, warnings: [], stale: true });
    await page('extracted', '/e', 'refused');
    await page('twin', '/a', { template: false, method: 'reader', words: 7, readAlone: false, warnings: [] });

    const all = await call('GET', '/sites/extracted/pages');
    assert.equal(all.status, 200);
    assert.deepEqual(
      { ...all.body, entries: all.body.entries.map(({ extractedAt, ...entry }: { extractedAt: string }) => ({ ...entry, extractedAt: typeof extractedAt })) },
      {
        site: 'extracted',
        filters: { readAlone: null, empty: null, warnings: null, pageType: null },
        page: 1,
        size: 50,
        total: 3,
        entries: [
          ['/a', '/:slug', 1, 'pipeline', 120, false, 0, null],
          ['/b', '/:slug', 1, 'pipeline', 40, true, 2, 'first of two'],
          ['/c', null, null, 'reader', 0, false, 1, 'no main text'],
        ].map(([path, pageType, templateVersion, method, wordCount, readAlone, warningCount, firstWarning]) => ({
          url: `${origin}${path}`,
          pageType,
          templateVersion,
          method,
          wordCount,
          readAlone,
          warningCount,
          firstWarning,
          duplicateOf: null,
          extractedAt: 'string',
        })),
      },
      'the pages whose current body is extracted: not one extracted from an older body, nor one without a body',
    );
    const urls = async (query: string) => {
      const listed = await call('GET', `/sites/extracted/pages?${query}`);
      assert.equal(listed.status, 200, query);
      return [listed.body.total, listed.body.entries.map((entry: { url: string }) => entry.url.slice(origin.length))];
    };
    assert.deepEqual(await urls('readAlone=true'), [1, ['/b']]);
    assert.deepEqual(await urls('empty=true'), [1, ['/c']]);
    assert.deepEqual(await urls('warnings=true'), [2, ['/b', '/c']]);
    assert.deepEqual(await urls('warnings=false'), [1, ['/a']]);
    assert.deepEqual(await urls('readAlone=false&empty=false'), [1, ['/a']]);
    assert.deepEqual(await urls('readAlone=true&empty=true'), [0, []]);
    assert.deepEqual(await urls(`pageType=${encodeURIComponent('/:slug')}`), [2, ['/a', '/b']]);
    assert.deepEqual(await urls('size=1&page=2'), [3, ['/b']]);
    assert.deepEqual(await urls('size=2&page=3'), [3, []]);

    const one = await call('GET', `/pages?url=${encodeURIComponent(`${origin}/b`)}`);
    assert.equal(one.status, 200);
    assert.deepEqual(
      { ...one.body.page, extractedAt: typeof one.body.page.extractedAt },
      {
        site: 'extracted',
        url: `${origin}/b`,
        pageType: '/:slug',
        templateVersion: 1,
        method: 'pipeline',
        wordCount: 40,
        readAlone: true,
        warnings: ['first of two', 'second of two'],
        title: 'Title of /b',
        mainText: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '),
        duplicateOf: null,
        extractedAt: 'string',
      },
    );
    assert.equal((await call('GET', `/pages?url=${encodeURIComponent('HTTP://127.0.0.1:9/c')}`)).body.page.url, `${origin}/c`, 'a scheme in capitals');
    assert.equal(
      (await call('GET', `/pages?url=${encodeURIComponent(`${origin}/c#comments`)}`)).body.page.url,
      `${origin}/c`,
      'a fragment (a URL copied from a browser)',
    );
    const ofTwin = await call('GET', `/pages?url=${encodeURIComponent(`${origin}/a`)}&site=twin`);
    assert.deepEqual([ofTwin.body.page.site, ofTwin.body.page.method], ['twin', 'reader']);

    const refusals: [string, number, RegExp][] = [
      ['/sites/extracted/pages?readAlone=yes', 400, /^readAlone must be true or false$/],
      ['/sites/extracted/pages?empty=1', 400, /^empty must be true or false$/],
      ['/sites/extracted/pages?warnings=true&warnings=false', 400, /^warnings must be given once$/],
      ['/sites/extracted/pages?pageType=%2Fnope', 400, /^extracted has no page type "\/nope"; its templates' page types: \/:slug$/],
      ['/sites/twin/pages?pageType=%2F:slug', 400, /^twin has no page type "\/:slug"; it has no templates yet$/],
      ['/sites/extracted/pages?size=101', 400, /^size must be an integer from 1 to 100$/],
      ['/sites/extracted/pages?size=x', 400, /^size must be an integer from 1 to 100$/],
      ['/sites/extracted/pages?page=0', 400, /^page must be a positive integer$/],
      ['/sites/extracted/pages?readalone=true', 400, /^unknown query parameter "readalone": it takes readAlone, empty, warnings, pageType, page, size$/],
      ['/sites/nosuch/pages', 404, /^no site named "nosuch"$/],
      ['/pages', 400, /^url is required/],
      ['/pages?url=a&url=b', 400, /^url must be given once$/],
      ['/pages?url=not-a-url', 400, /^url "not-a-url" is not an absolute URL/],
      ['/pages?url=mailto:editor@example.com', 400, /^url "mailto:editor@example.com" is not an http\(s\) URL: no page has such a URL$/],
      [
        `/pages?url=${encodeURIComponent(`${origin}/a`)}`,
        400,
        /^"http:\/\/127\.0\.0\.1:9\/a" is a page of 2 sites \(extracted, twin\): name the site \(--site <name> on the command line, site=<name> in the API's GET \/pages\?url=\)$/,
      ],
      [`/pages?url=${encodeURIComponent(`${origin}/a`)}&site=`, 400, /^site must not be empty/],
      [`/pages?url=${encodeURIComponent(`${origin}/a`)}&site=nosuch`, 404, /^no site named "nosuch"$/],
      [`/pages?url=${encodeURIComponent(`${origin}/zzz`)}`, 404, /^no site has a page "http:\/\/127\.0\.0\.1:9\/zzz": no crawl reached that URL/],
      [`/pages?url=${encodeURIComponent(`${origin}/b`)}&site=twin`, 404, /^twin has no page "http:\/\/127\.0\.0\.1:9\/b"/],
      [`/pages?url=${encodeURIComponent(`${origin}/e`)}`, 404, /^http:\/\/127\.0\.0\.1:9\/e \(extracted\) has no stored body: HTTP 404$/],
      [`/pages?url=${encodeURIComponent(`${origin}/d`)}`, 404, /^http:\/\/127\.0\.0\.1:9\/d \(extracted\) is stored but not extracted yet$/],
      [`/pages?url=${encodeURIComponent(`${origin}/b`)}&sit=extracted`, 400, /^unknown query parameter "sit": it takes url, site$/],
    ];
    for (const [path, status, message] of refusals) {
      const refused = await call('GET', path);
      assert.equal(refused.status, status, path);
      assert.match(refused.body.error, message, path);
    }
    const path = `/pages?url=${encodeURIComponent(`${origin}/b`)}`;
    assert.equal((await call('GET', path, { token: null })).status, 401);
    assert.equal((await call('GET', path, { token: SEARCH })).status, 403, 'an operator endpoint: the text of every page, not only the indexed ones');
    await call('DELETE', '/sites/twin');
  });

  test("a template preparation answers with its job, which can be followed (a site with no stored page is a 409); another site's job or an unknown one is a 404", async () => {
    await addSite(rt, { name: 'prepared', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });
    const uncrawled = await call('POST', '/sites/prepared/templates');
    assert.deepEqual(
      [uncrawled.status, uncrawled.body],
      [409, { error: 'prepared has no stored pages yet: crawl it first (`winnow crawl prepared`), then prepare its templates', code: 'conflict' }],
      'nothing to prepare from',
    );
    await storePage(rt, 'prepared', 'http://127.0.0.1:9/a.html');
    const queued = await call('POST', '/sites/prepared/templates');
    assert.equal(queued.status, 202);
    assert.deepEqual({ ...queued.body, job: typeof queued.body.job }, { site: 'prepared', queued: true, job: 'string' });
    const path = `/sites/prepared/templates/jobs/${queued.body.job}`;
    // No templater runs here: the job waits in the queue.
    const followed = await call('GET', path);
    assert.equal(followed.status, 200);
    assert.deepEqual(followed.body, { job: { id: queued.body.job, site: 'prepared', state: 'queued', result: null, error: null } });
    assert.equal((await call('GET', path, { token: SEARCH })).status, 403);
    assert.equal((await call('GET', path, { token: null })).status, 401);
    for (const [other, message] of [
      [`/sites/news/templates/jobs/${queued.body.job}`, /news has no template job/],
      ['/sites/prepared/templates/jobs/999999', /prepared has no template job "999999"/],
      ['/sites/prepared/templates/jobs/not-a-job', /prepared has no template job "not-a-job"/],
      [`/sites/nosuch/templates/jobs/${queued.body.job}`, /no site named "nosuch"/],
    ] as const) {
      const refused = await call('GET', other);
      assert.equal(refused.status, 404, other);
      assert.match(refused.body.error, message, other);
    }
  });

  test("a site's template versions: one in full, what changed between two, the listing under the site's path, its health newest first and paged", async () => {
    const site = await addSite(rt, { name: 'versioned', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });
    const empty = await call('GET', '/sites/versioned/templates/versions/current');
    assert.deepEqual(
      [empty.status, empty.body],
      [404, { error: "versioned has no templates yet: a page type gets one once it has the site's minTemplatePages stored pages", code: 'not-found' }],
    );
    /** A page type's pipeline template of one layout that keeps `contentPaths`. */
    const pageType = (cluster: string, contentPaths: string[]): Omit<NewTemplate, 'changes'> => ({
      cluster,
      urlPatterns: [cluster],
      signature: ['BODY', 'BODY.MAIN'],
      method: 'pipeline',
      sampleSize: 3,
      pageCount: 3,
      template: {
        kind: 'pipeline',
        schemaVersion: 1,
        layouts: [
          {
            signature: ['BODY', 'BODY.MAIN'],
            pageCount: 3,
            repeatedLines: [7, 9],
            template: {
              schemaVersion: 1,
              params: { similarity: 0.9, repeatShare: 0.1, pathMode: 'tags', refine: true },
              pageCount: 3,
              contentPaths,
              regionPath: 'BODY.MAIN',
              nonContent: [{ path: contentPaths[0], ids: [1, 2], counts: [1, 1] }],
            },
          },
        ],
      },
    });
    const first = pageType('/a/:n', ['BODY.MAIN.H1', 'BODY.MAIN.P']);
    await insertTemplateVersion(rt.db, site.id, [{ ...first, changes: null }]);
    const changed = pageType('/a/:n', ['BODY.MAIN.P', 'BODY.MAIN.UL']);
    const stored = templateChanges(changed, { ...first, version: 1 });
    await insertTemplateVersion(rt.db, site.id, [
      { ...changed, changes: stored },
      { ...pageType('/b/:n', ['BODY.MAIN.P']), changes: templateChanges(pageType('/b/:n', ['BODY.MAIN.P']), undefined) },
    ]);

    const current = await call('GET', '/sites/versioned/templates/versions/current');
    assert.equal(current.status, 200);
    assert.deepEqual([current.body.site, current.body.version, current.body.current], ['versioned', 2, true]);
    const [a, b] = current.body.templates;
    assert.deepEqual([a.cluster, b.cluster], ['/a/:n', '/b/:n']);
    assert.deepEqual(a.contentPaths, ['BODY.MAIN.P', 'BODY.MAIN.UL']);
    assert.deepEqual(a.layouts, [
      { pages: 3, signaturePaths: 2, contentPaths: ['BODY.MAIN.P', 'BODY.MAIN.UL'], regionPath: 'BODY.MAIN', boilerplateBlocks: 1, repeatedLines: 2 },
    ]);
    assert.deepEqual(
      [a.version, a.method, a.pageCount, a.sampleSize, a.changes, a.health],
      [2, 'pipeline', 3, 3, stored, { pages: 0, readAlone: 0, meanWords: 0 }],
    );
    const older = await call('GET', `/sites/versioned/templates/versions/1?pageType=${encodeURIComponent('/a/:n')}`);
    assert.deepEqual(
      [older.body.version, older.body.current, older.body.templates.map((t: { contentPaths: string[] }) => t.contentPaths)],
      [1, false, [['BODY.MAIN.H1', 'BODY.MAIN.P']]],
    );

    const diff = await call('GET', '/sites/versioned/templates/diff?from=1');
    assert.equal(diff.status, 200);
    assert.deepEqual(diff.body, {
      site: 'versioned',
      from: 1,
      to: 2,
      pageTypes: [
        { cluster: '/a/:n', outcome: 'changed', pathsAdded: ['BODY.MAIN.UL'], pathsRemoved: ['BODY.MAIN.H1'], alsoChanged: stored.alsoChanged },
        { cluster: '/b/:n', outcome: 'new', pathsAdded: ['BODY.MAIN.P'], pathsRemoved: [], alsoChanged: [] },
      ],
    });
    assert.deepEqual(stored.alsoChanged, ['template.contentPaths', 'template.nonContent'], 'what else the version changed');
    const backwards = await call('GET', `/sites/versioned/templates/diff?from=2&to=1&pageType=${encodeURIComponent('/b/:n')}`);
    assert.deepEqual(backwards.body.pageTypes, [{ cluster: '/b/:n', outcome: 'removed', pathsAdded: [], pathsRemoved: ['BODY.MAIN.P'], alsoChanged: [] }]);

    const listed = await call('GET', '/sites/versioned/templates');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.templates.length, 3);
    assert.deepEqual(listed.body, (await call('GET', '/templates?site=versioned')).body, "the site's path answers as the listing does");

    const [templateId] = await rt.db.query<{ id: number }>(`SELECT id FROM templates WHERE site_id = $1 AND version = 2 AND cluster = '/a/:n'`, [site.id]);
    for (const [month, pages] of [
      ['01', 10],
      ['02', 20],
      ['03', 30],
    ] as const) {
      await rt.db.query('INSERT INTO template_health (template_id, measured_at, pages, read_alone, mean_words) VALUES ($1, $2, $3, 0, 100)', [
        templateId?.id,
        `2026-${month}-01T00:00:00Z`,
        pages,
      ]);
    }
    const health = await call('GET', '/sites/versioned/templates/health?since=2026-02-01&size=1');
    assert.deepEqual(
      [health.body.site, health.body.since, health.body.total, health.body.page, health.body.size, health.body.entries.map((e: { pages: number }) => e.pages)],
      ['versioned', '2026-02-01T00:00:00.000Z', 2, 1, 1, [30]],
      'newest first, from the day asked for',
    );
    assert.deepEqual(
      (await call('GET', '/sites/versioned/templates/health?since=2026-02-01&size=1&page=2')).body.entries[0].measuredAt,
      '2026-02-01T00:00:00.000Z',
    );
    assert.equal((await call('GET', '/sites/versioned/templates/health')).body.total, 3);

    const refusals: [string, number, RegExp][] = [
      ['/sites/versioned/templates/versions/3', 404, /^versioned has no template version 3; its versions are 1 to 2$/],
      ['/sites/versioned/templates/versions/0', 404, /^versioned has no template version 0; its versions are 1 to 2$/],
      ['/sites/versioned/templates/versions/latest', 400, /^version must be a template version: a positive integer$/],
      [
        `/sites/versioned/templates/versions/1?pageType=${encodeURIComponent('/b/:n')}`,
        404,
        /^versioned has no template of page type "\/b\/:n" in version 1; its page types: \/a\/:n$/,
      ],
      ['/sites/versioned/templates/versions/1?page=1', 400, /^unknown query parameter "page": it takes pageType$/],
      ['/sites/versioned/templates/diff', 400, /^from is required/],
      ['/sites/versioned/templates/diff?from=1&to=9', 404, /^versioned has no template version 9/],
      ['/sites/versioned/templates/diff?from=x', 400, /^from must be a template version/],
      [
        '/sites/versioned/templates/diff?from=1&pageType=%2Fzzz',
        404,
        /^versioned has no page type "\/zzz" in version 1 or 2; their page types: \/a\/:n, \/b\/:n$/,
      ],
      ['/sites/versioned/templates?site=versioned', 400, /^unknown query parameter "site": it takes none$/],
      ['/sites/versioned/templates/health?since=yesterday', 400, /^since must be an ISO 8601 date \(2026-05-01\) or time with its zone/],
      ['/sites/versioned/templates/health?since=2026-02-01T00:00', 400, /^since must be an ISO 8601 date/],
      ['/sites/versioned/templates/health?size=0', 400, /^size must be an integer from 1 to 100$/],
      ['/sites/nosuch/templates/versions/current', 404, /^no site named "nosuch"$/],
      ['/sites/nosuch/templates/diff?from=1', 404, /^no site named "nosuch"$/],
      ['/sites/nosuch/templates', 404, /^no site named "nosuch"$/],
    ];
    for (const [path, status, message] of refusals) {
      const refused = await call('GET', path);
      assert.equal(refused.status, status, path);
      assert.match(refused.body.error, message, path);
    }
    assert.equal((await call('GET', '/sites/versioned/templates/versions/current', { token: SEARCH })).status, 403);
    await call('DELETE', '/sites/versioned');
  });

  test('health and readiness are open to anyone, whatever the Host', async () => {
    assert.deepEqual((await call('GET', '/health', { token: null, host: '10.1.2.3:8080' })).body, { status: 'ok' });
    const ready = await call('GET', '/ready', { token: null, host: '10.1.2.3:8080' });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks, { database: 'ok', redis: 'ok', search: 'ok' });
  });

  test('readiness names a failed check without its reason, which goes to the log', async () => {
    const closed = await openDb({ dataDir: 'memory' });
    await closed.close();
    const broken = buildApi({ ...rt, db: closed });
    try {
      const ready = await caller(broken)('GET', '/ready', { token: null });
      assert.equal(ready.status, 503);
      assert.deepEqual(ready.body, {
        error: "not ready: database failed (the reasons are in the API's log)",
        code: 'not-ready',
        status: 'not ready',
        checks: { database: 'failed', redis: 'ok', search: 'ok' },
      });
    } finally {
      await broken.close();
    }
  });

  test("the router's own refusals answer in the API's format, without echoing the path", async () => {
    const badEncoding = await call('GET', '/sites/%ZZ');
    assert.equal(badEncoding.status, 400);
    assert.deepEqual(badEncoding.body, { error: 'the URL is not valid (a bad percent-encoding?)', code: 'url-malformed' });
    const long = await call('GET', `/sites/${'x'.repeat(5000)}`);
    assert.equal(long.status, 414);
    assert.deepEqual(long.body, { error: 'a path parameter is too long', code: 'param-too-long' });
  });

  test("a site's export is a download for operators: its fetches as a WARC file, its text as JSON lines or CSV; a bad format or site is named", async () => {
    const warc = await app.inject({ method: 'GET', url: '/sites/news/export?format=warc', headers: { host: OWN_HOST, authorization: `Bearer ${OPERATE}` } });
    assert.equal(warc.statusCode, 200);
    assert.equal(warc.headers['content-type'], 'application/warc');
    assert.equal(warc.headers['content-disposition'], 'attachment; filename="news.warc.gz"');
    const records = await checkWarc([warc.rawPayload]);
    assert.deepEqual(
      records.map((record) => [record.type, record.targetUri]),
      [
        ['warcinfo', null],
        ['response', 'http://127.0.0.1:9/stored.html'],
      ],
    );
    const csv = await app.inject({ method: 'GET', url: '/sites/news/export?format=csv', headers: { host: OWN_HOST, authorization: `Bearer ${OPERATE}` } });
    assert.equal(csv.statusCode, 200);
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      csv.body,
      'url,title,page_title,main_text,method,template_version,extracted_at,duplicate_of\n',
      'no page of it is extracted: the header alone',
    );
    const bad = await call('GET', '/sites/news/export?format=xml');
    assert.equal(bad.status, 400);
    assert.match((bad.body as { error: string }).error, /format must be one of jsonl, csv, warc/);
    assert.equal((await call('GET', '/sites/nowhere/export')).status, 404);
    assert.equal((await call('GET', '/sites/news/export', { token: SEARCH })).status, 403);
  });

  test('every operator endpoint: 401 without a token or with an unknown one, 403 with a search token, 2xx with an operate token', async () => {
    for (const [method, path, body] of OPERATOR_CALLS) {
      const what = `${method} ${path}`;
      const anonymous = await call(method, path, { body, token: null });
      assert.equal(anonymous.status, 401, what);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="winnow"', what);
      assert.match(anonymous.body.error, /needs a bearer token/, what);
      const unknown = await call(method, path, { body, token: randomBytes(24).toString('hex') });
      assert.equal(unknown.status, 401, what);
      assert.match(String(unknown.headers['www-authenticate']), /error="invalid_token"/, what);
      const wrongScheme = await call(method, path, { body, token: null, headers: { authorization: `Basic ${OPERATE}` } });
      assert.equal(wrongScheme.status, 401, what);
      const searchToken = await call(method, path, { body, token: SEARCH });
      assert.equal(searchToken.status, 403, what);
      assert.match(searchToken.body.error, /needs a token of scope operate; the token sent has scope search/, what);
      const operator = await call(method, path, { body });
      assert.ok(operator.status >= 200 && operator.status < 300, `${what}: ${operator.status} ${JSON.stringify(operator.body)}`);
    }
  });

  test('search takes a token of either scope and refuses a missing or unknown one', async () => {
    const path = '/search?q=harbour';
    assert.equal((await call('GET', path, { token: SEARCH })).body.total, 13);
    assert.equal((await call('GET', path, { token: OPERATE })).body.total, 13);
    const anonymous = await call('GET', path, { token: null });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="winnow"');
    assert.equal((await call('GET', path, { token: `${SEARCH}x` })).status, 401);
  });

  test('without a configured token: search is open, operator endpoints answer 401 saying to set WINNOW_API_TOKEN', async () => {
    const open = buildApi({ ...rt, env: { ...rt.env, WINNOW_API_TOKEN: [] } });
    try {
      const callOpen = caller(open);
      assert.equal((await callOpen('GET', '/search?q=harbour', { token: null })).body.total, 13);
      assert.equal((await callOpen('GET', '/health', { token: null })).status, 200);
      for (const [method, path, body] of OPERATOR_CALLS) {
        for (const token of [null, OPERATE]) {
          const refused = await callOpen(method, path, { body, token });
          assert.equal(refused.status, 401, `${method} ${path}`);
          assert.equal(refused.headers['www-authenticate'], 'Bearer realm="winnow"');
          assert.match(refused.body.error, /this API has none: set WINNOW_API_TOKEN/);
        }
      }
      assert.equal((await callOpen('GET', '/search?q=harbour', { host: 'rebound.example:8080', token: null })).status, 421, 'the Host check still applies');
    } finally {
      await open.close();
    }
  });

  test('a cross-origin text/plain, form or multipart POST is refused and acts on nothing', async () => {
    const before = await crawlStatus(rt, 'news');
    const browser = { origin: 'http://attacker.example' };
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const anonymous = await call('POST', '/sites/news/crawl', { token: null, headers: { ...browser, 'content-type': contentType }, body: '{}' });
      assert.equal(anonymous.status, 401, contentType);
      assert.equal(anonymous.headers['access-control-allow-origin'], undefined);
      const withToken = await call('POST', '/sites/news/crawl', { headers: { 'content-type': contentType }, body: '{}' });
      assert.equal(withToken.status, 415, contentType);
      assert.match(withToken.body.error, /request body must be JSON sent with Content-Type: application\/json/);
    }
    const utf16 = await call('POST', '/sites/news/crawl', { headers: { 'content-type': 'application/json; charset=utf-16' }, body: '{}' });
    assert.equal(utf16.status, 415);
    assert.match(utf16.body.error, /must be UTF-8 \(this one declares charset=utf-16\)/);
    const stop = await call('POST', '/sites/news/crawl/stop', { headers: { 'content-type': 'text/plain' }, body: 'stop' });
    assert.equal(stop.status, 415);
    assert.deepEqual(await crawlStatus(rt, 'news'), before, 'no crawl was started or stopped');
    const preflight = await call('OPTIONS', '/sites/news/crawl', {
      token: null,
      headers: { ...browser, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    assert.ok(preflight.status >= 400, 'a preflight is never approved');
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  test("a Host that is not the API's is refused (DNS rebinding); its own, loopback and allowed names are answered", async () => {
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'LOCALHOST:8080', 'winnow.example', 'winnow.example:1234', 'proxy.example:8443']) {
      assert.equal((await call('GET', '/status', { host })).status, 200, host);
    }
    for (const host of [
      'rebound.example:8080',
      'localhost:9999',
      'localhost',
      'proxy.example:80',
      'proxy.example',
      'evil.example@localhost:8080',
      '10.0.0.5:8080',
    ]) {
      const refused = await call('GET', '/status', { host });
      assert.equal(refused.status, 421, host);
      assert.match(refused.body.error, /is not this API's address; .* WINNOW_API_ALLOWED_HOSTS/, host);
    }
    assert.equal((await call('GET', '/search?q=harbour', { host: 'rebound.example:8080', token: SEARCH })).status, 421);
    assert.throws(
      () => buildApi({ ...rt, env: { ...rt.env, WINNOW_API_ALLOWED_HOSTS: ['winnow.example/admin'] } }),
      /WINNOW_API_ALLOWED_HOSTS: "winnow.example\/admin" is not a host name or host:port/,
    );
  });

  test('an unknown route needs a token like any operator endpoint, then is a 404 with the reason', async () => {
    assert.equal((await call('GET', '/admin', { token: null })).status, 401);
    const missing = await call('GET', '/admin?x=1');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'no route GET /admin', code: 'route-unknown' });
  });

  test('every error answers in one shape, its code saying its status by one table: unknown routes, wrong methods, refusals, bodies, an unreachable database', async () => {
    const shaped = (response: { status: number; body: unknown }, status: number, code: string, what: string) => {
      assert.equal(response.status, status, what);
      assert.deepEqual(Object.keys(response.body as object).sort(), ['code', 'error'], `${what}: ${JSON.stringify(response.body)}`);
      assert.equal((response.body as { code: string }).code, code, what);
      assert.equal(STATUS_BY_CODE[code as ApiErrorCode], status, `${what}: the table says ${code} is ${status}`);
    };
    shaped(await call('GET', '/nowhere'), 404, 'route-unknown', 'an unknown path');
    const wrongMethod = await call('PUT', '/status');
    shaped(wrongMethod, 405, 'method-not-allowed', 'a known path, a method it does not take');
    assert.equal(wrongMethod.headers.allow, 'GET, HEAD');
    assert.match((wrongMethod.body as { error: string }).error, /^PUT is not allowed on \/status; it takes GET, HEAD$/);
    shaped(await call('DELETE', '/sites/news/crawl'), 405, 'method-not-allowed', 'a path with parameters');
    shaped(await call('GET', '/sites', { token: null }), 401, 'token-missing', 'no token');
    shaped(await call('GET', '/sites', { token: SEARCH }), 403, 'scope-insufficient', 'a search token');
    shaped(await call('GET', '/sites', { host: 'evil.example' }), 421, 'host-foreign', 'a foreign Host');
    shaped(
      await call('POST', '/sites', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'body-not-json',
      'a form body',
    );
    shaped(await call('POST', '/sites', { body: '{"name": ' }), 400, 'body-malformed', 'malformed JSON');
    shaped(
      await call('POST', '/sites', { body: JSON.stringify({ name: 'big', seeds: ['x'.repeat(1024 * 1024)] }) }),
      413,
      'body-too-large',
      'a body over 1 MiB',
    );
    shaped(await call('GET', '/sites/nosuch'), 404, 'not-found', 'an unknown site');
    shaped(await call('GET', '/search?q=harbour&size=0'), 400, 'invalid-input', 'a bad value');
    // A real Postgres reached through a relay that is then shut: the next query finds the server gone.
    const relay = await tcpRelay(5432);
    const db = await openDb({ databaseUrl: `postgres://postgres:postgres@127.0.0.1:${relay.port}/postgres`, onError: () => undefined });
    await relay.close();
    const broken = buildApi({ ...rt, db });
    try {
      const unreachable = await caller(broken)('GET', '/sites');
      shaped(unreachable, 503, 'unavailable', 'a database that cannot be reached');
      assert.equal(unreachable.headers['retry-after'], '5');
    } finally {
      await broken.close();
      await db.close();
    }
  });

  test('/openapi.json documents every route from its schema: its parameters are exactly those the route takes, every error is the one shape', async () => {
    const answer = await call('GET', '/openapi.json', { token: SEARCH });
    assert.equal(answer.status, 200);
    const doc = answer.body as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string; required?: boolean }[]; responses: Record<string, { content?: unknown }> }>
      >;
      components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }>; required?: string[] }> };
    };
    assert.equal(doc.openapi, '3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    const documented = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    for (const [method, path] of OPERATOR_CALLS) {
      const template = path.split('?')[0]?.replace(/\/sites\/[^/]+/, '/sites/{name}') ?? '';
      assert.ok(documented.includes(`${method} ${template}`), `${method} ${template} is documented`);
    }
    for (const route of [
      'GET /search',
      'GET /pages',
      'GET /metrics',
      'GET /health',
      'GET /ready',
      'GET /openapi.json',
      'GET /sites/{name}/templates/versions/{version}',
    ]) {
      assert.ok(documented.includes(route), route);
    }
    const { Error: error, SiteConfig: siteConfig } = doc.components.schemas;
    assert.deepEqual(error?.required, ['error', 'code']);
    assert.deepEqual(error?.properties?.code?.enum, Object.keys(STATUS_BY_CODE), 'every code the table has');
    assert.deepEqual(siteConfig?.required, ['name', 'seeds'], 'the one site schema');
    for (const { path, method, operation } of operations) {
      for (const range of ['4XX', '5XX']) assert.ok(operation.responses[range], `${method} ${path}: ${range} documented`);
      // A route refuses a query parameter it does not take, naming those it takes: the document's list.
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      if (method !== 'get' || path === '/health' || path === '/ready') continue; // the probes answer anyone, whatever they ask
      const concrete = path.replace('{name}', 'news').replace('{version}', '1').replace('{id}', '1');
      const refused = await call('GET', `${concrete}?bogus=1`);
      assert.equal(refused.status, 400, `${path}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error, `unknown query parameter "bogus": it takes ${query.length > 0 ? query.join(', ') : 'none'}`, path);
    }
  });

  test('a body with a prototype-pollution key is refused with a 400 that names the key; malformed JSON gets a clear 400', async () => {
    const proto = await call('POST', '/sites', { body: `{"__proto__": {"admin": true}, "name": "polluted", "seeds": ["http://127.0.0.1:9/"]}` });
    assert.equal(proto.status, 400);
    assert.match(proto.body.error, /the key "__proto__" is refused/);
    const ordinary = await call('PUT', '/sites/news', { body: { seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true } });
    assert.equal(ordinary.status, 200, 'an ordinary body passes');
    const constructorKey = await call('PUT', '/sites/news', {
      body: `{"seeds": ["http://127.0.0.1:9/"], "allowPrivateAddresses": true, "x": {"constructor": {"prototype": {"admin": true}}}}`,
    });
    assert.equal(constructorKey.status, 400);
    assert.match(constructorKey.body.error, /the key "constructor.prototype" is refused/);
    const malformed = await call('POST', '/sites', { body: '{"name": ' });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.error, /the request body is not valid JSON: /);
    // An empty body typed as JSON is no body: the endpoint answers as it does without one.
    const empty = await call('POST', '/sites', { body: '', headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 400);
    assert.match(empty.body.error, /this request needs a JSON body: the site's settings/);
    const stop = await call('POST', '/sites/news/crawl/stop', { body: ' ', headers: { 'content-type': 'application/json' } });
    assert.deepEqual([stop.status, stop.body], [409, { error: 'no crawl of news is queued or running', code: 'conflict' }], 'the body passes as none');
  });

  test('sites: create, read, replace, delete; bad bodies get 400 with the reason', async () => {
    const created = await call('POST', '/sites', { body: { name: 'blog', seeds: ['http://127.0.0.1:9/blog/'], maxPages: 50, allowPrivateAddresses: true } });
    assert.equal(created.status, 201);
    assert.equal(created.body.site.config.maxPages, 50);
    assert.equal((await call('POST', '/sites', { body: { name: 'blog', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true } })).status, 409);
    const malformed = await call('POST', '/sites', { body: { name: 'x', seeds: ['ftp//nope'] } });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.error, /seeds\.0: must be an absolute http\(s\) URL/);
    for (const seeds of [undefined, []]) {
      const seedless = await call('POST', '/sites', { body: { name: 'x', seeds } });
      assert.deepEqual(
        [seedless.status, seedless.body],
        [400, { error: 'invalid site configuration: seeds: needs at least one seed URL', code: 'invalid-input' }],
        'missing or empty, one reason',
      );
    }
    const unknownField = await call('POST', '/sites', { body: { name: 'y', seeds: ['http://127.0.0.1:9/'], maxPagez: 3, allowPrivateAddresses: true } });
    assert.equal(unknownField.status, 400);
    assert.match(unknownField.body.error, /maxPagez/);
    const replaced = await call('PUT', '/sites/blog', { body: { seeds: ['http://127.0.0.1:9/other/'], maxDepth: 2, allowPrivateAddresses: true } });
    assert.equal(replaced.status, 200);
    assert.deepEqual(replaced.body.site.config.seeds, ['http://127.0.0.1:9/other/']);
    const renamed = await call('PUT', '/sites/blog', { body: { name: 'other', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true } });
    assert.equal(renamed.status, 400);
    assert.match(renamed.body.error, /the body names the site "other" and the path "blog": a site cannot be renamed/);
    const removed = await call('DELETE', '/sites/blog');
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { removed: { site: 'blog', crawls: 0, pages: 0, templateVersions: 0, templates: 0, documents: 0 } });
    assert.equal((await call('GET', '/sites/blog')).status, 404);
  });

  test('sites: a PATCH is a merge patch of the configuration, validated whole; it answers the stored site', async () => {
    const created = await call('POST', '/sites', {
      body: { name: 'patched', seeds: ['http://127.0.0.1:9/p/'], maxPages: 50, delayMs: 300, templateEveryMs: 0, allowPrivateAddresses: true },
    });
    const patched = await call('PATCH', '/sites/patched', { body: { maxPages: 7, delayMs: null } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.site.config, { ...created.body.site.config, maxPages: 7, delayMs: 0 }, 'the patched setting, the reset one, the rest kept');
    assert.deepEqual((await call('GET', '/sites/patched')).body.site, patched.body.site);
    const rfcType = await call('PATCH', '/sites/patched', { body: '{"concurrency": 2}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(rfcType.status, 200, "RFC 7396's media type is read as JSON");
    assert.equal(rfcType.body.site.config.concurrency, 2);
    const notForPost = await call('POST', '/sites', { body: '{}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(notForPost.status, 415, 'a merge patch is for PATCH only');

    for (const [body, field] of [
      [{ maxPages: 0 }, /invalid site configuration: maxPages: /],
      [{ render: 'fast' }, /render: Invalid option/],
      [{ seeds: null }, /^invalid site configuration: seeds: cannot be reset: a site needs at least one seed URL \(give the seeds that replace them\)$/],
      [{ maxPagez: 3 }, /maxPagez/],
      [{ allowPrivateAddresses: false }, /seeds\.0: refused: 127\.0\.0\.1 is a private address/],
      [{ name: 'renamed' }, /the body names the site "renamed" and the path "patched": a site cannot be renamed/],
      [[{ maxPages: 5 }], /a site's patch must be a JSON object/],
    ] as const) {
      const refused = await call('PATCH', '/sites/patched', { body });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(refused.body.error, field, JSON.stringify(body));
    }
    assert.deepEqual((await call('GET', '/sites/patched')).body.site.config, rfcType.body.site.config, 'nothing refused was stored');
    const unknown = await call('PATCH', '/sites/nosuch', { body: { maxPages: 5 } });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: 'no site named "nosuch"', code: 'not-found' });
    assert.equal((await call('DELETE', '/sites/patched')).status, 200);
  });

  test('an unknown site is a 404 everywhere', async () => {
    for (const [method, path] of [
      ['GET', '/sites/nosuch'],
      ['POST', '/sites/nosuch/crawl'],
      ['POST', '/sites/nosuch/crawl/stop'],
      ['POST', '/sites/nosuch/templates'],
      ['GET', '/sites/nosuch/templates/health'],
      ['PATCH', '/sites/nosuch'],
      ['DELETE', '/sites/nosuch'],
      ['GET', '/search?q=harbour&site=nosuch'],
      ['GET', '/templates?site=nosuch'],
    ] as const) {
      const response = await call(method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.match(response.body.error, /no site named "nosuch"/);
    }
    for (const path of ['/sites/a%00b', '/templates?site=a%00b', '/search?q=x&site=a%00b']) {
      const response = await call('GET', path);
      assert.equal(response.status, 404, `${path}: a name with a NUL byte names no site`);
    }
  });

  test('crawl start is accepted once; a second while the first is queued conflicts', async () => {
    const first = await call('POST', '/sites/news/crawl');
    assert.equal(first.status, 202);
    assert.equal(first.body.crawl.state, 'queued');
    assert.equal((await call('POST', '/sites/news/crawl')).status, 409);
    assert.equal((await call('GET', '/sites/news/crawl')).body.crawl.id, first.body.crawl.id);
    assert.deepEqual((await call('GET', '/status/idle')).body, { idle: false });
    assert.equal((await call('POST', '/sites/news/crawl/stop')).body.crawl.state, 'stopped', 'no crawler holds it: it stops at once');
    const again = await call('POST', '/sites/news/crawl/stop');
    assert.deepEqual([again.status, again.body], [409, { error: 'no crawl of news is queued or running', code: 'conflict' }]);
  });

  test('a query parameter an endpoint does not take, or a body an action does not take, is a 400 naming it', async () => {
    for (const [path, reason] of [
      ['/search?q=harbour&sise=5', 'unknown query parameter "sise": it takes q, site, page, size'],
      ['/templates?site=news&foo=1&bar=2', 'unknown query parameters "foo", "bar": it takes site'],
      ['/sites/news/crawl/log?outcomes=gone', 'unknown query parameter "outcomes": it takes outcome, crawl, page, size'],
    ] as const) {
      const response = await call('GET', path);
      assert.deepEqual([response.status, response.body], [400, { error: reason, code: 'invalid-input' }], path);
    }
    for (const path of ['/sites/news/crawl', '/sites/news/crawl/stop', '/sites/news/templates']) {
      const response = await call('POST', path, { body: { force: true } });
      assert.deepEqual([response.status, response.body], [400, { error: 'this request takes no body (or an empty JSON object)', code: 'invalid-input' }], path);
    }
    assert.equal((await call('POST', '/sites/news/templates', { body: {} })).status, 202, 'an empty object is no setting');
  });

  test('text the database cannot hold (a NUL, an unpaired surrogate) in a seed, a glob, a patch or a page URL is a 4xx saying so, never a 500', async () => {
    const bodies = [
      '{"name": "nul-seed", "seeds": ["http://a.example/\\u0000"]}',
      '{"name": "nul-glob", "seeds": ["http://a.example/"], "allow": ["http://a.example/\\u0000*"]}',
      '{"name": "lone-surrogate", "seeds": ["http://a.example/\\ud800"]}',
      '{"name": "lone-surrogate-glob", "seeds": ["http://a.example/"], "allow": ["http://a.example/\\udc00*"]}',
    ];
    for (const body of bodies) {
      const response = await call('POST', '/sites', { body });
      assert.equal(response.status, 400, body);
      assert.match(response.body.error, /a NUL character|an unpaired surrogate/, body);
    }
    const patched = await call('PATCH', '/sites/news', { body: '{"seeds": ["http://127.0.0.1:9/\\u0000"]}' });
    assert.equal(patched.status, 400);
    assert.match(patched.body.error, /seeds\.0: .*a NUL character/);
    const page = await call('GET', '/pages?url=http://127.0.0.1:9/%00&site=news');
    assert.equal(page.status, 404, 'a URL holding a NUL is no page: no stored URL holds one');
    assert.match(page.body.error, /news has no page/);
  });

  test('an empty site parameter is a 400, not a site named ""', async () => {
    for (const path of ['/search?q=harbour&site=', '/templates?site=']) {
      const response = await call('GET', path);
      assert.deepEqual([response.status, response.body], [400, { error: 'site must not be empty: leave it out for every site', code: 'invalid-input' }], path);
    }
  });

  test('search: exact phrase, highlights, site filter, pagination', async () => {
    const phrase = await call('GET', `/search?q=${encodeURIComponent('"noon tides rose"')}&size=5`, { token: SEARCH });
    assert.equal(phrase.status, 200);
    assert.equal(phrase.body.total, 13, 'the phrase crosses the line between two blocks');
    assert.equal(phrase.body.hits.length, 5);
    assert.match(phrase.body.hits[0].highlights[0], /<mark>noon\.\nTides rose<\/mark>|<mark>noon\. Tides rose<\/mark>/);
    assert.match(phrase.body.hits[0].highlights[0], /&#60;b&#62;/, 'text is HTML-escaped');
    assert.match(phrase.body.hits[0].title, /^Story \d+$/, "the title is the article's headline");
    assert.match(phrase.body.hits[0].pageTitle, /^Story \d+ \| News$/, "the page's <title> is a field of its own");
    assert.deepEqual(
      phrase.body.hits.map((hit: { docId: string }) => hit.docId),
      phrase.body.hits.map((hit: { site: string; url: string }) => documentIdFor(hit.site, hit.url)),
      "each hit names its document by the id the README documents (its site's and URL's)",
    );
    const last = await call('GET', `/search?q=${encodeURIComponent('"noon tides rose"')}&size=5&page=3`, { token: SEARCH });
    assert.equal(last.body.hits.length, 3);
    const seen = new Set([...phrase.body.hits, ...last.body.hits].map((hit: { url: string }) => hit.url));
    assert.equal(seen.size, 8, 'pages do not overlap');
    assert.equal((await call('GET', `/search?q=${encodeURIComponent('"tides noon"')}`)).body.total, 0, 'order matters in a phrase');
    assert.equal((await call('GET', '/search?q=harbour%20ports')).body.total, 0, 'terms must all occur');
    assert.equal((await call('GET', '/search?q=harbour&site=news')).body.total, 13);
  });

  test('bad search requests get 400 with the reason', async () => {
    for (const [path, reason] of [
      ['/search', /no words/],
      ['/search?q=%22unclosed', /unclosed quote/],
      ['/search?q=%22%22', /quoted phrase has no words/],
      [`/search?q=${'a'.repeat(600)}`, /at most 500/],
      ['/search?q=x&size=1000', /size must be/],
      ['/search?q=x&page=0', /page must be/],
      ['/search?q=x&page=abc', /page must be a positive integer/],
      // Out of range or not a number: one message either way.
      ['/search?q=x&size=abc', /size must be an integer from 1 to 100/],
      ['/search?q=x&size=0', /size must be an integer from 1 to 100/],
      ['/search?q=x&size=-3', /size must be an integer from 1 to 100/],
      ['/search?q=a&q=b', /must be a string/],
    ] as const) {
      const response = await call('GET', path, { token: SEARCH });
      assert.equal(response.status, 400, path);
      assert.match(response.body.error, reason, path);
    }
  });

  test('status reports sites and queues', async () => {
    const status = await call('GET', '/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.sites.find((site: { site: string }) => site.site === 'news').indexed, 25);
    assert.ok('extract' in status.body.queues);
  });
});
