import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { type ApiService, startApi } from '@winnow/api';
import { loadEnv } from '@winnow/config';
import { closeServer, type DemoWeb, listenOnLoopback, serveDemoWeb } from '@winnow/demo-corpus';
import { addSite, openRuntime, type PageExplanation, pageExplanation, pipelineStatus, type Runtime, sitePages, startCrawl, waitForIdle } from '@winnow/runtime';
import { DRIFT_MIN_PAGES, DRIFT_SHARE } from '@winnow/extractor';
import { findSite, siteHealthHistory } from '@winnow/storage';
import { type Browser, chromium, type Page } from 'playwright-core';
import { demoPhrases } from './commands/demo.js';
import { closeAll, startWorkers } from './pipeline.js';
import { type RedesignedSite, redesignedSiteConfig, serveRedesignedSite } from './testing/redesignedSite.js';

const OPERATE = randomBytes(24).toString('hex');
/**
 * Where the screenshots go: the repository's docs/console, committed with the console's
 * documentation, when asked (`WINNOW_CONSOLE_SCREENSHOTS=1`); else a scratch folder, so that a test
 * run leaves the working tree as it found it.
 */
const REFRESH_DOCS = process.env.WINNOW_CONSOLE_SCREENSHOTS === '1';
const SHOTS = REFRESH_DOCS ? fileURLToPath(new URL('../../../docs/console/', import.meta.url)) : `${await mkdtemp(join(tmpdir(), 'winnow-console-'))}/`;
const CHROMIUM = process.env.WINNOW_CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The console in real Chromium (the system's, through Playwright) on a real pipeline run: two demo
 * sites crawled into an embedded runtime (PGlite, a private Redis, Postgres full-text search),
 * with the workers running, so that the console's actions (crawl, prepare, retry) are carried out.
 */
describe('the web console, in Chromium, on a real pipeline run', () => {
  let rt: Runtime;
  let web: DemoWeb;
  let api: ApiService;
  let services: Awaited<ReturnType<typeof startWorkers>>;
  let browser: Browser;
  let page: Page;
  /** A site redesigned after its templates were prepared (served and crawled by the drift test). */
  let redesigned: RedesignedSite | undefined;
  /** A site that gained a line on every page after its templates were prepared (the inspector's diff test). */
  let amended: RedesignedSite | undefined;
  /** Every URL the browser asked for: nothing but the API. */
  const requested: string[] = [];

  /** Opens a screen and waits until the console has drawn it from the API's answers. */
  async function open(hash: string): Promise<void> {
    // The screen shown is drawn again even when it is the one asked for (no hashchange then).
    await page.evaluate(`document.querySelector('main').removeAttribute('data-loaded');
      if (location.hash === ${JSON.stringify(hash)}) dispatchEvent(new HashChangeEvent('hashchange')); else location.hash = ${JSON.stringify(hash)};`);
    await page.waitForSelector(`main[data-loaded="${hash.replace(/"/g, '\\"')}"]`);
  }

  before(async () => {
    await mkdir(SHOTS, { recursive: true });
    web = await serveDemoWeb(['gazette', 'relaunch'], { articles: 24 });
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: `operate:${OPERATE}` }));
    services = await startWorkers(rt);
    for (const site of web.sites) {
      await addSite(rt, { name: site.name, seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true, minTemplatePages: 5 });
      await startCrawl(rt, site.name);
    }
    await waitForIdle(rt);
    api = await startApi(rt, 0, '127.0.0.1');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('request', (request) => requested.push(request.url()));
    page.on('dialog', (dialog) => void dialog.accept());
  });
  after(async () => {
    await browser?.close();
    await api?.close();
    await closeAll(services ?? []);
    await rt?.close();
    await web?.close();
    await redesigned?.close();
    await amended?.close();
    if (!REFRESH_DOCS) await rm(SHOTS, { recursive: true, force: true });
  });

  test('the sign-in page takes the token; a wrong one is refused in words', async () => {
    await page.goto(`${api.url}/`);
    assert.equal(new URL(page.url()).pathname, '/console/', 'GET / leads to the console');
    await page.fill('input[name=token]', 'not-the-token');
    await page.click('button[type=submit]');
    await page.waitForSelector('#login-error:text("not valid")');
    await page.screenshot({ path: `${SHOTS}login.png` });
    await page.fill('input[name=token]', OPERATE);
    await page.click('button[type=submit]');
    await page.waitForSelector('main[data-loaded="#/sites"]');
    assert.equal(await page.evaluate('document.cookie'), '', 'no cookie: the token stays in this tab');
  });

  test('sites: every site with its latest crawl and pages per stage; add, edit and remove work', async () => {
    await open('#/sites');
    for (const site of web.sites) {
      const row = page.locator(`tr[data-site="${site.name}"]`);
      assert.match(await row.innerText(), /finished: \d+ of \d+ URLs done/);
    }
    await page.screenshot({ path: `${SHOTS}sites.png`, fullPage: true });

    await page.fill('#add-site input[name=name]', 'extra');
    await page.fill('#add-site textarea[name=seeds]', 'http://127.0.0.1:9/');
    await page.fill('#add-site textarea[name=config]', '{"maxPages": 5, "allowPrivateAddresses": true}');
    await page.click('#add-site button[type=submit]');
    await page.waitForSelector('tr[data-site="extra"]');
    assert.equal((await findSite(rt.db, 'extra'))?.config.maxPages, 5);

    await open('#/site/edit?name=extra');
    const config = JSON.parse(await page.inputValue('#edit-site textarea[name=config]'));
    await page.screenshot({ path: `${SHOTS}edit-site.png` });
    await page.fill('#edit-site textarea[name=config]', JSON.stringify({ ...config, maxPages: 7 }));
    await page.click('#edit-site button[type=submit]');
    await page.waitForSelector('main[data-loaded="#/sites"]');
    assert.equal((await findSite(rt.db, 'extra'))?.config.maxPages, 7);

    await page.click('tr[data-site="extra"] button:text("Remove")');
    await page.waitForSelector('p.notice:text("removed extra")');
    assert.equal(await findSite(rt.db, 'extra'), undefined);
  });

  test('sites: Crawl starts a crawl, and the screen follows its progress live, without being opened again', async () => {
    // A slow site (each page answered after 600 ms, one at a time): a crawl of several seconds, the screen redrawn every 2 s meanwhile.
    const slow = createServer((request, response) => {
      const path = request.url ?? '/';
      const links = Array.from({ length: 8 }, (_, i) => `<a href="/${i}.html">${i}</a>`).join(' ');
      if (path !== '/' && !/^\/[0-7]\.html$/.test(path)) return void response.writeHead(404).end();
      setTimeout(
        () =>
          response
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<html><body><p>Page ${path} of the slow site.</p>${path === '/' ? links : ''}</body></html>`),
        600,
      );
    });
    const origin = await listenOnLoopback(slow);
    try {
      await addSite(rt, { name: 'slow', seeds: [`${origin}/`], allowPrivateAddresses: true, concurrency: 1 });
      await open('#/sites');
      const row = page.locator('tr[data-site="slow"]');
      assert.match(await row.innerText(), /never crawled/);
      await row.locator('button:text("Crawl")').click();
      const seen: string[] = [];
      // Bounded by the loop, not a verdict: the row is read as the screen redraws itself.
      for (let i = 0; i < 600 && !/finished:/.test(seen.at(-1) ?? ''); i++) {
        const progress = (
          await row
            .locator('span.crawl')
            .innerText()
            .catch(() => '')
        ).trim();
        if (progress !== '' && progress !== seen.at(-1)) seen.push(progress);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.match(seen.at(-1) ?? '', /^finished: 9 of 9 URLs done \(9 stored, 0 queued, 0 in flight\)$/, seen.join(' | '));
      const running = seen.filter((text) => /^running: \d+ of \d+ URLs done/.test(text));
      assert.ok(running.length >= 1, `the crawl was shown under way: ${seen.join(' | ')}`);
      assert.equal(page.url().endsWith('#/sites'), true, 'the same screen, redrawn');
    } finally {
      await closeServer(slow);
    }
  });

  test("a site's screen: its pages, and the URLs the crawl refused with their reasons", async () => {
    await open('#/site?name=gazette');
    await page.screenshot({ path: `${SHOTS}site.png`, fullPage: true });
    const refused = await page.locator('tr.refused').allInnerTexts();
    assert.ok(refused.length > 0);
    assert.ok(
      refused.every((row) => /\trefused\tHTTP 404$|\tdisallowed\t.+|\tfailed\t.+/.test(row)),
      `each refused URL with its reason: ${refused.join(' | ')}`,
    );
    const { total } = await sitePages(rt, 'gazette', {});
    assert.match(await page.locator('h2', { hasText: /^Pages \(/ }).innerText(), new RegExp(`Pages \\(${total}\\)`));
    // Pages per stage: one row of counts, as `status` gives them.
    const [gazette] = (await pipelineStatus(rt)).sites.filter((entry) => entry.site === 'gazette');
    assert.ok(gazette);
    const stages = await page.locator('h2:text("Pages per stage") + table tbody td').allInnerTexts();
    assert.deepEqual(
      stages,
      [gazette.stored, gazette.extracted, gazette.readAlone, gazette.empty, gazette.indexed, gazette.failedExtract, gazette.failedIndex].map(String),
    );
    assert.equal(gazette.stored, total, 'every page listed is stored');
  });

  test('a failed job is listed with its error, and Retry runs it again', async () => {
    // A job its queue's contract refuses fails for good (a vanished page's extraction would be a skip):
    // added past the contract, as a producer of another version might.
    const job = await rt.queues.queue('extract').add('extract', { pageId: 'not-a-page' });
    const id = job.id as string;
    const failed = async () => (await rt.queues.queue('extract').getJob(id))?.isFailed();
    while (!(await failed())) await new Promise((resolve) => setTimeout(resolve, 100));
    await open('#/sites');
    const row = page.locator(`tr[data-job="extract:${id}"]`);
    assert.match(await row.innerText(), /pageId/);
    await page.screenshot({ path: `${SHOTS}failed-jobs.png`, fullPage: true });
    const attempts = (await rt.queues.queue('extract').getJob(id))?.attemptsMade ?? 0;
    await row.locator('button:text("Retry")').click();
    // The extractor runs it again (and it fails again, for good: the payload is still refused).
    while (((await rt.queues.queue('extract').getJob(id))?.attemptsMade ?? 0) <= attempts) await new Promise((resolve) => setTimeout(resolve, 100));
  });

  test("the inspector: the page's own rendering, sandboxed, its blocks outlined as the explanation says, with each rule on hover", async () => {
    const [article] = (await sitePages(rt, 'gazette', { size: 100 })).entries.filter(
      (entry) => entry.url.includes('/articles/') && entry.templateVersion !== null && !entry.readAlone,
    );
    assert.ok(article, 'a page the template read');
    const explanation = await pageExplanation(rt, { url: article.url, site: 'gazette' });
    await open(`#/inspect?${new URLSearchParams({ url: article.url, site: 'gazette' })}`);
    const facts = await page.locator('dl.facts').innerText();
    assert.match(facts, new RegExp(`self-check\\s+${explanation.selfCheck.verdict}`));
    assert.match(facts, new RegExp(`template\\s+version ${explanation.page.templateVersion}`));
    const frameElement = page.locator('iframe');
    assert.equal(await frameElement.getAttribute('sandbox'), '', 'no script runs in the frame');
    const frame = await (await frameElement.elementHandle())?.contentFrame();
    assert.ok(frame);
    const marked = await frame.$$eval('[data-winnow-block]', (elements) =>
      elements.map((element) => ({
        block: Number(element.getAttribute('data-winnow-block')),
        verdict: element.getAttribute('data-winnow'),
        title: element.getAttribute('title') ?? '',
      })),
    );
    const byBlock = new Map<number, { kept: boolean; rule: string }[]>();
    for (const line of explanation.lines) if (line.block >= 0) byBlock.set(line.block, [...(byBlock.get(line.block) ?? []), line]);
    assert.equal(marked.length, byBlock.size, 'every block with explained lines is outlined');
    for (const { block, verdict, title } of marked) {
      const lines = byBlock.get(block) ?? [];
      const kept = lines.filter((line) => line.kept).length;
      assert.equal(verdict, kept === lines.length ? 'kept' : kept === 0 ? 'dropped' : 'mixed', `block ${block}`);
      for (const line of lines) assert.ok(title.includes(`(${line.rule})`), `block ${block}'s hover names ${line.rule}`);
    }
    assert.ok(marked.some((element) => element.verdict === 'kept') && marked.some((element) => element.verdict === 'dropped'));
    // The outline is drawn: the frame's own style applies it.
    const outline = await frame.evaluate(`getComputedStyle(document.querySelector('[data-winnow="dropped"]')).outlineStyle`);
    assert.equal(outline, 'dashed');
    assert.equal(await page.locator('#indexed-text').innerText(), explanation.page.mainText.replace(/\n+$/, ''));
    assert.equal(await page.locator('ol.lines li').count(), explanation.lines.length);
    await page.screenshot({ path: `${SHOTS}inspector.png` });
  });

  test('search shows the hits with their matches highlighted', async () => {
    const [gazette] = web.sites;
    assert.ok(gazette);
    const { acrossBlocks } = demoPhrases(gazette);
    await open(`#/search?${new URLSearchParams({ q: `"${acrossBlocks}"` })}`);
    await page.screenshot({ path: `${SHOTS}search.png` });
    const marks = await page.locator('.hit mark').allInnerTexts();
    assert.ok(marks.length > 0, 'matches are marked');
    const phraseWords = new Set(acrossBlocks.toLowerCase().split(' '));
    const markedWords = marks.flatMap((text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
    assert.ok(markedWords.length > 0 && markedWords.every((word) => phraseWords.has(word)), marks.join(' | '));
    await page.screenshot({ path: `${SHOTS}search.png` });
  });

  test('templates: versions per page type and health; prepare now runs a preparation; two versions diff', async () => {
    await open('#/templates?site=relaunch');
    assert.ok((await page.locator('table').first().locator('tbody tr').count()) > 0, 'a template per page type');
    await page.click('#prepare-now');
    await page.waitForSelector('#prepare-outcome p.notice:text("done")');
    const version = (await findSite(rt.db, 'relaunch'))?.templateVersion ?? 0;
    assert.ok(version >= 1);
    await open(`#/templates?site=relaunch&from=1&to=${version}`);
    const diff = JSON.parse(await page.locator('#template-diff').innerText());
    assert.deepEqual([diff.from, diff.to], [1, version]);
    assert.ok(Array.isArray(diff.pageTypes));
    await page.screenshot({ path: `${SHOTS}templates.png`, fullPage: true });
  });

  test('hosts: each host in the latest crawls with its counts and robots.txt state', async () => {
    await open('#/hosts');
    for (const site of web.sites) {
      const row = page.locator(`tr[data-host="${new URL(site.origin).host}"]`);
      assert.match(await row.innerText(), /readable/);
    }
    await page.screenshot({ path: `${SHOTS}hosts.png` });
  });

  test('templates: after a redesign the pipeline noticed, the health over time marks the drift', async () => {
    redesigned = await serveRedesignedSite();
    await addSite(rt, redesignedSiteConfig('redesigned', redesigned));
    await startCrawl(rt, 'redesigned');
    await waitForIdle(rt);
    const first = (await findSite(rt.db, 'redesigned'))?.templateVersion ?? 0;
    assert.ok(first >= 1, 'templates prepared from the first design');
    redesigned.redesign();
    await startCrawl(rt, 'redesigned');
    await waitForIdle(rt);
    const drifts = (await rt.metrics.templateDrift.get()).values.filter((value) => value.labels.site === 'redesigned');
    assert.ok((drifts[0]?.value ?? 0) >= 1, 'the extractor noticed the drift');
    assert.ok(((await findSite(rt.db, 'redesigned'))?.templateVersion ?? 0) > first, 'and a new version followed');

    await open('#/templates?site=redesigned');
    const shown = await page
      .locator('h2:text("Health over time") + table tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => ({ cells: [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''), drift: row.querySelector('span.drift') !== null })),
      );
    const siteId = (await findSite(rt.db, 'redesigned'))?.id ?? 0;
    const { entries } = await siteHealthHistory(rt.db, siteId, { offset: 0, limit: 100 });
    assert.deepEqual(
      shown.map(({ cells, drift }) => [cells[1], cells[2], cells[3], drift]),
      entries.map((record) => [
        record.cluster,
        `v${record.version}`,
        String(record.pages),
        record.pages >= DRIFT_MIN_PAGES && record.readAlone >= DRIFT_SHARE * record.pages,
      ]),
      'every recorded measure in order, the drifted ones marked as the extractor judges drift',
    );
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /null|undefined/, 'no diff asked for: nothing drawn in its place');
    const marked = shown.filter((row) => row.drift);
    assert.ok(
      marked.some(({ cells }) => cells[1] === '/articles/:n.html' && Number(cells[2]?.slice(1)) <= first),
      `the articles' drift under the first design's templates is marked: ${JSON.stringify(shown)}`,
    );
    await page.screenshot({ path: `${SHOTS}templates-drift.png`, fullPage: true });
  });

  test("the inspector's diff against the previous extraction shows the lines the API's explanation gives", async () => {
    // A line added to every article after its templates were prepared: read as text until an
    // analyst's preparation learns that every page repeats it.
    const LINE = 'Every reader of the Ledger may write to the editors about this story, by letter or by mail.';
    amended = await serveRedesignedSite({ articles: 12, delayMs: 0 });
    await addSite(rt, { ...redesignedSiteConfig('amended', amended), concurrency: 4 });
    await startCrawl(rt, 'amended');
    await waitForIdle(rt);
    amended.edit((html) => html.replace('</h2>', `</h2><p>${LINE}</p>`));
    await startCrawl(rt, 'amended');
    await waitForIdle(rt);
    await open('#/templates?site=amended');
    await page.click('#prepare-now');
    await page.waitForSelector('#prepare-outcome p.notice:text("done")');
    await waitForIdle(rt);

    const explain = async (url: string) => {
      const response = await fetch(`${api.url}/pages/explain?${new URLSearchParams({ url, site: 'amended' })}`, {
        headers: { authorization: `Bearer ${OPERATE}` },
      });
      assert.equal(response.status, 200);
      return ((await response.json()) as { explanation: PageExplanation }).explanation;
    };
    const [article] = (await sitePages(rt, 'amended', { size: 100 })).entries.filter((entry) => entry.url.endsWith('/articles/3.html'));
    assert.ok(article);
    const { previous } = await explain(article.url);
    assert.ok(previous, 'the page has an earlier version to be compared with');
    assert.ok(
      previous.diff.some((line) => line.change === 'removed' && line.text === LINE),
      `the repeated line, read by version ${previous.templateVersion}, is gone: ${JSON.stringify(previous.diff.filter((line) => line.change !== 'same'))}`,
    );
    await open(`#/inspect?${new URLSearchParams({ url: article.url, site: 'amended' })}`);
    const panel = page.locator('#previous');
    assert.match((await panel.locator('p.muted').textContent()) ?? '', new RegExp(`version ${previous.templateVersion},`));
    const lines = await panel.locator('.diff > div').evaluateAll((elements) => elements.map((element) => [element.className, element.textContent]));
    assert.deepEqual(
      lines,
      previous.diff.map((line) => [line.change, `${line.change === 'added' ? '+ ' : line.change === 'removed' ? '- ' : '  '}${line.text}`]),
      'every line of the diff, in order, marked as the API says',
    );
    // A removed line is drawn struck through.
    assert.equal(await page.evaluate(`getComputedStyle(document.querySelector('#previous .diff > div.removed')).textDecorationLine`), 'line-through');
  });

  test('the browser asked for nothing but the API', () => {
    const elsewhere = requested.filter((url) => !url.startsWith(`${api.url}/`) && !url.startsWith('about:'));
    assert.deepEqual(elsewhere, []);
  });
});
