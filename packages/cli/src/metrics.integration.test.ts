import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { buildApi } from '@winnow/api';
import { loadEnv } from '@winnow/config';
import { type GeneratedSite, serveGeneratedSite } from '@winnow/crawler/testing';
import { addSite, crawlStatus, hostsView, openRuntime, type Runtime, requireSite, startCrawl, startWorkerPort, waitForIdle } from '@winnow/runtime';
import type { FastifyInstance } from 'fastify';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { pino } from 'pino';
import { closeAll, startWorkers } from './pipeline.js';

const OPERATE = randomBytes(24).toString('hex');
const SEARCH = randomBytes(24).toString('hex');
const SCRAPE = randomBytes(24).toString('hex');

type Labels = Record<string, string>;
type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

/**
 * A scrape, parsed by a Prometheus text-format parser: each family by name, and each histogram's
 * `_bucket`, `_sum` and `_count` series as families of their own. (The parser folds a histogram's
 * series of every label set into one sample without labels; read again with the histograms
 * declared untyped, each series keeps its labels.)
 */
function parse(text: string): Map<string, Family> {
  const families = parsePrometheusTextFormat(text);
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped')).filter((family) =>
    /_(bucket|sum|count)$/.test(family.name),
  );
  const byName = new Map<string, Family>();
  // Read untyped, a histogram's series of each label set come as families of their own: one family per name, all their samples.
  for (const family of [...families, ...series]) {
    const known = byName.get(family.name);
    byName.set(family.name, known ? { ...known, metrics: [...known.metrics, ...family.metrics] } : family);
  }
  return byName;
}

/** The sum of a counter's or gauge's samples whose labels include `labels`. */
function total(families: Map<string, Family>, name: string, labels: Labels = {}): number {
  const family = families.get(name);
  assert.ok(family, `${name} is exported`);
  let sum = 0;
  for (const sample of family.metrics) {
    if (!('value' in sample)) continue;
    if (Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value)) sum += Number(sample.value);
  }
  return sum;
}

/** The observations of a histogram whose labels include `labels`: the sum of its `_count` series. */
function observations(families: Map<string, Family>, name: string, labels: Labels = {}): number {
  assert.equal(families.get(name)?.type, 'HISTOGRAM', `${name} is a histogram`);
  return total(families, `${name}_count`, labels);
}

/** A page of another design on the generated site: a table of figures, which its articles' template does not fit. */
const TABLE_PAGE = `<!DOCTYPE html><html><head><title>Tides</title></head><body><table>${Array.from(
  { length: 30 },
  (_, i) => `<tr><td>Day ${i}</td><td><span>High water at ${i % 12} o'clock, said the harbour master on the radio that morning, day ${i}.</span></td></tr>`,
).join('')}</table></body></html>`;

describe('/metrics after a real crawl', () => {
  let site: GeneratedSite;
  let rt: Runtime;
  let app: FastifyInstance;
  let families: Map<string, Family>;
  /** What the pipeline logged at info and above, as pino wrote it (one JSON object a line). */
  const logged: { level: number; msg: string; [field: string]: unknown }[] = [];

  before(async () => {
    // robots.txt asks for 20 ms between two fetches. Among 60 articles: one missing (404), one a PDF, one disallowed by robots.txt, one that
    // answers 503 once (a back-off, then a retry that stores it), one of another design.
    site = await serveGeneratedSite({
      pages: 60,
      shape: 'listings',
      robotsTxt: 'User-agent: *\nCrawl-delay: 0.02\nDisallow: /articles/13.html\n',
      override: (request, response, seen) => {
        const answers: Record<string, () => void> = {
          '/articles/7.html': () => response.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'),
          '/articles/9.html': () => response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'),
          '/articles/15.html': () => response.writeHead(200, { 'content-type': 'text/html' }).end(TABLE_PAGE),
          ...(seen === 1 ? { '/articles/11.html': () => response.writeHead(503, { 'retry-after': '1' }).end() } : {}),
        };
        const answer = answers[request.url ?? ''];
        answer?.();
        return answer !== undefined;
      },
    });
    const kept = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    rt = await openRuntime(
      loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'info', WINNOW_API_TOKEN: `operate:${OPERATE},search:${SEARCH},metrics:${SCRAPE}` }),
      { log: pino({ level: 'info' }, kept) },
    );
    const services = await startWorkers(rt);
    try {
      await addSite(rt, { name: 'harbour', seeds: [`${site.origin}/`], templateEveryMs: 0, allowPrivateAddresses: true, minTemplatePages: 5 });
      await startCrawl(rt, 'harbour');
      await waitForIdle(rt);
    } finally {
      await closeAll(services);
    }
    app = buildApi(rt);
    const scraped = await app.inject({ method: 'GET', url: '/metrics', headers: { host: 'localhost:8080', authorization: `Bearer ${SCRAPE}` } });
    assert.equal(scraped.statusCode, 200, scraped.body);
    assert.match(String(scraped.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    families = parse(scraped.body);
  });

  after(async () => {
    await app?.close();
    await rt?.close();
    await site?.close();
  });

  test("the crawler's counts agree with the crawl's and with what the server saw", async () => {
    const crawl = await crawlStatus(rt, 'harbour');
    assert.equal(crawl?.state, 'finished');
    // Every page but the 404, the PDF and the one robots.txt disallows.
    assert.equal(crawl?.counts.stored, site.paths.length - 3);
    assert.equal(total(families, 'winnow_fetches_total', { outcome: 'stored' }), crawl?.counts.stored);
    assert.equal(total(families, 'winnow_fetches_total', { outcome: 'refused', reason: 'http-404' }), 1);
    assert.equal(total(families, 'winnow_fetches_total', { outcome: 'refused', reason: 'not-html' }), 1);
    assert.equal(total(families, 'winnow_fetches_total', { outcome: 'disallowed', reason: 'robots-disallowed' }), 1);
    assert.equal(total(families, 'winnow_fetches_total', { outcome: 'retry', reason: 'retriable-failure' }), 1, 'the 503, tried again');
    assert.equal(total(families, 'winnow_fetches_total', { outcome: 'failed' }), 0);
    const host = new URL(site.origin).host;
    assert.equal(total(families, 'winnow_host_backoffs_total', { host }), 1);
    assert.equal(total(families, 'winnow_host_robots_state', { host, state: 'readable' }), 1);
    assert.equal(total(families, 'winnow_host_robots_state', { host, state: 'unavailable' }), 0);
    const pageRequests = site.requests.filter((request) => request.path !== '/robots.txt').length;
    assert.equal(observations(families, 'winnow_fetch_duration_seconds', { kind: 'page' }), pageRequests, 'one timing per request the server saw');
    assert.equal(observations(families, 'winnow_fetch_duration_seconds', { kind: 'robots' }), site.hits('/robots.txt'));
    assert.equal(observations(families, 'winnow_fetch_duration_seconds', { kind: 'page', status: '5xx' }), 1);
    assert.equal(total(families, 'winnow_crawls_started_total', { site: 'harbour' }), 1);
    assert.equal(total(families, 'winnow_crawls_ended_total', { site: 'harbour', state: 'finished' }), 1);
    assert.equal(total(families, 'winnow_frontier_urls', { site: 'harbour' }), 0, 'nothing left to fetch');
  });

  test("the hosts screen's data: the host's back-off, robots.txt state, interval in force and last errors, nothing left in flight", async () => {
    const host = new URL(site.origin).host;
    const [row] = (await hostsView(rt)).filter((entry) => entry.host === host);
    assert.ok(row, JSON.stringify(await hostsView(rt)));
    assert.deepEqual(row.sites, ['harbour']);
    assert.deepEqual([row.inFlight, row.queued, row.waiting, row.nextFetchAt], [0, 0, 0, null], 'the crawl is over');
    assert.equal(row.robots, 'readable');
    assert.equal(row.backoffs, total(families, 'winnow_host_backoffs_total', { host }), 'the back-offs the metrics count');
    assert.equal((await requireSite(rt, 'harbour')).config.delayMs, 0);
    assert.equal(row.intervalMs, 20, "robots.txt's Crawl-delay, longer than the site's delayMs: the interval in force");
    assert.equal(total(families, 'winnow_host_interval_seconds', { host }), 0.02);
    assert.ok(row.fetched >= site.paths.length - 1, `${row.fetched} URLs fetched`);
    assert.ok(row.lastErrors.length > 0 && row.lastErrors.length <= 3, JSON.stringify(row.lastErrors));
  });

  test('extraction, templates and the index are counted as the database records them', async () => {
    const [runs] = await rt.db.query<{ runs: number; pages: number }>('SELECT sum(runs)::int AS runs, count(*)::int AS pages FROM extractions');
    assert.equal(total(families, 'winnow_extractions_total'), runs?.runs, 'one count per extraction stored');
    assert.ok(total(families, 'winnow_extractions_total', { method: 'pipeline', verdict: 'agreed' }) > 0, 'the template read most pages');
    const [table] = await rt.db.query<{ read_alone: boolean }>(
      `SELECT e.read_alone FROM extractions e JOIN pages p ON p.id = e.page_id WHERE p.url LIKE '%/articles/15.html'`,
    );
    assert.equal(table?.read_alone, true, 'the page of another design is read alone');
    assert.ok(total(families, 'winnow_extractions_total', { verdict: 'read-alone', reason: 'no-layout' }) >= 1, 'and counted with its reason');

    const version = (await requireSite(rt, 'harbour')).templateVersion;
    assert.ok(version >= 1);
    assert.equal(total(families, 'winnow_template_versions_total', { site: 'harbour' }), version, 'every version this process stored');
    assert.equal(
      total(families, 'winnow_template_preparations_total'),
      total(families, 'winnow_jobs_total', { queue: 'template', outcome: 'completed' }),
      'each completed template job is one preparation',
    );
    assert.ok(total(families, 'winnow_template_pages', { site: 'harbour' }) > 0);
    const ratio = total(families, 'winnow_template_read_alone_ratio', { site: 'harbour' });
    assert.ok(ratio > 0 && ratio < 1, `the articles' page type has the table page among mostly agreed pages: ${ratio}`);

    const indexed = await rt.search.count('harbour');
    assert.equal(indexed, runs?.pages);
    assert.ok(total(families, 'winnow_index_writes_total', { outcome: 'indexed' }) >= indexed, 'every page indexed, some more than once (after a new version)');
    assert.equal(total(families, 'winnow_index_writes_total', { outcome: 'failed' }), 0);
    assert.equal(observations(families, 'winnow_index_lag_seconds'), total(families, 'winnow_index_writes_total', { outcome: 'indexed' }));
    assert.equal(total(families, 'winnow_site_pages', { site: 'harbour', stage: 'indexed' }), indexed);
    assert.equal(total(families, 'winnow_site_pages', { site: 'harbour', stage: 'stored' }), runs?.pages);
  });

  test("every queue's jobs are timed, and the queues are empty once the pipeline is idle", () => {
    for (const queue of ['extract', 'index', 'template']) {
      const completed = total(families, 'winnow_jobs_total', { queue, outcome: 'completed' });
      assert.ok(completed > 0, `${queue} jobs ran`);
      assert.equal(observations(families, 'winnow_job_duration_seconds', { queue, outcome: 'completed' }), completed, queue);
    }
    assert.equal(total(families, 'winnow_jobs_total', { outcome: 'failed' }), 0);
    assert.equal(total(families, 'winnow_queue_jobs', { state: 'waiting' }), 0);
    assert.equal(total(families, 'winnow_queue_jobs', { state: 'active' }), 0);
    assert.ok(families.has('process_resident_memory_bytes'), "the process's own metrics come along");
    assert.ok(families.has('winnow_reconciler_findings_total'));
  });

  test("the log says each crawl's start and end with its counts, and each template version stored with why, at info", async () => {
    const crawl = await crawlStatus(rt, 'harbour');
    const lines = (pattern: RegExp) => logged.filter((line) => pattern.test(line.msg));
    const started = lines(/^crawl \d+ of harbour started/);
    assert.deepEqual(
      started.map((line) => [line.level, line.msg]),
      [[30, `crawl ${crawl?.id} of harbour started from 1 URL`]],
    );
    const ended = lines(/^crawl \d+ of harbour /).filter((line) => !started.includes(line));
    assert.equal(ended.length, 1);
    assert.equal(ended[0]?.level, 30);
    assert.equal(
      ended[0]?.msg,
      `crawl ${crawl?.id} of harbour finished after ${ended[0]?.seconds} s: ${crawl?.counts.stored} stored, 2 refused, 1 disallowed (why: winnow crawl-log harbour --crawl ${crawl?.id})`,
    );
    assert.deepEqual(ended[0]?.counts, JSON.parse(JSON.stringify(crawl?.counts)));
    const version = (await requireSite(rt, 'harbour')).templateVersion;
    const versions = lines(/^template version \d+ of harbour stored \(/);
    assert.equal(versions.length, version, 'one line per version stored');
    assert.match(
      versions[0]?.msg ?? '',
      /^template version 1 of harbour stored \((new pages without a template of their type|a crawl finished)\): \/articles\/:n\.html new/,
    );
    assert.ok(
      logged.every((line) => line.level >= 30),
      'nothing below info is written at info',
    );
    assert.ok(
      lines(/failed for good/).length === 0 && logged.filter((line) => line.level >= 40).length === 0,
      `no warnings on a healthy crawl: ${logged.filter((line) => line.level >= 40).map((line) => line.msg)}`,
    );
  });

  test('/metrics takes a metrics or operate token, not a search one; without any, 401', async () => {
    const scrape = async (authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { host: 'localhost:8080', ...(authorization ? { authorization: `Bearer ${authorization}` } : {}) },
      });
    assert.equal((await scrape(OPERATE)).statusCode, 200);
    const searchToken = await scrape(SEARCH);
    assert.equal(searchToken.statusCode, 403);
    assert.match(searchToken.json().error, /needs a token of scope metrics/);
    assert.equal((await scrape()).statusCode, 401);
  });

  test("a worker's own port serves the same registry on loopback", async () => {
    const port = await startWorkerPort(rt, rt.env.WINNOW_WORKER_HOST, 0);
    try {
      assert.match(port.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${port.url}/metrics`);
      assert.equal(response.status, 200);
      const scraped = parse(await response.text());
      assert.equal(total(scraped, 'winnow_fetches_total', { outcome: 'stored' }), total(families, 'winnow_fetches_total', { outcome: 'stored' }));
    } finally {
      await port.close();
    }
  });
});
