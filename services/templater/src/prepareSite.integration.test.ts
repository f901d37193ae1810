import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv, parseSiteConfig } from '@winnow/config';
import { openRuntime, type Runtime } from '@winnow/runtime';
import { insertSite, storeFetchedPage } from '@winnow/storage';
import { prepareSite } from './prepareSite.js';

const article = (i: number, extra = '') =>
  `<html><head><title>Story ${i}</title></head><body><nav><a href="/">Home</a><a href="/about.html">About</a></nav>
  <article><h1>Story number ${i}</h1>${Array.from({ length: 6 }, (_, j) => `<p>${extra}Paragraph ${j} of story ${i}: the harbour master counted the boats at dawn and wrote them down.</p>`).join('')}</article>
  <footer><p>Harbour Gazette</p></footer></body></html>`;

describe('template preparation over a site with unreadable pages (real PGlite and Redis)', () => {
  let rt: Runtime;
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_CPU_THREADS: '1' }));
  });
  after(async () => {
    await rt.close();
  });

  test('a page with C0 controls is clustered like its kind; an empty one is skipped; the site still gets its template', async () => {
    const site = await insertSite(
      rt.db,
      parseSiteConfig({ name: 'gazette', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true, minTemplatePages: 3 }),
    );
    const store = (path: string, html: string) =>
      storeFetchedPage(
        rt.db,
        { siteId: site.id, url: `http://127.0.0.1:9${path}`, crawlId: null, status: 200, headers: {}, contentType: 'text/html' },
        Buffer.from(html),
      );
    for (let i = 1; i <= 6; i++) await store(`/articles/${i}.html`, article(i));
    await store('/articles/7.html', article(7, '\u0001\u0002\u0003 '));
    await store('/articles/8.html', ' \n\t \n');

    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const log = Object.assign(Object.create(rt.log) as Runtime['log'], {
      warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
    });
    const outcome = await prepareSite({ ...rt, log }, site.id);
    assert.ok(outcome.version !== null && outcome.version > 0, JSON.stringify(outcome));
    assert.deepEqual(
      outcome.clusters.map(({ cluster, pages, templated }) => ({ cluster, pages, templated })),
      [{ cluster: '/articles/:n.html', pages: 7, templated: true }],
    );
    assert.deepEqual(warnings, [
      {
        fields: { site: 'gazette', count: 1, urls: ['http://127.0.0.1:9/articles/8.html'] },
        message: 'pages skipped in template preparation: not readable HTML',
      },
    ]);
  });
});
