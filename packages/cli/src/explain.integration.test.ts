import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { type ApiService, startApi } from '@winnow/api';
import { loadEnv } from '@winnow/config';
import { DEMO_SITE_NAMES, type DemoWeb, listenOnLoopback, serveDemoWeb } from '@winnow/demo-corpus';
import { type GoldPage, loadPages } from '@winnow/eval';
import { addSite, listSites, openRuntime, type PageExplanation, pageExplanation, type Runtime, sitePages, startCrawl, waitForIdle } from '@winnow/runtime';
import { closeAll, startWorkers } from './pipeline.js';
import { runCli } from './testing/embeddedCli.js';

const OPERATE = randomBytes(24).toString('hex');

/** The shared dataset replayed through the pipeline: three sites' real pages (56). */
const DATASET = fileURLToPath(new URL('../../../../../work/shared/datasets/cleanportaleval', import.meta.url));

/** Serves one dataset site's pages as its own origin: a home page linking every page, and the pages as stored. */
async function serveDatasetSite(pages: readonly GoldPage[]): Promise<{ server: Server; origin: string; paths: string[] }> {
  const byPath = new Map(pages.map((page, i) => [`/pages/${i}.html`, page.html]));
  const home = `<html><head><title>Pages</title></head><body><ul>${[...byPath.keys()].map((path) => `<li><a href="${path}">${path}</a></li>`).join('')}</ul></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/robots.txt') return void response.writeHead(404).end();
    const html = request.url === '/' ? home : byPath.get(request.url ?? '');
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  const origin = await listenOnLoopback(server);
  return { server, origin, paths: [...byPath.keys()] };
}

/** Every stored page of a site, explained. */
async function explainedPages(rt: Runtime, site: string): Promise<PageExplanation[]> {
  const explained: PageExplanation[] = [];
  for (let page = 1; ; page++) {
    const listed = await sitePages(rt, site, { page, size: 100 });
    for (const entry of listed.entries) explained.push(await pageExplanation(rt, { url: entry.url, site }));
    if (page * 100 >= listed.total) return explained;
  }
}

function assertExplains(explanation: PageExplanation): void {
  const { page, lines } = explanation;
  assert.ok(explanation.matchesStored, `${page.url}: the re-reading keeps the stored text`);
  assert.equal(explanation.keptText, page.mainText, page.url);
  assert.equal(
    lines
      .filter((line) => line.kept)
      .map((line) => line.text)
      .join('\n'),
    page.mainText,
    `${page.url}: the kept lines are the stored main text`,
  );
  for (const line of lines) assert.ok(line.reason !== '', `${page.url}: every line says why`);
}

describe('the page inspector in data: every page of the demo and of a shared dataset, replayed through the pipeline', () => {
  let rt: Runtime;
  let web: DemoWeb;
  let api: ApiService;
  const servers: Server[] = [];
  const datasetSites: string[] = [];

  before(async () => {
    const started = performance.now();
    web = await serveDemoWeb(DEMO_SITE_NAMES, { articles: 40 });
    const bySite = new Map<string, GoldPage[]>();
    for (const page of await loadPages(DATASET)) bySite.set(page.site, [...(bySite.get(page.site) ?? []), page]);
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: `operate:${OPERATE}` }));
    const services = await startWorkers(rt);
    try {
      for (const site of web.sites) {
        await addSite(rt, { name: site.name, seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true, minTemplatePages: 5 });
        await startCrawl(rt, site.name);
      }
      for (const [host, pages] of bySite) {
        const served = await serveDatasetSite(pages);
        servers.push(served.server);
        const name = host.replace(/[^a-z0-9]+/g, '-');
        datasetSites.push(name);
        await addSite(rt, { name, seeds: [`${served.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true, minTemplatePages: 5 });
        await startCrawl(rt, name);
      }
      await waitForIdle(rt);
    } finally {
      await closeAll(services);
    }
    console.log(`pipeline run: ${Math.round(performance.now() - started)} ms`);
    api = await startApi(rt, 0, '127.0.0.1');
  });
  after(async () => {
    await api?.close();
    await rt?.close();
    await web?.close();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  test("on every demo page, the explanation's kept text is the stored main text", async () => {
    let pages = 0;
    let templated = 0;
    for (const site of web.sites) {
      for (const explanation of await explainedPages(rt, site.name)) {
        assertExplains(explanation);
        pages++;
        if (explanation.page.templateVersion !== null) templated++;
      }
    }
    assert.ok(pages >= web.sites.reduce((sum, site) => sum + site.pages.length, 0) - web.sites.length, `${pages} pages explained`);
    assert.ok(templated > pages / 2, `${templated} of ${pages} read with a template`);
  });

  test("on every page of cleanportaleval, replayed, the explanation's kept text is the stored main text, and the drops say why", async () => {
    const rules = new Map<string, number>();
    let pages = 0;
    for (const site of datasetSites) {
      for (const explanation of await explainedPages(rt, site)) {
        if (explanation.page.url.endsWith('/')) continue;
        assertExplains(explanation);
        pages++;
        for (const line of explanation.lines) rules.set(line.rule, (rules.get(line.rule) ?? 0) + 1);
      }
    }
    assert.equal(pages, 56, 'every page of the dataset');
    // The pipeline's own rules are at work on real pages: the template's and the self-check's.
    for (const rule of ['both-readings', 'not-confirmed-by-template', 'not-confirmed-by-reader', 'repeated-on-site'])
      assert.ok((rules.get(rule) ?? 0) > 0, `${rule}: ${JSON.stringify([...rules])}`);
    assert.ok(
      (rules.get('not-content-path') ?? 0) + (rules.get('boilerplate-container') ?? 0) + (rules.get('outside-main-region') ?? 0) > 0,
      JSON.stringify([...rules]),
    );
  });

  test('`winnow page --explain` prints it, and `--json` prints what the API answers', async () => {
    const site = web.sites[0];
    assert.ok(site);
    const [article] = (await sitePages(rt, site.name, { size: 100 })).entries.filter((entry) => entry.templateVersion !== null);
    assert.ok(article);
    const env = { ...process.env, WINNOW_API_URL: api.url, WINNOW_API_TOKEN: OPERATE, DATABASE_URL: '', REDIS_URL: '' };
    const text = await runCli(['page', article.url, '--explain'], { env });
    const explanation = await pageExplanation(rt, { url: article.url });
    assert.match(text.stdout, /^\s+self-check: /m);
    for (const line of explanation.lines) assert.ok(text.stdout.includes(`${line.kept ? '+' : '-'} [${line.rule}] ${line.text.slice(0, 60)}`), line.text);
    assert.match(text.stdout, /the kept lines are the stored main text/);
    const json = await runCli(['page', article.url, '--explain', '--json'], { env });
    const answered = await fetch(`${api.url}/pages/explain?url=${encodeURIComponent(article.url)}`, { headers: { authorization: `Bearer ${OPERATE}` } });
    assert.equal(answered.status, 200);
    assert.deepEqual(JSON.parse(json.stdout), await answered.json());
    assert.equal((await listSites(rt.db)).length, web.sites.length + datasetSites.length);
  });
});
