import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { serveDemoWeb } from '@winnow/demo-corpus';
import { lcsF1 } from '@winnow/eval';
import {
  addSite,
  openRuntime,
  pageExplanation,
  requestTemplates,
  type Runtime,
  siteTemplates,
  startCrawl,
  templateDiff,
  templateVersion,
  waitForIdle,
} from '@winnow/runtime';
import { findCrawl, findSite, recordTemplateHealth, siteHealthHistory } from '@winnow/storage';
import { pino } from 'pino';
import { closeAll, startWorkers } from './pipeline.js';
import { redesignedSiteConfig, serveRedesignedSite } from './testing/redesignedSite.js';

async function extractions(rt: Runtime): Promise<{ path: string; main_text: string; read_alone: boolean; runs: number; template_version: number | null }[]> {
  return rt.db.query(
    `SELECT regexp_replace(p.url, '^https?://[^/]+', '') AS path, e.main_text, e.read_alone, e.runs, e.template_version
       FROM extractions e JOIN pages p ON p.id = e.page_id ORDER BY p.id`,
  );
}

function meanLcs(rows: readonly { path: string; main_text: string }[], gold: ReadonlyMap<string, string>): number {
  return rows.reduce((sum, row) => sum + lcsF1(gold.get(row.path) ?? '', row.main_text), 0) / rows.length;
}

describe('templates that follow their site (the pipeline method, embedded)', () => {
  test("preparing again from the same pages stores no new version; only an analyst's run re-extracts, and only the pages an earlier version read; health is recorded when it changed", async () => {
    const web = await serveDemoWeb(['gazette'], { articles: 24 });
    const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    const services = await startWorkers(rt);
    try {
      const site = web.sites[0];
      assert.ok(site);
      await addSite(rt, { name: 'gazette', seeds: [`${site.origin}/`], minTemplatePages: 3, templateEveryMs: 0, allowPrivateAddresses: true });
      await startCrawl(rt, 'gazette');
      await waitForIdle(rt);
      const before = await extractions(rt);
      assert.equal(before.length, site.pages.length);
      const version = (await siteTemplates(rt, 'gazette')).find((template) => template.current)?.version;
      assert.ok(version && before.every((row) => row.template_version !== null), 'every page read by a template');
      await requestTemplates(rt, 'gazette');
      await waitForIdle(rt);
      const prepared = await extractions(rt);
      assert.deepEqual(
        prepared.map((row) => [row.runs, row.template_version]),
        before.map((row) => [row.template_version === version ? row.runs : row.runs + 1, version]),
        "the analyst's run brought the pages an earlier version read to the current one, and left the others",
      );
      await startCrawl(rt, 'gazette'); // a crawl's end asks for templates too
      await waitForIdle(rt);
      const templates = await siteTemplates(rt, 'gazette');
      assert.deepEqual(
        templates.filter((template) => template.current).map((template) => template.version),
        templates.filter((template) => template.version === version).map(() => version),
        `still version ${version}`,
      );
      assert.equal(Math.max(...templates.map((template) => template.version)), version, 'no newer version');
      assert.deepEqual(
        (await extractions(rt)).map((row) => row.runs),
        prepared.map((row) => row.runs),
        'no page extracted again after the crawl',
      );
      const siteId = (await findSite(rt.db, 'gazette'))?.id ?? 0;
      const recorded = async () => (await siteHealthHistory(rt.db, siteId, { offset: 0, limit: 1000 })).entries;
      const history = await recorded();
      const articles = history.filter((record) => record.cluster === '/articles/:n.html' && record.version === version);
      assert.ok(articles.length >= 1, 'the runs recorded the health of the current page types');
      assert.ok(
        articles.every((health) => health.pages >= site.pages.length / 2 && health.readAlone === 0 && health.meanWords > 20),
        JSON.stringify(articles),
      );
      // Runs that find the figures and the template unchanged (a schedule firing on a site left alone) store nothing.
      await recordTemplateHealth(rt.db, siteId);
      await recordTemplateHealth(rt.db, siteId);
      assert.deepEqual(await recorded(), history, 'no row for figures already recorded');
      for (const cluster of new Set(history.map((record) => record.cluster))) {
        const figures = history
          .filter((record) => record.cluster === cluster)
          .map(({ version, pages, readAlone, meanWords }) => JSON.stringify([version, pages, readAlone, meanWords]));
        assert.ok(
          figures.every((row, i) => row !== figures[i + 1]),
          `no two consecutive records of a page type alike: ${figures.join(' ')}`,
        );
      }
      // A figure that changed is recorded, at once and once.
      await rt.db.query(
        `UPDATE extractions SET word_count = word_count + 1000 WHERE page_id = (SELECT min(p.id) FROM pages p JOIN extractions e ON e.page_id = p.id
           WHERE p.site_id = $1 AND p.url LIKE '%/articles/%' AND e.template_version IS NOT NULL)`,
        [siteId],
      );
      await recordTemplateHealth(rt.db, siteId);
      await recordTemplateHealth(rt.db, siteId);
      const [latest, ...older] = await recorded();
      assert.deepEqual(older, history, 'the earlier records stay');
      assert.equal(latest?.cluster, '/articles/:n.html');
      assert.ok((latest?.meanWords ?? 0) > (articles[0]?.meanWords ?? 0), `mean words grew: ${JSON.stringify(latest)}`);
    } finally {
      await closeAll(services);
      await rt.close();
      await web.close();
    }
  });

  test('a site redesigned half-way through its archive gets a template per design, and its pages keep their text', async () => {
    const web = await serveDemoWeb(['relaunch'], { articles: 40 });
    const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
    const services = await startWorkers(rt);
    try {
      const site = web.sites[0];
      assert.ok(site);
      await addSite(rt, { name: 'relaunch', seeds: [`${site.origin}/`], minTemplatePages: 3, templateEveryMs: 0, allowPrivateAddresses: true });
      await startCrawl(rt, 'relaunch');
      await waitForIdle(rt);
      const articles = (await siteTemplates(rt, 'relaunch')).find((template) => template.urlPatterns.includes('/articles/:n.html'));
      assert.equal(articles?.layouts, 2, 'the old and the new design');
      const rows = (await extractions(rt)).filter((row) => row.path.startsWith('/articles/'));
      const gold = new Map([...site.goldByUrl].map(([url, text]) => [new URL(url).pathname, text]));
      assert.ok(rows.filter((row) => row.read_alone).length <= 2, 'the template is trusted on its pages');
      const half = rows.length / 2;
      for (const [name, part] of [
        ['old design', rows.slice(0, half)],
        ['new design', rows.slice(half)],
      ] as const) {
        const mean = meanLcs(part, gold);
        assert.ok(mean > 0.9, `${name}: mean lcs F1 ${mean.toFixed(3)}`);
      }
    } finally {
      await closeAll(services);
      await rt.close();
      await web.close();
    }
  });

  test('a redesign after the templates were prepared is noticed: a new version, without waiting for the schedule; the diff across it names the paths it changed', async () => {
    // A slow server, so that the recrawl takes long enough for the extractor to notice the redesign before it ends.
    const site = await serveRedesignedSite();
    const { origin } = site;
    /** What the pipeline logged at warn and above, as pino wrote it: the drift it noticed. */
    const logged: { msg: string; templateId?: number }[] = [];
    const kept = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'warn' }), { log: pino({ level: 'warn' }, kept) });
    const services = await startWorkers(rt);
    try {
      await addSite(rt, redesignedSiteConfig('redesigned', site));
      await startCrawl(rt, 'redesigned');
      await waitForIdle(rt);
      const first = (await siteTemplates(rt, 'redesigned'))[0]?.version ?? 0;
      assert.ok(first >= 1);

      site.redesign(); // the same addresses, a new design
      const recrawl = await startCrawl(rt, 'redesigned');
      await waitForIdle(rt);
      const ended = (await findCrawl(rt.db, recrawl.id))?.finishedAt;
      assert.ok(ended);
      const templates = await siteTemplates(rt, 'redesigned');
      assert.ok(
        templates.some((template) => template.version === first + 1 && template.createdAt < ended),
        `version ${first + 1} was prepared before the recrawl ended: the drift asked for it`,
      );
      // What an analyst reads: the new versions added the new design's paths and removed the old one's.
      const changes = templates
        .filter((template) => template.version > first && template.urlPatterns.includes('/articles/:n.html'))
        .map((template) => template.changes);
      assert.ok(
        changes.some((change) => change?.pathsAdded.some((path) => path.includes('.MAIN.'))),
        JSON.stringify(changes),
      );
      assert.ok(
        changes.some((change) => change?.pathsRemoved.some((path) => path.includes('.TABLE.'))),
        JSON.stringify(changes),
      );
      // The diff between two versions says what each version recorded against the one before, by the same rules.
      for (const template of templates.filter((candidate) => candidate.version > 1 && candidate.changes?.since === candidate.version - 1)) {
        const diff = await templateDiff(rt, 'redesigned', { from: template.version - 1, to: template.version, pageType: template.cluster });
        const { pathsAdded, pathsRemoved, alsoChanged } = template.changes ?? {};
        assert.deepEqual(diff.pageTypes, [{ cluster: template.cluster, outcome: diff.pageTypes[0]?.outcome, pathsAdded, pathsRemoved, alsoChanged }]);
        assert.ok(diff.pageTypes[0]?.outcome === 'unchanged' || diff.pageTypes[0]?.outcome === 'changed', JSON.stringify(diff));
      }
      // Across the redesign at once: the new design's paths are added, the old one's removed.
      const across = await templateDiff(rt, 'redesigned', { from: first, pageType: '/articles/:n.html' });
      assert.ok(
        across.pageTypes[0]?.pathsAdded.some((path) => path.includes('.MAIN.')),
        JSON.stringify(across),
      );
      assert.ok(
        across.pageTypes[0]?.pathsRemoved.some((path) => path.includes('.TABLE.')),
        JSON.stringify(across),
      );
      const shown = await templateVersion(rt, 'redesigned', { pageType: '/articles/:n.html' });
      const [articles] = shown.templates;
      assert.ok(shown.current && articles && articles.layouts.length > 0, JSON.stringify(shown));
      assert.deepEqual(articles.contentPaths, [...new Set(articles.layouts.flatMap((layout) => layout.contentPaths))].sort());
      assert.ok(articles.health.pages > 0, 'its pages were read');
      const gold = new Map(site.pages().map((page) => [page.path, page.gold]));
      const rows = (await extractions(rt)).filter((row) => row.path.startsWith('/articles/'));
      assert.ok(
        rows.every((row) => row.template_version !== null && !row.read_alone),
        'every page read by a template the self-check trusts (pages read alone by the old one were read again by the new)',
      );
      assert.ok(
        rows.some((row) => (row.template_version ?? 0) > first),
        'the versions prepared after the redesign read its pages',
      );
      const mean = meanLcs(rows, gold);
      assert.ok(mean > 0.9, `mean lcs F1 after the redesign ${mean.toFixed(3)}`);
      // The drift was logged once per template that drifted, with its figures, not once per page read alone.
      const drifts = logged.filter((line) => line.msg.startsWith('template drift on redesigned'));
      assert.ok(drifts.length >= 1, JSON.stringify(logged.map((line) => line.msg)));
      assert.equal(new Set(drifts.map((line) => line.templateId)).size, drifts.length, 'one line per template');
      assert.match(drifts[0]?.msg ?? '', /^template drift on redesigned \/articles\/:n\.html: \d+ of its \d+ pages read alone; preparing templates again$/);
      // The inspector's diff against the previous version: an earlier version's reading beside the
      // page's reading now, whose side is the text the page has.
      let withPrevious = 0;
      for (const row of rows.filter((candidate) => (candidate.template_version ?? 0) > first)) {
        const explanation = await pageExplanation(rt, { url: `${origin}${row.path}`, site: 'redesigned' });
        const { previous } = explanation;
        if (!previous) continue;
        withPrevious++;
        assert.ok(
          previous.templateVersion < (explanation.page.templateVersion ?? 0),
          `${row.path}: version ${previous.templateVersion} before ${explanation.page.templateVersion}`,
        );
        assert.equal(
          previous.diff
            .filter((line) => line.change !== 'removed')
            .map((line) => line.text)
            .join('\n'),
          explanation.keptText,
          `${row.path}: the diff's current side is the page's reading`,
        );
      }
      assert.ok(withPrevious > 0, 'pages read by a version after the redesign have one before it to be compared with');
    } finally {
      await closeAll(services);
      await rt.close();
      await site.close();
    }
  });
});
