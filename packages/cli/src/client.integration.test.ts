import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApi, type ApiService } from '@winnow/api';
import { loadEnv } from '@winnow/config';
import { serveDemoWeb, type DemoWeb } from '@winnow/demo-corpus';
import { freePort } from '@winnow/queue/testing';
import {
  crawlLog,
  crawlStatus,
  listSites,
  openRuntime,
  pageExtraction,
  pipelineStatus,
  search,
  type Runtime,
  templateDiff,
  templateHealthHistory,
  templateJob,
  templateVersion,
  waitForIdle,
} from '@winnow/runtime';
import { documentIdFor } from '@winnow/search';
import { findSite, listTemplates } from '@winnow/storage';
import { formatCrawlLog, formatSearch, formatSites, formatStatus } from './commands/operate.js';
import { formatHealthHistory, formatPreparation, formatTemplateDiff, formatTemplates, formatTemplateVersion } from './commands/templates.js';
import { closeAll, startWorkers } from './pipeline.js';
import { freshDataDir, runCli } from './testing/embeddedCli.js';

const OPERATE = randomBytes(24).toString('hex');
const SEARCH = randomBytes(24).toString('hex');

describe('winnow as a client of a running API (WINNOW_API_URL)', () => {
  let rt: Runtime;
  let api: ApiService;
  let web: DemoWeb;
  /** Where the CLI would put an embedded database: it must never be created in client mode. */
  let untouchedDataDir: string;
  const winnow = (token: string, ...args: string[]) =>
    runCli(args, {
      env: { ...process.env, WINNOW_API_URL: api.url, WINNOW_API_TOKEN: token, WINNOW_DATA_DIR: untouchedDataDir, DATABASE_URL: '', REDIS_URL: '' },
    });
  /** Exit status 1 for a refusal, 2 for a bad value the API refuses (a 400): a mistake in the call. */
  const fails = async (token: string, args: string[], message: RegExp, code = 1) =>
    assert.rejects(winnow(token, ...args), (error: { code?: number; stdout?: string; stderr?: string }) => {
      assert.equal(error.code, code, args.join(' '));
      assert.equal(error.stdout, '');
      assert.match(error.stderr ?? '', message);
      assert.ok(!error.stderr?.includes(OPERATE) && !error.stderr?.includes(SEARCH), 'no token is ever printed');
      return true;
    });

  before(async () => {
    untouchedDataDir = await freshDataDir('client');
    web = await serveDemoWeb(['gazette'], { articles: 6 });
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: `operate:${OPERATE},search:${SEARCH}` }));
    api = await startApi(rt, 0, '127.0.0.1');
  });
  after(async () => {
    await api?.close();
    await rt?.close();
    await web?.close();
    assert.equal(existsSync(untouchedDataDir), false, 'the client never opened a database of its own');
  });

  test('sites add, list and remove go to the API and print what local mode prints', async () => {
    const added = await winnow(
      OPERATE,
      'sites',
      'add',
      'news',
      '--seed',
      'http://127.0.0.1:9/',
      '--max-pages',
      '5',
      '--template-every-ms',
      '0',
      '--allow-private',
    );
    assert.equal(added.stdout, 'added site news: http://127.0.0.1:9/\n');
    const sites = await listSites(rt.db);
    assert.deepEqual(
      sites.map((site) => [site.name, site.config.maxPages]),
      [['news', 5]],
      "the site is in the API's database",
    );
    assert.equal((await winnow(OPERATE, 'sites', 'list')).stdout, formatSites(sites));
    assert.equal((await winnow(OPERATE, 'sites', 'list', '--json')).stdout, `${JSON.stringify(sites, null, 2)}\n`);
    await winnow(OPERATE, 'sites', 'add', 'gone', '--seed', 'http://127.0.0.1:9/gone/', '--template-every-ms', '0', '--allow-private');
    assert.equal(
      (await winnow(OPERATE, 'sites', 'remove', 'gone')).stdout,
      'removed site gone: 0 crawls, 0 pages with their extractions, no templates, 0 index documents\n',
    );
    assert.deepEqual(
      (await listSites(rt.db)).map((site) => site.name),
      ['news'],
    );
  });

  test('sites apply goes to the API too: added, then updated with a PUT, then unchanged', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'winnow-apply-client-')), 'sites.yaml');
    const write = (maxPages: number) =>
      writeFile(
        file,
        `sites:\n  - {name: applied, seeds: ["http://127.0.0.1:9/applied/"], allowPrivateAddresses: true, templateEveryMs: 0, maxPages: ${maxPages}}\n`,
      );
    await write(10);
    assert.match((await winnow(OPERATE, 'sites', 'apply', file)).stdout, /^applied: added \(http:\/\/127\.0\.0\.1:9\/applied\/\)\n/);
    await write(20);
    assert.match((await winnow(OPERATE, 'sites', 'apply', file)).stdout, /^applied: updated: maxPages 10 -> 20\n/);
    assert.match((await winnow(OPERATE, 'sites', 'apply', file)).stdout, /^applied: unchanged\n/);
    assert.equal((await findSite(rt.db, 'applied'))?.config.maxPages, 20);
    await winnow(OPERATE, 'sites', 'remove', 'applied');
  });

  test('sites update goes to the API as a merge patch and prints what local mode prints', async () => {
    await winnow(OPERATE, 'sites', 'add', 'patched', '--seed', 'http://127.0.0.1:9/p/', '--max-pages', '50', '--template-every-ms', '0', '--allow-private');
    const updated = await winnow(OPERATE, 'sites', 'update', 'patched', '--concurrency', '2', '--reset', 'max-pages');
    const site = await findSite(rt.db, 'patched');
    assert.deepEqual([site?.config.concurrency, site?.config.maxPages, site?.config.templateEveryMs], [2, 1000, 0], "the API's database has the change");
    assert.equal(updated.stdout, `updated site patched: concurrency 2, maxPages 1000 (default)\n${formatSites(site ? [site] : [])}`);
    await fails(OPERATE, ['sites', 'update', 'patched', '--render', 'fast'], /^winnow: invalid site configuration: render: /, 2);
    await fails(OPERATE, ['sites', 'update', 'nosuch', '--max-pages', '5'], /^winnow: no site named "nosuch"\n$/);
    await winnow(OPERATE, 'sites', 'remove', 'patched');
  });

  test('search with a search token prints what local mode prints', async () => {
    const [site] = await rt.db.query<{ id: number }>(`SELECT id FROM sites WHERE name = 'news'`);
    const documents = Array.from({ length: 12 }, (_, i) => ({
      url: `http://127.0.0.1:9/${i}.html`,
      title: `Story ${i}`,
      pageTitle: `Story ${i} | News`,
      mainText: `The harbour master <b> spoke at noon.\nTides rose by ${i} feet.`,
    }));
    const indexed = [];
    for (const doc of documents) {
      const [page] = await rt.db.query<{ id: number }>('INSERT INTO pages (site_id, url) VALUES ($1, $2) RETURNING id', [site?.id, doc.url]);
      indexed.push({ ...doc, docId: documentIdFor('news', doc.url), pageId: page?.id as number, site: 'news', templateVersion: 1, extractedAt: new Date() });
    }
    await rt.search.upsert(indexed);
    const query = '"noon tides rose"';
    const expected = await search(rt, { q: query, site: 'news', page: 2, size: 5 });
    const printed = await winnow(`search:${SEARCH}`, 'search', query, '--site', 'news', '--page', '2', '--size', '5');
    assert.equal(printed.stdout, formatSearch(query, expected, false));
    assert.match(printed.stdout, /^12 pages match "noon tides rose" \(showing 6-10\)\n/);
    assert.equal(
      (await winnow(`search:${SEARCH}`, 'search', query, '--site', 'news', '--page', '2', '--size', '5', '--json')).stdout,
      `${JSON.stringify(expected, null, 2)}\n`,
    );
    await fails(`search:${SEARCH}`, ['search', '"unclosed'], /^winnow: .*unclosed quote/, 2);
  });

  test('crawl --wait follows the remote pipeline; status and templates print what local mode prints', async () => {
    const gazette = web.sites[0];
    assert.ok(gazette);
    await winnow(
      OPERATE,
      'sites',
      'add',
      'gazette',
      '--seed',
      `${gazette.origin}/`,
      '--template-every-ms',
      '0',
      '--min-template-pages',
      '3',
      '--allow-private',
    );
    const workers = await startWorkers(rt);
    let followed: { stdout: string };
    try {
      followed = await winnow(OPERATE, 'crawl', 'gazette', '--wait');
    } finally {
      await closeAll(workers);
    }
    const status = await pipelineStatus(rt);
    assert.equal(followed.stdout, formatStatus(status, ['gazette']));
    assert.match(followed.stdout, new RegExp(`^gazette: crawl \\d+ finished: ${gazette.pages.length} stored, 0 unchanged, `));
    const log = await crawlLog(rt, 'gazette', { outcomes: ['refused'], size: 5 });
    assert.ok(log.total > 0, "the demo's broken links are in the crawl log");
    assert.equal((await winnow(OPERATE, 'crawl-log', 'gazette', '--outcome', 'refused', '--size', '5')).stdout, formatCrawlLog(log));
    assert.equal((await winnow(OPERATE, 'crawl-log', 'gazette', '--outcome', 'refused', '--size', '5', '--json')).stdout, `${JSON.stringify(log, null, 2)}\n`);
    assert.equal((await winnow(OPERATE, 'status')).stdout, formatStatus(status));
    assert.equal((await winnow(OPERATE, 'status', '--json')).stdout, `${JSON.stringify(status, null, 2)}\n`);
    // One page's answer has one shape: the API's body, `winnow page --json` through it, and embedded.
    const article = `${gazette.origin}${gazette.pages.find((page) => page.kind === 'article')?.path}`;
    const answered = await fetch(`${api.url}/pages?url=${encodeURIComponent(article)}`, { headers: { authorization: `Bearer ${OPERATE}` } });
    const body = await answered.text();
    assert.equal(answered.status, 200);
    assert.deepEqual(JSON.parse((await winnow(OPERATE, 'page', article, '--json')).stdout), JSON.parse(body));
    assert.equal(JSON.stringify(JSON.parse(body)), JSON.stringify({ page: await pageExtraction(rt, { url: article }) }));
    const templates = await listTemplates(rt.db, 'gazette');
    assert.ok(templates.length > 0, 'the crawl ended with templates');
    assert.equal((await winnow(OPERATE, 'templates', 'list', 'gazette')).stdout, formatTemplates(templates));
    assert.equal((await winnow(OPERATE, 'templates', 'show', 'gazette')).stdout, formatTemplateVersion(await templateVersion(rt, 'gazette')));
    const [oldest] = templates.slice(-1);
    const showOldest = ['templates', 'show', 'gazette', '--version', '1', '--page-type', oldest?.cluster ?? '', '--json'];
    assert.equal(
      (await winnow(OPERATE, ...showOldest)).stdout,
      `${JSON.stringify(await templateVersion(rt, 'gazette', { version: 1, pageType: oldest?.cluster }), null, 2)}\n`,
    );
    const diff = await templateDiff(rt, 'gazette', { from: 1 });
    assert.equal((await winnow(OPERATE, 'templates', 'diff', 'gazette', '1')).stdout, formatTemplateDiff(diff));
    assert.equal((await winnow(OPERATE, 'templates', 'diff', 'gazette', '1', String(diff.to), '--json')).stdout, `${JSON.stringify(diff, null, 2)}\n`);
    // An analyst's run after the crawl's: it records the health of the templates the crawl left
    // (whether the crawl itself had templates before its end depends on how fast it went).
    const queuedJob = await winnow(OPERATE, 'templates', 'prepare', 'gazette');
    const [, jobId] = /^template preparation of gazette queued as job (\d+); `--wait` waits for its outcome\n$/.exec(queuedJob.stdout) ?? [];
    assert.ok(jobId, queuedJob.stdout);
    assert.equal((await templateJob(rt, 'gazette', jobId)).state, 'queued', 'no templater runs yet');
    const again = await startWorkers(rt);
    let waited: { stdout: string };
    try {
      waited = await winnow(OPERATE, 'templates', 'prepare', 'gazette', '--wait');
      await waitForIdle(rt);
    } finally {
      await closeAll(again);
    }
    // The crawl's own run prepared from the same pages: both analysts' runs keep its version.
    const version = (await findSite(rt.db, 'gazette'))?.templateVersion;
    const first = await templateJob(rt, 'gazette', jobId);
    assert.equal(first.state, 'done');
    assert.equal(
      waited.stdout,
      formatPreparation('gazette', first.result as NonNullable<typeof first.result>),
      'the same outcome, printed as local mode prints it',
    );
    assert.match(
      waited.stdout,
      new RegExp(
        `^gazette: templates unchanged \\(version ${version} kept\\)\n(  \\S+\\t\\d+ pages?\\t(unchanged \\(version ${version} kept\\)|no template: .*)\n)+$`,
      ),
    );
    const history = await templateHealthHistory(rt, 'gazette');
    assert.ok(history.total > 0, 'the templater recorded the health of the templates before its run');
    assert.equal((await winnow(OPERATE, 'templates', 'health', 'gazette')).stdout, formatHealthHistory(history));
    const newest = await templateHealthHistory(rt, 'gazette', { since: '2000-01-01', size: 1 });
    assert.equal(newest.entries.length, 1);
    assert.equal(
      (await winnow(OPERATE, 'templates', 'health', 'gazette', '--since', '2000-01-01', '--size', '1', '--json')).stdout,
      `${JSON.stringify(newest, null, 2)}\n`,
      'paged and narrowed through the API as in-process',
    );
    const queued = await winnow(OPERATE, 'crawl', 'news');
    const queuedId = (await crawlStatus(rt, 'news'))?.id;
    assert.equal(queued.stdout, `crawl ${queuedId} of news queued; follow it with \`winnow status\`\n`);
    // No crawler runs now: the queued crawl stops at once.
    const stopped = await winnow(OPERATE, 'crawl', 'news', '--stop');
    assert.match(stopped.stdout, new RegExp(`^crawl ${queuedId} of news stopped; 0 stored, 0 unchanged, `));
    assert.equal((await crawlStatus(rt, 'news'))?.state, 'stopped');
    assert.equal((await winnow(OPERATE, 'crawl', 'news', '--stop')).stdout, 'news has no crawl queued or running\n');
    await assert.rejects(winnow(OPERATE, 'crawl', 'news', '--stop', '--wait'), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2, 'a usage error');
      assert.match(error.stderr ?? '', /^winnow: --stop and --wait cannot be used together\n$/);
      return true;
    });
  });

  test("the API's refusals are printed as winnow: <message> with a failing exit code", async () => {
    await fails(randomBytes(24).toString('hex'), ['sites', 'list'], /^winnow: the bearer token is not valid \(the token comes from WINNOW_API_TOKEN\)\n$/);
    await fails(`search:${randomBytes(24).toString('hex')}`, ['search', 'harbour'], /^winnow: the bearer token is not valid/);
    await fails(`search:${SEARCH}`, ['status'], /^winnow: this command needs an operate token for the API at http:\/\/127\.0\.0\.1:\d+: set WINNOW_API_TOKEN/);
    await fails(OPERATE, ['crawl', 'nosuch'], /^winnow: no site named "nosuch"\n$/);
    await fails(OPERATE, ['sites', 'add', 'news', '--seed', 'http://127.0.0.1:9/', '--allow-private'], /^winnow: site "news" already exists/);
    // A bad value the API refuses (400) is a mistake in the call, as it is embedded: status 2.
    await fails(OPERATE, ['crawl-log', 'gazette', '--outcome', 'bogus'], /^winnow: unknown outcome "bogus"/, 2);
    await fails(OPERATE, ['templates', 'health', 'gazette', '--since', 'yesterday'], /^winnow: since must be an ISO 8601 date/, 2);
    await fails(OPERATE, ['search', '""'], /^winnow: a quoted phrase has no words\n$/, 2);
    const closedPort = await freePort();
    await assert.rejects(
      runCli(['status'], { env: { ...process.env, WINNOW_API_URL: `http://127.0.0.1:${closedPort}`, WINNOW_API_TOKEN: OPERATE } }),
      (error: { code?: number; stderr?: string }) =>
        error.code === 1 && /^winnow: cannot reach the Winnow API at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/.test(error.stderr ?? ''),
    );
  });
});
