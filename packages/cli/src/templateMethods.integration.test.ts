import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { serveDemoWeb } from '@winnow/demo-corpus';
import { lcsF1 } from '@winnow/eval';
import { addSite, openRuntime, startCrawl, waitForIdle } from '@winnow/runtime';
import { closeAll, startWorkers } from './pipeline.js';

describe('the pipeline runs the template method its configuration names', () => {
  for (const method of ['pipeline', 'fastce+']) {
    test(`WINNOW_TEMPLATE_METHOD=${method}: templates prepared and pages extracted by ${method}`, async () => {
      const web = await serveDemoWeb(['gazette'], { articles: 30 });
      const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_TEMPLATE_METHOD: method }));
      const services = await startWorkers(rt);
      try {
        const site = web.sites[0];
        assert.ok(site);
        await addSite(rt, { name: site.name, seeds: [`${site.origin}/`], minTemplatePages: 3, templateEveryMs: 0, allowPrivateAddresses: true });
        await startCrawl(rt, site.name);
        await waitForIdle(rt);
        const templates = await rt.db.query<{ method: string }>('SELECT DISTINCT method FROM templates');
        assert.deepEqual(templates, [{ method }]);
        const rows = await rt.db.query<{ url: string; method: string; main_text: string }>(
          'SELECT p.url, e.method, e.main_text FROM extractions e JOIN pages p ON p.id = e.page_id',
        );
        assert.equal(rows.length, site.pages.length);
        assert.ok(
          rows.every((row) => row.method === method),
          `every page read by ${method}: ${[...new Set(rows.map((row) => row.method))].join(', ')}`,
        );
        const mean = rows.reduce((sum, row) => sum + lcsF1(site.goldByUrl.get(row.url) ?? '', row.main_text), 0) / rows.length;
        assert.ok(mean > 0.9, `mean lcs F1 ${mean.toFixed(3)}`);
      } finally {
        await closeAll(services);
        await rt.close();
        await web.close();
      }
    });
  }
  test('a name that is not a template method is refused with the environment, before anything starts', () => {
    assert.throws(() => loadEnv({ WINNOW_TEMPLATE_METHOD: 'mainblock' }), /WINNOW_TEMPLATE_METHOD: unknown template method "mainblock"/);
  });
});
