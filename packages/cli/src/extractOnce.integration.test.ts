import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { serveGeneratedSite } from '@winnow/crawler/testing';
import { addSite, openRuntime, siteTemplates, startCrawl, waitForIdle } from '@winnow/runtime';
import { findCrawl } from '@winnow/storage';
import { closeAll, startWorkers } from './pipeline.js';
import { until } from './testing/serviceProcesses.js';

describe('each page is extracted once (the embedded pipeline)', () => {
  test('templates arrive while the crawl runs, and later versions re-extract only what they can improve', async () => {
    // The site answers its first listing (20 articles) at once and holds the other nineteen back
    // until the articles have a template: the crawl cannot end before one exists unless templates
    // wait for crawls, and how busy the machine is decides nothing (a slow templater makes the
    // crawl wait, not read more pages without a template).
    let templated!: () => void;
    const site = await serveGeneratedSite({
      pages: 400,
      latencyMs: [5, 15],
      shape: 'listings',
      holdBack: {
        paths: Array.from({ length: 19 }, (_, i) => `/page/${i + 2}.html`),
        until: new Promise<void>((resolve) => {
          templated = resolve;
        }),
      },
    });
    // A held listing is answered once the template exists, however long that takes, and the held
    // requests leave the site slots enough to fetch the first listing's articles meanwhile.
    const rt = await openRuntime(
      loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_FETCH_TIMEOUT_MS: '600000', WINNOW_CRAWL_CONCURRENCY: '32' }),
    );
    const services = await startWorkers(rt);
    try {
      await addSite(rt, {
        name: 'generated',
        seeds: [`${site.origin}/`],
        templateEveryMs: 0,
        allowPrivateAddresses: true,
        maxPages: 1000,
        concurrency: 24,
      });
      const crawl = await startCrawl(rt, 'generated');
      const articlesTemplate = async () => (await siteTemplates(rt, 'generated')).some((template) => template.urlPatterns.includes('/articles/:n.html'));
      await until('a template of the articles while the crawl runs', articlesTemplate, 300_000);
      assert.equal((await findCrawl(rt.db, crawl.id))?.finishedAt, null, 'the articles had a template before the crawl ended');
      templated();
      await waitForIdle(rt);
      assert.ok((await findCrawl(rt.db, crawl.id))?.finishedAt);
      const [row] = await rt.db.query<{ pages: number; runs: number; untemplated: number }>(
        'SELECT count(*)::int AS pages, sum(runs)::int AS runs, count(*) FILTER (WHERE template_id IS NULL)::int AS untemplated FROM extractions',
      );
      assert.ok(row && row.pages >= site.paths.length, `${row?.pages} pages extracted`);
      assert.equal(row.untemplated, 0, 'every page read by a template in the end');
      // Only the pages read before their type's first template are read twice: at most the first
      // listing's here; `pnpm bench crawl` measures the share on 2,100 pages.
      assert.ok(row.runs / row.pages <= 1.1, `${row.runs} extractions for ${row.pages} pages`);
    } finally {
      templated();
      await closeAll(services);
      await rt.close();
      await site.close();
    }
  });
});
