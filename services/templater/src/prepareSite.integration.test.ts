import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadEnv, parseSiteConfig } from '@winnow/config';
import { openRuntime, type Runtime } from '@winnow/runtime';
import { insertSite, listStoredPages, listTemplates, pagesToExtract, saveExtraction, storeFetchedPage } from '@winnow/storage';
import { prepareSite } from './prepareSite.js';

const article = (i: number, extra = '', footer = 'Harbour Gazette') =>
  `<html><head><title>Story ${i}</title></head><body><nav><a href="/">Home</a><a href="/about.html">About</a></nav>
  <article><h1>Story number ${i}</h1>${Array.from({ length: 6 }, (_, j) => `<p>${extra}Paragraph ${j} of story ${i}: the harbour master counted the boats at dawn and wrote them down.</p>`).join('')}</article>
  <footer><p>${footer}</p></footer></body></html>`;

const storer = (siteId: number) => (path: string, html: string) =>
  storeFetchedPage(rt.db, { siteId, url: `http://127.0.0.1:9${path}`, crawlId: null, status: 200, headers: {}, contentType: 'text/html' }, Buffer.from(html));

let rt: Runtime;

describe('template preparation over a site with unreadable pages (real PGlite and Redis)', () => {
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_CPU_THREADS: '1' }));
  });
  after(async () => {
    await rt.close();
  });

  test('a page with a stray few C0 controls is clustered like its kind; empty and binary ones are skipped; the site still gets its template', async () => {
    const site = await insertSite(
      rt.db,
      parseSiteConfig({ name: 'gazette', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true, minTemplatePages: 3 }),
    );
    const store = storer(site.id);
    for (let i = 1; i <= 6; i++) await store(`/articles/${i}.html`, article(i));
    await store('/articles/7.html', article(7).replace('<h1>', '<h1>\u0001\u0002\u0003 '));
    await store('/articles/8.html', ' \n\t \n');
    await storeFetchedPage(
      rt.db,
      { siteId: site.id, url: 'http://127.0.0.1:9/articles/9.html', crawlId: null, status: 200, headers: {}, contentType: 'text/html' },
      randomBytes(20_000),
    );

    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const log = Object.assign(Object.create(rt.log) as Runtime['log'], {
      warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
    });
    const outcome = await prepareSite({ ...rt, log }, site.id);
    assert.equal(outcome.version, 1, JSON.stringify(outcome));
    assert.deepEqual(
      outcome.pageTypes.map(({ cluster, pages, outcome }) => ({ cluster, pages, outcome })),
      [{ cluster: '/articles/:n.html', pages: 7, outcome: 'new' }],
    );
    assert.deepEqual(warnings, [
      {
        fields: { site: 'gazette', count: 2, urls: ['http://127.0.0.1:9/articles/9.html', 'http://127.0.0.1:9/articles/8.html'] },
        message: 'pages skipped in template preparation: not readable HTML',
      },
    ]);
  });

  test('a new version only when a page type changed, each page type saying what became of it; the same template carried into a new version is recorded unchanged', async () => {
    const site = await insertSite(
      rt.db,
      parseSiteConfig({ name: 'versions', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true, minTemplatePages: 3 }),
    );
    const store = storer(site.id);
    const types = (outcome: { pageTypes: { cluster: string; outcome: string }[] }) =>
      Object.fromEntries(outcome.pageTypes.map((type) => [type.cluster, type.outcome]));
    // Fewer pages than minTemplatePages in all: no template yet, and no version.
    await store('/articles/1.html', article(1));
    await store('/about.html', '<html><body><h1>About us</h1><table><tr><td>The harbour gazette has been printed since 1890.</td></tr></table></body></html>');
    const few = await prepareSite(rt, site.id);
    assert.deepEqual([few.previousVersion, few.version], [0, 0]);
    assert.deepEqual(types(few), { '/articles/:n.html': 'too-few-pages', '/about.html': 'too-few-pages' });

    // Enough pages: the about page, a page type too rare for a template of its own, is read with the articles.
    for (let i = 2; i <= 6; i++) await store(`/articles/${i}.html`, article(i));
    const first = await prepareSite(rt, site.id);
    assert.deepEqual([first.previousVersion, first.version], [0, 1]);
    assert.deepEqual(types(first), { '/articles/:n.html': 'new' });

    // More pages of the same kind: the template differs only in how many pages it was learned from.
    for (let i = 7; i <= 9; i++) await store(`/articles/${i}.html`, article(i));
    const more = await prepareSite(rt, site.id);
    assert.deepEqual([more.previousVersion, more.version, more.reextract], [1, 1, 0], 'no new version, nothing re-extracted');
    assert.deepEqual(types(more), { '/articles/:n.html': 'unchanged' });

    // A new footer on most pages: the same content paths, but what the template drops changed.
    for (let i = 10; i <= 20; i++) await store(`/articles/${i}.html`, article(i, '', 'Harbour Gazette: subscribe for the weekly tide tables'));
    const footer = await prepareSite(rt, site.id);
    assert.equal(footer.version, 2);
    const articles = footer.pageTypes.find((type) => type.cluster === '/articles/:n.html');
    assert.equal(articles?.outcome, 'changed');
    assert.deepEqual([articles?.pathsAdded, articles?.pathsRemoved], [0, 0]);
    assert.ok(articles?.alsoChanged.length && articles.alsoChanged.every((field) => field.startsWith('template.')), JSON.stringify(articles));

    // A new page type: the next version holds the articles' template as it was.
    for (let i = 1; i <= 4; i++)
      await store(
        `/news/${i}.html`,
        article(100 + i)
          .replace('<article>', '<main><div>')
          .replace('</article>', '</div></main>'),
      );
    const news = await prepareSite(rt, site.id);
    assert.equal(news.version, 3);
    assert.deepEqual(types(news), { '/articles/:n.html': 'unchanged', '/news/:n.html': 'new' });
    const stored = await listTemplates(rt.db, 'versions');
    assert.deepEqual(
      stored.map((template) => [template.version, template.cluster, template.changes]),
      [
        [3, '/articles/:n.html', { since: 2, pathsAdded: [], pathsRemoved: [], alsoChanged: [] }],
        [3, '/news/:n.html', { since: null, pathsAdded: stored[1]?.changes?.pathsAdded, pathsRemoved: [], alsoChanged: [] }],
        [2, '/articles/:n.html', { since: 1, pathsAdded: [], pathsRemoved: [], alsoChanged: articles?.alsoChanged }],
        [1, '/articles/:n.html', null],
      ],
    );
  });

  test("an analyst's run that keeps the current version re-extracts the pages an earlier version's template read; a scheduled one leaves them", async () => {
    const site = await insertSite(
      rt.db,
      parseSiteConfig({ name: 'outgrown', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true, minTemplatePages: 3 }),
    );
    const store = storer(site.id);
    for (let i = 1; i <= 6; i++) await store(`/articles/${i}.html`, article(i));
    assert.equal((await prepareSite(rt, site.id)).version, 1);
    // The extractor read these pages with version 1 and the self-check trusted the readings: they stand across versions.
    const [v1] = await listTemplates(rt.db, 'outgrown');
    const readByV1 = await listStoredPages(rt.db, site.id);
    for (const page of readByV1) {
      await saveExtraction(rt.db, {
        pageId: page.id,
        contentHash: page.contentHash as string,
        method: 'pipeline',
        templateId: v1?.id ?? null,
        templateVersion: 1,
        title: null,
        headline: null,
        blocks: [],
        mainText: 'Story',
        warnings: [],
        needsReextract: false,
        readAlone: false,
        wordCount: 1,
      });
    }
    for (let i = 7; i <= 20; i++) await store(`/articles/${i}.html`, article(i, '', 'Harbour Gazette: subscribe for the weekly tide tables'));
    assert.equal((await prepareSite(rt, site.id)).version, 2);
    const standing = (pages: { pageId: number }[]) => readByV1.filter((page) => !pages.some((stale) => stale.pageId === page.id)).length;
    assert.equal(standing(await pagesToExtract(rt.db, site.id)), 6, "version 1's readings stand");

    const scheduled = await prepareSite(rt, site.id);
    assert.deepEqual([scheduled.version, scheduled.reextract], [2, 0], 'a scheduled run keeps the version and queues nothing');
    assert.equal(standing(await pagesToExtract(rt.db, site.id)), 6);
    const analyst = await prepareSite(rt, site.id, { reextractAll: true });
    assert.deepEqual([analyst.previousVersion, analyst.version, analyst.reextract], [2, 2, 20], 'every page is extracted with version 2');
    assert.equal(standing(await pagesToExtract(rt.db, site.id)), 0);
  });

  test('a page type whose URL patterns only changed places (by how many pages each has) is unchanged: no new version', async () => {
    const site = await insertSite(
      rt.db,
      parseSiteConfig({ name: 'reordered', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true, minTemplatePages: 3 }),
    );
    const store = storer(site.id);
    for (let i = 1; i <= 6; i++) await store(`/articles/${i}.html`, article(i));
    for (let i = 7; i <= 8; i++) await store(`/zeta/${i}.html`, article(i));
    await store('/news/9.html', article(9));
    const first = await prepareSite(rt, site.id);
    assert.equal(first.version, 1);
    assert.deepEqual((await listTemplates(rt.db, 'reordered'))[0]?.urlPatterns, ['/articles/:n.html', '/zeta/:n.html', '/news/:n.html']);

    for (let i = 10; i <= 11; i++) await store(`/news/${i}.html`, article(i));
    const again = await prepareSite(rt, site.id);
    assert.deepEqual(
      [again.version, again.pageTypes.map(({ cluster, outcome, alsoChanged }) => ({ cluster, outcome, alsoChanged }))],
      [1, [{ cluster: '/articles/:n.html', outcome: 'unchanged', alsoChanged: [] }]],
    );

    // Another of its patterns outgrows the one that named it: the page type keeps its name.
    for (let i = 12; i <= 20; i++) await store(`/news/${i}.html`, article(i));
    const renamed = await prepareSite(rt, site.id);
    assert.deepEqual(
      renamed.pageTypes.map(({ cluster, outcome }) => ({ cluster, outcome })),
      [{ cluster: '/articles/:n.html', outcome: renamed.version === 1 ? 'unchanged' : 'changed' }],
      'no page type removed and another added',
    );
  });
});
