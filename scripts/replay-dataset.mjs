#!/usr/bin/env node
// Replays an evaluation dataset's multi-page sites as real websites and measures what the pipeline
// *indexes* when it crawls them, beside what the k-fold evaluation (`winnow eval --method pipeline`)
// predicts for the same pages. Each site is served on its own 127.0.0.1 port (every page at its
// URL's path and query, a seed page at `/` linking to them all), added with `allowPrivateAddresses`,
// crawled by the embedded pipeline in this process (PGlite in memory, a private redis-server, the
// Postgres full-text index: what `winnow demo` runs) until it is idle, and the indexed main text of
// each page is scored against the dataset's gold with lcs F1.
//
// Usage (build first: pnpm --silent build):
//   node scripts/replay-dataset.mjs <dataset> [--sites a,b] [--limit N] [--min-pages 10] [--max-pages 1000]
//        [--kfold-predictions FILE | --no-kfold] [--rewrite-charset] [--paths canonical|flat|id] [--json FILE] [--verbose] [--timeout-s 1800]
// <dataset> is a folder under ../shared/datasets (or any folder / pages.jsonl.gz). Without
// --kfold-predictions the k-fold pipeline evaluation is run afterwards (`winnow eval … --predictions`),
// one process after the other, never alongside the crawl.
//
// Choices:
// - Bodies are sent as UTF-8 with `Content-Type: text/html; charset=utf-8`, and the page's own
//   `<meta charset>` is left as it is (the dataset's HTML is already decoded, so that tag may be
//   stale): the crawler and the extractor decode by BOM, then the transport's charset, then the meta
//   tag (WHATWG order), so the header wins, as it does for a real server that sends one.
//   `--rewrite-charset` rewrites the tags to utf-8 instead, to check that nothing depends on them.
// - Pages whose dataset URL is null (all of daniel, a few dragnet sites) get a path: with
//   `--paths canonical` (default) their own `<link rel=canonical>` / `og:url` when it names the
//   site's host (or is relative), else `/page/<n>.html`; `flat` gives every such page
//   `/page/<n>.html`; `id` gives `/<dataset id's last segment>.html` (hash-like names).
// - Two pages with one path and query: the later ones get `replay_dup=<n>` added to the query
//   (URL patterns ignore queries, so the page type is unchanged).
// - The pages' own links are left alone: most name the real hosts and are outside the site; the
//   relative ones lead to 404s here, which the crawler records as refused (they count against
//   `maxPages`, but the seed's links to every page are admitted first).
//
// Columns: `crawled lcs` scores the page's search document (none: not stored, or indexed under
// another page as its duplicate, scores 0, as a grader who looks pages up by URL finds them);
// `dups via original` reads a duplicate through the page that stands for it; `extracted lcs` scores
// the stored extraction; `k-fold lcs` the k-fold prediction for the same page. `readings` says how
// the page was read: with its page type's template, read alone by the self-check, without a
// template (no page type of `minTemplatePages`), and `(v1 of 2)` when a trusted reading by an
// earlier template version stood. The crawler's URL spelling and trap guards come from its built
// `urls.js` module, so that lookups and "never admitted" reasons match what it does.
import { createServer } from 'node:http';
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const load = (path) => import(pathToFileURL(resolve(root, path)).href);
const built = 'packages/cli/dist/main.js';
if (!existsSync(resolve(root, built))) {
  process.stderr.write('build first: pnpm --silent build\n');
  process.exit(2);
}
const { loadPages, lcsF1 } = await load('packages/eval/dist/index.js');
const { loadEnv } = await load('packages/config/dist/index.js');
const { openRuntime, createLogger, addSite, startCrawl, waitForIdle, pipelineStatus } = await load('packages/runtime/dist/index.js');
const { listStoredPages, loadRawPages } = await load('packages/storage/dist/index.js');
const { clusterPages, decodeHtml } = await load('packages/extract/dist/index.js');
const { startCrawler } = await load('services/crawler/dist/index.js');
const { normalizeUrl, trapReason } = await load('services/crawler/dist/urls.js');
const { startTemplater } = await load('services/templater/dist/index.js');
const { startExtractor } = await load('services/extractor/dist/index.js');
const { startIndexer } = await load('services/indexer/dist/index.js');

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sites: { type: 'string' },
    limit: { type: 'string' },
    'min-pages': { type: 'string', default: '10' },
    'max-pages': { type: 'string', default: '1000' },
    'kfold-predictions': { type: 'string' },
    'no-kfold': { type: 'boolean', default: false },
    'rewrite-charset': { type: 'boolean', default: false },
    paths: { type: 'string', default: 'canonical' },
    json: { type: 'string' },
    'timeout-s': { type: 'string', default: '1800' },
    verbose: { type: 'boolean', default: false },
  },
});
if (positionals.length !== 1 || !['canonical', 'flat', 'id'].includes(flags.paths)) {
  process.stderr.write('usage: node scripts/replay-dataset.mjs <dataset> [--sites a,b] [--limit N] [--min-pages 10] [--max-pages 1000]\n');
  process.stderr.write(
    '       [--kfold-predictions FILE | --no-kfold] [--rewrite-charset] [--paths canonical|flat|id] [--json FILE] [--verbose] [--timeout-s 1800]\n',
  );
  process.exit(2);
}
const datasetArg = positionals[0];
// A path, or a dataset's name under ../shared/datasets (next to this checkout on the team's machines).
const datasetPath = existsSync(datasetArg) ? resolve(datasetArg) : resolve(root, '../shared/datasets', datasetArg);
if (!existsSync(datasetPath)) throw new Error(`no dataset at ${datasetArg} nor ${datasetPath}: give its folder or pages.jsonl.gz`);
const datasetName = datasetPath
  .replace(/\/pages\.jsonl\.gz$/, '')
  .split('/')
  .pop();
const minPages = Number(flags['min-pages']);

// ---- the dataset's sites --------------------------------------------------------------------

const allPages = await loadPages(datasetPath);
const bySite = new Map();
for (const page of allPages) (bySite.get(page.site) ?? bySite.set(page.site, []).get(page.site)).push(page);
let siteNames = [...bySite.keys()].filter((site) => bySite.get(site).length >= minPages).sort();
if (flags.sites) {
  const wanted = flags.sites.split(',').map((site) => site.trim());
  const unknown = wanted.filter((site) => !bySite.has(site));
  if (unknown.length > 0) throw new Error(`no such site in ${datasetName}: ${unknown.join(', ')}`);
  siteNames = wanted;
}
if (flags.limit) siteNames = siteNames.slice(0, Number(flags.limit));
if (siteNames.length === 0) throw new Error(`no site of ${datasetName} has ${minPages} pages or more`);

/** The site's host name as the dataset names it, without `www.`, for comparing canonical URLs. */
const bareHost = (host) => host.toLowerCase().replace(/^www\./, '');

/** The page's own canonical or og:url, when it names a page of `site` (or is relative). */
function ownCanonical(html, site) {
  const head = html.slice(0, 200_000);
  for (const tag of head.match(/<(?:link|meta)\b[^>]*>/gi) ?? []) {
    const isCanonical = /\brel\s*=\s*["']?canonical\b/i.test(tag) || /\bproperty\s*=\s*["']?og:url\b/i.test(tag);
    if (!isCanonical) continue;
    const value = /\b(?:href|content)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const raw = (value?.[1] ?? value?.[2] ?? value?.[3] ?? '').replace(/&amp;/g, '&').trim();
    if (!raw) continue;
    let url;
    try {
      url = new URL(raw, `http://${site}/`);
    } catch {
      continue;
    }
    const host = bareHost(url.hostname);
    if (host === bareHost(site) || host.endsWith(`.${bareHost(site)}`) || bareHost(site).endsWith(`.${host}`)) return url.pathname + url.search;
  }
  return null;
}

/** A path and query as the crawler spells it (tracking parameters dropped, `/a?` as `/a`): two pages must not share one. */
function crawlerKey(pathAndQuery) {
  const url = normalizeUrl(`http://replay.invalid${pathAndQuery}`);
  return url ? url.slice('http://replay.invalid'.length) : pathAndQuery;
}

const META_CHARSET = /<meta\b[^>]*\bcharset\s*=\s*["']?[\w-]+["']?[^>]*>/gi;

/**
 * The site as served: each page's path and query (unique), its body, and a seed path that no page
 * has. Lookups accept the crawler's spelling of a URL too (tracking parameters dropped).
 */
function siteLayout(site, pages) {
  const served = [];
  const taken = new Set();
  let synthetic = 0;
  const ordered = [...pages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const page of ordered) {
    let path;
    let how;
    if (page.url && URL.canParse(page.url)) {
      const url = new URL(page.url);
      path = url.pathname + url.search;
      how = 'dataset';
    } else if (flags.paths === 'canonical' && (path = ownCanonical(page.html, site))) {
      how = 'canonical';
    } else if (flags.paths === 'id') {
      path = `/${encodeURIComponent(page.id.split('/').pop())}.html`;
      how = 'id';
    } else {
      path = `/page/${++synthetic}.html`;
      how = 'synthetic';
    }
    let unique = path;
    for (let n = 2; taken.has(crawlerKey(unique)); n++) unique = `${path}${path.includes('?') ? '&' : '?'}replay_dup=${n}`;
    taken.add(crawlerKey(unique));
    const html = flags['rewrite-charset'] ? page.html.replace(META_CHARSET, '<meta charset="utf-8">') : page.html;
    served.push({ page, path: unique, how, body: Buffer.from(html, 'utf8') });
  }
  let seed = '/';
  for (let n = 1; taken.has(seed); n++) seed = `/replay-seed-${n}.html`;
  return { site, served, seed };
}

/** Serves one site on 127.0.0.1 (a random port); resolves with its origin, lookup and close. */
async function serveSite(layout) {
  const exact = new Map(layout.served.map((entry) => [entry.path, entry]));
  const normalized = new Map();
  for (const entry of layout.served) normalized.set(crawlerKey(entry.path), entry);
  const lookup = (pathAndQuery) => exact.get(pathAndQuery) ?? normalized.get(crawlerKey(pathAndQuery));
  const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  // Absolute links: a path that starts with `//` (a canonical such as `http://host//world/…`) would
  // otherwise be a protocol-relative link to another host.
  const seedHtml = (base) =>
    Buffer.from(
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(layout.site)}: every page</title></head><body><h1>${escapeHtml(layout.site)}</h1><ul>\n${layout.served
        .map((entry) => `<li><a href="${escapeHtml(base + entry.path)}">${escapeHtml(entry.page.id)}</a></li>`)
        .join('\n')}\n</ul></body></html>`,
      'utf8',
    );
  const requests = { pages: 0, missing: 0 };
  let origin = '';
  const server = createServer((request, response) => {
    // Not `new URL(request.url, base)`: a path that starts with `//` would be read as a host.
    const url = new URL(`http://replay.invalid${request.url ?? '/'}`);
    const pathAndQuery = url.pathname + url.search;
    const send = (status, body) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (pathAndQuery === layout.seed) return send(200, seedHtml(origin));
    const entry = lookup(pathAndQuery);
    if (entry) {
      requests.pages++;
      return send(200, entry.body);
    }
    requests.missing++;
    send(404, Buffer.from('<!DOCTYPE html><title>Not found</title><p>Not found</p>'));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, lookup, requests, close: () => new Promise((done) => server.close(done)) };
}

// ---- crawl them -------------------------------------------------------------------------------

const siteSlug = (site) =>
  `r-${site
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`.slice(0, 63);

const layouts = siteNames.map((site) => siteLayout(site, bySite.get(site)));
const servers = new Map();
for (const layout of layouts) servers.set(layout.site, await serveSite(layout));

const env = loadEnv({ WINNOW_LOG_LEVEL: 'warn', ...process.env, DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_DATA_DIR: 'memory' });
const rt = await openRuntime(env, { log: createLogger(env, 'replay') });
const services = [];
/** Closes the workers, the runtime (its private redis-server) and the sites' servers, once. */
let closed = false;
async function closeEverything() {
  if (closed) return;
  closed = true;
  for (const service of services) await service.close();
  await rt.close();
  for (const server of servers.values()) await server.close();
}
process.on('uncaughtException', (error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  void closeEverything().finally(() => process.exit(1));
});
process.on('unhandledRejection', (error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  void closeEverything().finally(() => process.exit(1));
});
for (const start of [startTemplater, startExtractor, startIndexer, startCrawler]) services.push(await start(rt));

const pageCount = layouts.reduce((sum, layout) => sum + layout.served.length, 0);
process.stderr.write(
  `${datasetName}: serving ${layouts.length} sites (${pageCount} pages) on 127.0.0.1; crawling, templating, extracting and indexing them (embedded, in memory)\n`,
);
const started = performance.now();
for (const layout of layouts) {
  const server = servers.get(layout.site);
  await addSite(rt, {
    name: siteSlug(layout.site),
    seeds: [`${server.origin}${layout.seed}`],
    maxPages: Number(flags['max-pages']),
    concurrency: 8,
    templateEveryMs: 0,
    allowPrivateAddresses: true,
  });
  await startCrawl(rt, siteSlug(layout.site));
}
// A pipeline that never goes idle (a crawl that hangs) is reported as far as it got, not waited for forever.
const timeoutMs = Number(flags['timeout-s']) * 1000;
let lastTick = 0;
let timedOut = false;
await waitForIdle(rt, async () => {
  if (performance.now() - started > timeoutMs) {
    timedOut = true;
    throw new Error('timed out');
  }
  if (performance.now() - lastTick < 15_000) return;
  lastTick = performance.now();
  const rows = await rt.db.query(
    `SELECT count(*) FILTER (WHERE p.content_hash IS NOT NULL)::int AS stored, count(e.page_id)::int AS extracted, (SELECT count(*)::int FROM search_documents) AS indexed
       FROM pages p LEFT JOIN extractions e ON e.page_id = p.id`,
  );
  const row = rows[0];
  process.stderr.write(`  ${((performance.now() - started) / 1000).toFixed(0)} s: ${row.stored} stored, ${row.extracted} extracted, ${row.indexed} indexed\n`);
}).catch((error) => {
  if (!timedOut) throw error;
});
const crawlSeconds = (performance.now() - started) / 1000;
process.stderr.write(
  timedOut
    ? `${datasetName}: NOT idle after ${crawlSeconds.toFixed(1)} s (--timeout-s): reporting what was indexed so far\n`
    : `${datasetName}: pipeline idle after ${crawlSeconds.toFixed(1)} s\n`,
);

/** Why the crawler would not admit a URL the seed links to, when its trap guards say so (it logs no such link). */
function neverAdmitted(url) {
  const normalized = normalizeUrl(url);
  const reason = normalized && trapReason(normalized);
  return reason ? ` (trap guard: ${reason})` : '';
}

// ---- read back what was indexed ------------------------------------------------------------------

const status = await pipelineStatus(rt);
const results = [];
const siteInfo = [];
for (const layout of layouts) {
  const name = siteSlug(layout.site);
  const server = servers.get(layout.site);
  const pathOf = (url) => {
    const parsed = new URL(url);
    return parsed.origin === server.origin ? parsed.pathname + parsed.search : null;
  };
  const rows = await rt.db.query(
    `SELECT p.id, p.url, p.status, p.content_hash, p.duplicate_of, p.canonical_url, p.fetch_error,
            e.method, e.template_id, e.read_alone, e.main_text, e.warnings, e.word_count, t.cluster, t.version AS template_version,
            d.main_text AS indexed_text
       FROM pages p JOIN sites s ON s.id = p.site_id
       LEFT JOIN extractions e ON e.page_id = p.id
       LEFT JOIN templates t ON t.id = e.template_id
       LEFT JOIN search_documents d ON d.page_id = p.id
      WHERE s.name = $1`,
    [name],
  );
  const frontier = await rt.db.query(
    `SELECT f.url, f.outcome, f.error FROM frontier f JOIN sites s ON s.id = f.site_id WHERE s.name = $1 AND f.kind = 'page'`,
    [name],
  );
  const byId = new Map();
  const byUrl = new Map(rows.map((row) => [row.url, row]));
  for (const row of rows) {
    const path = pathOf(row.url);
    const entry = path === null ? undefined : server.lookup(path);
    if (entry) byId.set(entry.page.id, row);
  }
  const outcomeById = new Map();
  for (const row of frontier) {
    const path = pathOf(row.url);
    const entry = path === null ? undefined : server.lookup(path);
    if (entry) outcomeById.set(entry.page.id, `${row.outcome ?? 'open'}${row.error ? `: ${row.error}` : ''}`);
  }
  const outcomes = Object.fromEntries(['stored', 'refused', 'failed', 'moved', 'gone', 'disallowed', 'cancelled', 'unchanged'].map((o) => [o, 0]));
  for (const row of frontier) if (row.outcome) outcomes[row.outcome] = (outcomes[row.outcome] ?? 0) + 1;
  const templates = await rt.db.query(
    `SELECT t.cluster, t.url_patterns, t.page_count, t.sample_size, t.version FROM templates t JOIN sites s ON s.id = t.site_id
      WHERE s.name = $1 AND t.version = s.template_version ORDER BY t.page_count DESC`,
    [name],
  );
  // The page types as the templater sees them now (its clustering of every stored page, seed included).
  const siteRow = (await rt.db.query('SELECT id, config, template_version FROM sites WHERE name = $1', [name]))[0];
  const stored = await listStoredPages(rt.db, siteRow.id);
  const bodies = await loadRawPages(rt.db, [...new Set(stored.map((page) => page.contentHash))]);
  const sitePages = stored.flatMap((page) => {
    const body = bodies.get(page.contentHash);
    if (!body) return [];
    try {
      return [{ url: page.url, html: decodeHtml(body, page.contentType ?? undefined).html }];
    } catch {
      return [];
    }
  });
  const clusters = clusterPages(sitePages, { minPages: siteRow.config.minTemplatePages }).map((cluster) => ({
    key: cluster.key,
    patterns: cluster.urlPatterns,
    pages: cluster.members.length,
    datasetPages: cluster.members.filter((i) => {
      const path = pathOf(sitePages[i].url);
      return path !== null && path !== layout.seed && server.lookup(path);
    }).length,
  }));
  const siteStatus = status.sites.find((s) => s.site === name);
  siteInfo.push({
    site: layout.site,
    origin: server.origin,
    paths: countBy(layout.served.map((entry) => entry.how)),
    crawl: siteStatus?.crawl ? { state: siteStatus.crawl.state, counts: siteStatus.crawl.counts, error: siteStatus.crawl.error } : null,
    frontierOutcomes: outcomes,
    requests: server.requests,
    templates: templates.map((t) => ({ cluster: t.cluster, patterns: t.url_patterns, pageCount: t.page_count, sampleSize: t.sample_size, version: t.version })),
    clusters,
  });
  for (const entry of layout.served) {
    const { page } = entry;
    const row = byId.get(page.id);
    const indexedText = row?.indexed_text ?? '';
    // What a reader who follows a duplicate to the page that stands for it finds.
    const throughOriginal = row?.duplicate_of ? (byUrl.get(row.duplicate_of)?.indexed_text ?? '') : indexedText;
    const extractedText = row?.main_text ?? '';
    let reading = 'not stored';
    if (row?.content_hash)
      reading = row.method == null ? 'not extracted' : row.template_id == null ? 'no template' : row.read_alone ? 'template: read alone' : 'template';
    // A reading the self-check trusted stands when a later version is prepared: it may come from a template of fewer pages.
    if (row?.template_id != null && row.template_version < siteRow.template_version) reading += ` (v${row.template_version} of ${siteRow.template_version})`;
    results.push({
      id: page.id,
      site: page.site,
      path: entry.path,
      pathFrom: entry.how,
      outcome: outcomeById.get(page.id) ?? (row ? 'stored (earlier)' : `never admitted${neverAdmitted(server.origin + entry.path)}`),
      stored: Boolean(row?.content_hash),
      duplicateOf: row?.duplicate_of ?? null,
      indexed: row?.indexed_text != null,
      reading,
      method: row?.method ?? null,
      cluster: row?.cluster ?? null,
      templateVersion: row?.template_version ?? null,
      siteTemplateVersion: siteRow.template_version,
      warnings: row?.warnings ?? [],
      words: row?.word_count ?? 0,
      goldEmpty: page.gold.trim() === '',
      lcsIndexed: lcsF1(page.gold, indexedText),
      lcsExtracted: lcsF1(page.gold, extractedText),
      lcsThroughOriginal: lcsF1(page.gold, throughOriginal),
      emptyIndexed: indexedText.trim() === '' && page.gold.trim() !== '',
      indexedText,
    });
  }
}

await closeEverything();

// ---- the k-fold pipeline on the same pages ---------------------------------------------------------

let kfold = null;
let kfoldSeconds = null;
if (!flags['no-kfold']) {
  let predictionsFile = flags['kfold-predictions'];
  if (!predictionsFile) {
    predictionsFile = `/tmp/replay-kfold.${datasetName}.jsonl`;
    process.stderr.write(`${datasetName}: running the k-fold pipeline evaluation for the same pages\n`);
    const kfoldStart = performance.now();
    const run = spawnSync(
      process.execPath,
      [
        resolve(root, built),
        'eval',
        '--data',
        datasetPath,
        '--method',
        'pipeline',
        '--min-pages-per-site',
        String(minPages),
        '--json',
        '--predictions',
        predictionsFile,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    kfoldSeconds = (performance.now() - kfoldStart) / 1000;
    if (run.status !== 0) throw new Error(`winnow eval exited with ${run.status}`);
  }
  kfold = new Map();
  const lines = createInterface({ input: createReadStream(predictionsFile), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const prediction = JSON.parse(line);
    kfold.set(prediction.id, prediction.text ?? '');
  }
  const goldById = new Map(allPages.map((page) => [page.id, page.gold]));
  for (const result of results) {
    if (!kfold.has(result.id)) continue;
    const text = kfold.get(result.id);
    result.lcsKfold = lcsF1(goldById.get(result.id), text);
    result.emptyKfold = text.trim() === '' && goldById.get(result.id).trim() !== '';
  }
}

// ---- report -----------------------------------------------------------------------------------------

function countBy(values) {
  const counts = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
const mean = (values) => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);
const f3 = (value) => (Number.isNaN(value) ? '  -  ' : value.toFixed(3));

function summary(rows) {
  const both = rows.filter((row) => row.lcsKfold !== undefined);
  return {
    pages: rows.length,
    notStored: rows.filter((row) => !row.stored).length,
    duplicates: rows.filter((row) => row.duplicateOf).length,
    notIndexed: rows.filter((row) => !row.indexed).length,
    lcsIndexed: mean(rows.map((row) => row.lcsIndexed)),
    lcsExtracted: mean(rows.map((row) => row.lcsExtracted)),
    lcsThroughOriginal: mean(rows.map((row) => row.lcsThroughOriginal)),
    lcsKfold: mean(both.map((row) => row.lcsKfold)),
    lcsIndexedOnKfoldPages: mean(both.map((row) => row.lcsIndexed)),
    emptyIndexed: rows.filter((row) => row.emptyIndexed).length,
    emptyKfold: both.filter((row) => row.emptyKfold).length,
    readings: countBy(rows.map((row) => row.reading)),
  };
}

const header = [
  'site',
  'pages',
  'not stored',
  'dup',
  'not indexed',
  'crawled lcs',
  'dups via original',
  'extracted lcs',
  'k-fold lcs',
  'empty crawled/k-fold',
  'readings',
];
const lines = [header.join('\t')];
const sitesOut = [];
for (const info of siteInfo) {
  const rows = results.filter((row) => row.site === info.site);
  const s = summary(rows);
  sitesOut.push({ ...info, summary: s });
  lines.push(
    [
      info.site,
      s.pages,
      s.notStored,
      s.duplicates,
      s.notIndexed,
      f3(s.lcsIndexed),
      f3(s.lcsThroughOriginal),
      f3(s.lcsExtracted),
      f3(s.lcsKfold),
      `${s.emptyIndexed}/${s.emptyKfold}`,
      Object.entries(s.readings)
        .map(([reading, count]) => `${reading} ${count}`)
        .join(', '),
    ].join('\t'),
  );
}
const overall = summary(results);
lines.push(
  [
    'ALL',
    overall.pages,
    overall.notStored,
    overall.duplicates,
    overall.notIndexed,
    f3(overall.lcsIndexed),
    f3(overall.lcsThroughOriginal),
    f3(overall.lcsExtracted),
    f3(overall.lcsKfold),
    `${overall.emptyIndexed}/${overall.emptyKfold}`,
    Object.entries(overall.readings)
      .map(([reading, count]) => `${reading} ${count}`)
      .join(', '),
  ].join('\t'),
);
process.stdout.write(`\n== ${datasetName}: crawled and indexed vs k-fold pipeline (lcs F1 per page, averaged; same pages)\n${lines.join('\n')}\n`);
process.stdout.write(
  `pipeline ${timedOut ? 'NOT idle (timed out)' : 'idle'} after ${crawlSeconds.toFixed(1)} s${kfoldSeconds === null ? '' : `; k-fold evaluation ${kfoldSeconds.toFixed(1)} s`}; ` +
    `crawled lcs ${f3(overall.lcsIndexedOnKfoldPages)} vs k-fold ${f3(overall.lcsKfold)} on the ${results.filter((row) => row.lcsKfold !== undefined).length} pages both read\n`,
);
// Where the gap comes from: each kind of reading's pages, and what they add to the difference of the means.
const compared = results.filter((row) => row.lcsKfold !== undefined);
if (compared.length > 0) {
  process.stdout.write('\nthe gap by how the crawled path read the page (contribution: sum of crawled - k-fold over all compared pages)\n');
  const kinds = new Map();
  for (const row of compared) {
    const kind = row.duplicateOf ? 'duplicate: not indexed' : row.reading.replace(/ \(v\d+ of \d+\)$/, '');
    (kinds.get(kind) ?? kinds.set(kind, []).get(kind)).push(row);
  }
  for (const [kind, rows] of kinds) {
    const gap = rows.reduce((sum, row) => sum + row.lcsIndexed - row.lcsKfold, 0) / compared.length;
    const worse = rows.filter((row) => row.lcsIndexed < row.lcsKfold - 0.02).length;
    const better = rows.filter((row) => row.lcsIndexed > row.lcsKfold + 0.02).length;
    process.stdout.write(
      `  ${kind}: ${rows.length} pages, crawled ${f3(mean(rows.map((row) => row.lcsIndexed)))}, k-fold ${f3(mean(rows.map((row) => row.lcsKfold)))}, ` +
        `contribution ${(gap >= 0 ? '+' : '') + gap.toFixed(4)}; ${worse} pages worse and ${better} better by more than 0.02\n`,
    );
  }
}
process.stdout.write('\nper site: templates (current version) and the templater clustering of the stored pages\n');
for (const info of siteInfo) {
  const templated = info.templates.map((t) => `${t.cluster} (${t.pageCount} pages)`).join(', ') || 'none';
  const clusters = info.clusters.map((c) => `${c.key}: ${c.pages}${c.pages === c.datasetPages ? '' : ` (${c.datasetPages} dataset)`}`).join('; ');
  process.stdout.write(
    `${info.site}: paths ${JSON.stringify(info.paths)}; crawl ${info.crawl?.state} ${JSON.stringify(info.frontierOutcomes)}; templates: ${templated}; clusters: ${clusters}\n`,
  );
}
const unstored = results.filter((row) => !row.stored);
if (unstored.length > 0) {
  process.stdout.write('\npages not stored\n');
  for (const row of unstored) process.stdout.write(`  ${row.site}\t${row.id}\t${row.path}\t${row.outcome}\n`);
}
if (flags.verbose) {
  process.stdout.write('\nper page: site, id, path, reading, cluster, crawled lcs, k-fold lcs\n');
  for (const row of results) {
    process.stdout.write(
      `${row.site}\t${row.id}\t${row.path}\t${row.reading}\t${row.cluster ?? '-'}\t${f3(row.lcsIndexed)}\t${f3(row.lcsKfold ?? Number.NaN)}${row.duplicateOf ? `\tduplicate of ${row.duplicateOf}` : ''}\n`,
    );
  }
}
if (flags.json) {
  writeFileSync(
    flags.json,
    `${JSON.stringify({ dataset: datasetName, crawlSeconds, timedOut, kfoldSeconds, overall, sites: sitesOut, pages: results }, null, 1)}\n`,
  );
  process.stderr.write(`wrote ${flags.json}\n`);
}
