#!/usr/bin/env node
// Replays an evaluation dataset's multi-page sites as real websites and measures what the pipeline
// *indexes* when it crawls them, beside what the k-fold evaluation (`winnow eval --method pipeline`)
// predicts for the same pages. Each site is served on its own 127.0.0.1 port (every page at its
// URL's path and query, a seed page at `/` linking to them all), added with `allowPrivateAddresses`,
// crawled by the embedded pipeline in this process (PGlite in memory, a private redis-server, the
// Postgres full-text index: what `winnow demo` runs) until it is idle, and the indexed main text of
// each page is scored against the dataset's gold with lcs F1. With `--search N`, the product's
// exact-phrase search is then tried on each site (see "Searches" below).
//
// Usage (build first: pnpm --silent build):
//   node scripts/replay-dataset.mjs <dataset> [--sites a,b] [--limit N] [--min-pages 10] [--max-pages 1000]
//        [--kfold-predictions FILE | --no-kfold] [--rewrite-charset] [--paths canonical|flat|id] [--json FILE] [--verbose] [--timeout-s 1800]
//        [--search N [--search-seed S]]
// e.g.   node scripts/replay-dataset.mjs dragnet --kfold-predictions /tmp/pred/dragnet.jsonl --search 40 --json /tmp/dragnet.json
// <dataset> is a folder under ../shared/datasets (or any folder / pages.jsonl.gz). Without
// --kfold-predictions the k-fold pipeline evaluation is run afterwards (`winnow eval … --predictions`),
// one process after the other, never alongside the crawl.
//
// Searches (`--search N`, once the pipeline is idle): per site, up to N phrases of each kind, sampled
// deterministically from `--search-seed` (default 1), sent as the text shows them in quotes (an exact
// phrase, as the README's query language says) through `search` of @winnow/runtime (what the API
// and the CLI call), filtered to the site and paged through:
// - inside: 5-8 consecutive words of one gold line; across: the last 3-4 words of a gold line and
//   the first 3-4 of the next line of the same page. A hit is the page's URL (or the URL of the page
//   its duplicate points to) among the results. A miss is the search layer's when the page's indexed
//   text holds the phrase's words as a run (diagnosed on the Postgres index: the query's words, the
//   tsquery's phrase operator against the document's tsvector, the `norm_text` check), else the
//   extraction's (dropped, or for `across` both lines indexed but not consecutive).
// - boilerplate: 5-8 consecutive words of one line the page shows (its block lines, `blockLines`)
//   that occur as a run in the gold of no page of the site. Reported: the share whose search matches
//   any page of the site, and the share some indexed page holds as text whether or not the search
//   matched (a search-layer fault can hide boilerplate the index kept).
// Words here are a reader's, independent of the search layer's: a Han or Hiragana character is a
// word, any other run of letters, combining marks and digits is one (NFC, lower-cased); punctuation
// and case never count. Phrases of function words or digits only are skipped.
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
const { openRuntime, createLogger, addSite, startCrawl, waitForIdle, pipelineStatus, search } = await load('packages/runtime/dist/index.js');
const { listStoredPages, loadRawPages } = await load('packages/storage/dist/index.js');
const { blockLines, buildBlockTree, clusterPages, decodeHtml } = await load('packages/extract/dist/index.js');
const { CHARACTER_WORDS, MAX_QUERY_LENGTH, wordsOf } = await load('packages/search/dist/query.js');
const { seededRandom } = await load('packages/demo-corpus/dist/text.js');
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
    search: { type: 'string', default: '0' },
    'search-seed': { type: 'string', default: '1' },
  },
});
const searchCount = Number(flags.search);
if (positionals.length !== 1 || !['canonical', 'flat', 'id'].includes(flags.paths) || !Number.isInteger(searchCount) || searchCount < 0) {
  process.stderr.write('usage: node scripts/replay-dataset.mjs <dataset> [--sites a,b] [--limit N] [--min-pages 10] [--max-pages 1000]\n');
  process.stderr.write(
    '       [--kfold-predictions FILE | --no-kfold] [--rewrite-charset] [--paths canonical|flat|id] [--json FILE] [--verbose] [--timeout-s 1800]\n',
  );
  process.stderr.write('       [--search N [--search-seed S]]\n');
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

// ---- exact-phrase searches (--search N) ------------------------------------------------------------

/**
 * Words as a reader sees them, independent of the search layer's own rule (`wordsOf`), so that the
 * two can disagree: a Han or Hiragana character is a word (as the README promises), any other run of
 * letters, combining marks and digits is one, NFC, lower-cased. Each word keeps its place in the
 * text, so that a phrase can be sent as the text shows it (its punctuation and spacing).
 */
const REFERENCE_WORD = new RegExp(`[${CHARACTER_WORDS}]|(?:(?![${CHARACTER_WORDS}])[\\p{L}\\p{M}\\p{N}])+`, 'gu');
function referenceTokens(text) {
  const tokens = [];
  for (const match of text.matchAll(REFERENCE_WORD))
    tokens.push({ word: match[0].normalize('NFC').toLowerCase(), start: match.index, end: match.index + match[0].length });
  return tokens;
}
const referenceWords = (text) => referenceTokens(text).map((token) => token.word);
/** Words one space apart and padded, so that `includes` finds a run of whole words. */
const padded = (words) => ` ${words.join(' ')} `;

// Function words of the datasets' languages: a phrase of nothing else (or digits) is not sampled.
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each ' +
    'few for from further had has have having he her here hers him his how i if in into is it its just me more most my no nor not now of off on once only or other our ' +
    'out over own same she should so some such than that the their them then there these they this those through to too under until up very was we were what when ' +
    'where which while who whom why will with would you your s t ' +
    'и в не на что с по к а из у за о от для же как это но то все так его она он они мы вы я ' +
    'i w z na do że się nie to jest o a od po za jak ale co ' +
    'και το η ο της του των τα σε με να για που από ' +
    'der die das und in zu den von mit ist des le la les de et un une du en des est'
  ).split(' '),
);
const trivialPhrase = (words) => words.every((word) => STOP_WORDS.has(word) || /^\p{N}+$/u.test(word));

/** A deterministic generator of numbers in [0, 1) from a text: its FNV-1a hash seeds the demo corpus's mulberry32. */
function randomFrom(seedText) {
  let hash = 2166136261;
  for (const char of seedText) hash = Math.imul(hash ^ char.codePointAt(0), 16777619);
  return seededRandom(hash);
}
const randomInt = (random, n) => Math.floor(random() * n);
const randomBetween = (random, low, high) => low + randomInt(random, high - low + 1);

/** The query a user pastes: the text as shown, in quotes (a `"` of its own would end the phrase). */
const phraseQuery = (raw) => `"${raw.replace(/"/g, ' ').replace(/\s+/g, ' ').trim()}"`;

/**
 * Up to `count` phrases of each kind from a site's pages, deterministic for a seed:
 * `inside` 5-8 words of one gold line; `across` the last 3-4 words of a gold line and the first 3-4
 * of the next; `boilerplate` 5-8 words of one line the page shows (its block lines) that occur as a
 * run in the gold of no page of the site. Phrases of function words or digits only, and repeats, are skipped.
 */
function samplePhrases(layout, count, seed) {
  const pages = layout.served.map((entry) => ({
    entry,
    lines: entry.page.gold
      .split('\n')
      .map((text) => ({ text, tokens: referenceTokens(text) }))
      .filter((line) => line.tokens.length > 0),
  }));
  const golds = pages.map((page) => padded(page.lines.flatMap((line) => line.tokens.map((token) => token.word))));
  const inAnyGold = (words) => golds.some((gold) => gold.includes(padded(words)));
  const phrases = { inside: [], across: [], boilerplate: [] };
  const seen = new Set();
  const add = (kind, entry, words, raw, extra = {}) => {
    const key = `${kind}:${words.join(' ')}`;
    const query = phraseQuery(raw);
    if (seen.has(key) || trivialPhrase(words) || query.length > MAX_QUERY_LENGTH) return;
    seen.add(key);
    phrases[kind].push({ kind, pageId: entry.page.id, words, query, ...extra });
  };
  const slice = (line, from, to) => line.text.slice(line.tokens[from].start, line.tokens[to - 1].end);

  // A page, then a place in its gold text (a line weighted by its words): what a reader quotes, not one
  // phrase per line whatever its length (a list of link titles would outweigh the article's paragraphs).
  let random = randomFrom(`${seed}:${layout.site}:inside`);
  const insidePages = pages
    .map((page) => ({ page, lines: page.lines.filter((line) => line.tokens.length >= 5) }))
    .filter((candidate) => candidate.lines.length > 0)
    .map((candidate) => ({ ...candidate, words: candidate.lines.reduce((sum, line) => sum + line.tokens.length, 0) }));
  for (let attempt = 0; insidePages.length > 0 && phrases.inside.length < count && attempt < count * 20; attempt++) {
    const { page, lines, words: pageWords } = insidePages[randomInt(random, insidePages.length)];
    let place = randomInt(random, pageWords);
    const line = lines.find((candidate) => (place -= candidate.tokens.length) < 0);
    const length = Math.min(randomBetween(random, 5, 8), line.tokens.length);
    const from = randomInt(random, line.tokens.length - length + 1);
    add(
      'inside',
      page.entry,
      line.tokens.slice(from, from + length).map((token) => token.word),
      slice(line, from, from + length),
      { goldLine: page.lines.indexOf(line), goldLines: page.lines.length, lineWords: [line.tokens.length] },
    );
  }

  // A page, then one of its line boundaries.
  random = randomFrom(`${seed}:${layout.site}:across`);
  const pairPages = pages
    .map((page) => ({
      page,
      pairs: page.lines
        .slice(0, -1)
        .flatMap((line, i) => (line.tokens.length >= 3 && page.lines[i + 1].tokens.length >= 3 ? [{ a: line, b: page.lines[i + 1] }] : [])),
    }))
    .filter((candidate) => candidate.pairs.length > 0);
  for (let attempt = 0; pairPages.length > 0 && phrases.across.length < count && attempt < count * 20; attempt++) {
    const { page, pairs } = pairPages[randomInt(random, pairPages.length)];
    const { a, b } = pairs[randomInt(random, pairs.length)];
    const tail = Math.min(randomBetween(random, 3, 4), a.tokens.length);
    const head = Math.min(randomBetween(random, 3, 4), b.tokens.length);
    const words = [...a.tokens.slice(-tail), ...b.tokens.slice(0, head)].map((token) => token.word);
    add('across', page.entry, words, `${slice(a, a.tokens.length - tail, a.tokens.length)} ${slice(b, 0, head)}`, {
      split: tail,
      goldLine: page.lines.indexOf(a),
      goldLines: page.lines.length,
      lineWords: [a.tokens.length, b.tokens.length],
    });
  }

  random = randomFrom(`${seed}:${layout.site}:boilerplate`);
  const shownLines = [];
  for (const entry of layout.served) {
    let lines = [];
    try {
      lines = blockLines(buildBlockTree(entry.page.html).root).lines;
    } catch {
      // A page the block tree refuses shows nothing to sample.
    }
    for (const line of lines) {
      const tokens = referenceTokens(line.text);
      if (tokens.length >= 5) shownLines.push({ entry, line: { text: line.text, tokens } });
    }
  }
  for (let attempt = 0; shownLines.length > 0 && phrases.boilerplate.length < count && attempt < count * 50; attempt++) {
    const { entry, line } = shownLines[randomInt(random, shownLines.length)];
    const length = Math.min(randomBetween(random, 5, 8), line.tokens.length);
    const from = randomInt(random, line.tokens.length - length + 1);
    const words = line.tokens.slice(from, from + length).map((token) => token.word);
    if (inAnyGold(words)) continue;
    const phrase = { shownLine: line.text.length > 200 ? `${line.text.slice(0, 200)}…` : line.text };
    const before = phrases.boilerplate.length;
    add('boilerplate', entry, words, slice(line, from, from + length));
    if (phrases.boilerplate.length > before) Object.assign(phrases.boilerplate.at(-1), phrase);
  }
  return phrases;
}

/** The text around the first place `words` occur as a run in `text` (reference words), or null. */
function around(text, words, context = 80) {
  const tokens = referenceTokens(text);
  outer: for (let i = 0; i + words.length <= tokens.length; i++) {
    for (let k = 0; k < words.length; k++) if (tokens[i + k].word !== words[k]) continue outer;
    const start = tokens[i].start;
    const end = tokens[i + words.length - 1].end;
    const line = text.slice(0, start).split('\n').length - 1;
    const from = Math.max(0, start - context);
    const to = Math.min(text.length, end + context);
    return {
      line,
      start,
      end,
      snippet: `${from > 0 ? '…' : ''}${text.slice(from, start)}[[${text.slice(start, end)}]]${text.slice(end, to)}${to < text.length ? '…' : ''}`.replace(
        /\n/g,
        ' ⏎ ',
      ),
    };
  }
  return null;
}

/** The longest run of `words` (consecutive, in order) that `goldPadded` holds. */
function longestGoldRun(words, goldPadded) {
  let best = 0;
  for (let i = 0; i < words.length; i++)
    for (let j = words.length; j > i + best; j--)
      if (goldPadded.includes(padded(words.slice(i, j)))) {
        best = j - i;
        break;
      }
  return best;
}

/** Runs the query through the product's search (`search` of @winnow/runtime, what the API and CLI call), paging until one of `urls` answers. */
async function searchFor(query, site, urls) {
  const size = 100;
  const hitUrls = [];
  let total = 0;
  for (let page = 1; page * size <= 10_000; page++) {
    let response;
    try {
      response = await search(rt, { q: query, site, page, size });
    } catch (error) {
      return { error: String(error?.message ?? error), found: false, total: 0, hitUrls };
    }
    total = response.total;
    for (const hit of response.hits) if (hitUrls.length < 5) hitUrls.push(hit.url);
    if (response.hits.some((hit) => urls.has(hit.url))) return { found: true, total, hitUrls };
    if (page * size >= total) break;
  }
  return { found: false, total, hitUrls };
}

/** Where the Postgres index lost a phrase the page's indexed text holds: the query's words, the tsquery, or `norm_text`. */
async function diagnose(phrase, site, url) {
  const inner = phrase.query.slice(1, -1);
  const queryWords = wordsOf(inner);
  const [row] = await rt.db.query(
    `SELECT search_vector @@ phraseto_tsquery('simple', $3) AS tsquery_matches, norm_text LIKE $4 AS norm_text_matches,
            phraseto_tsquery('simple', $3)::text AS tsquery
       FROM search_documents WHERE site = $1 AND url = $2`,
    [site, url, queryWords.join(' '), `% ${queryWords.join(' ')} %`],
  );
  const causes = [];
  if (queryWords.join(' ') !== phrase.words.join(' ')) causes.push(`query words differ: [${queryWords.join(' ')}]`);
  if (row && !row.tsquery_matches) causes.push(`tsquery ${row.tsquery} does not match the document's tsvector`);
  if (row && !row.norm_text_matches) causes.push('norm_text LIKE does not match');
  if (!row) causes.push('no search document at that URL');
  let lexemes = null;
  if (row && !row.tsquery_matches) {
    // How to_tsvector reads the indexed text around the phrase (the GIN stage).
    // The phrase's span widened to white space on both sides: a joined token may begin before its first word or end after its last.
    const text = pageTextByUrl.get(url) ?? '';
    const near = around(text, phrase.words, 0);
    let raw = inner;
    if (near) {
      const from = text.slice(0, near.start).search(/\S*$/);
      const after = text.slice(near.end).search(/\s|$/);
      raw = text.slice(from, near.end + after);
    }
    lexemes = (await rt.db.query(`SELECT to_tsvector('simple', search_spaced_characters($1))::text AS v`, [raw]))[0]?.v ?? null;
  }
  // The lexemes the default parser made of more than one of the query's words (its compound, number, host, file and email tokens).
  const joined = [...(lexemes ?? '').matchAll(/'((?:[^']|'')+)'/g)].map((match) => match[1]).filter((lexeme) => /[^\p{L}\p{M}\p{N}]/u.test(lexeme));
  const kinds = [
    ...new Set(
      joined.map((lexeme) =>
        /^-\d/.test(lexeme)
          ? 'digits after a hyphen (read as a negative number)'
          : /^[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}\p{N}]+)+$/u.test(lexeme)
            ? 'hyphenated word'
            : /^[+-]?\d+(?:[.,]\d+)+$/.test(lexeme)
              ? 'number with a point'
              : lexeme.includes('@')
                ? 'email'
                : lexeme.includes('/')
                  ? 'path or URL'
                  : lexeme.includes('.')
                    ? 'host or dotted abbreviation'
                    : 'other joined token',
      ),
    ),
  ];
  // Postgres lower() makes a capital sigma σ everywhere; JavaScript's toLowerCase (the query's words) makes it ς at a word's end.
  if (row && !row.tsquery_matches && queryWords.some((word) => word.endsWith('ς') && (lexemes ?? '').includes(`'${word.slice(0, -1)}σ'`)))
    kinds.push('Greek final sigma (Postgres lower: Σ→σ, the query: ς)');
  if (causes.length === 0) causes.push('none found (paging?)');
  return {
    causes,
    lexemes,
    joinedLexemes: joined,
    layerCause: !row
      ? 'no search document'
      : queryWords.join(' ') !== phrase.words.join(' ')
        ? 'query words differ'
        : kinds.join(' + ') || (row.tsquery_matches ? (row.norm_text_matches ? 'unexplained' : 'norm_text') : 'tsquery (no joined token found)'),
  };
}
/** Reference words without the digits of words that mix digits and letters: `0Также` is `также`, so that a word glued to a counter shows. */
const looseWords = (text) => padded(referenceWords(text).map((word) => (/\p{N}/u.test(word) && /\p{L}/u.test(word) ? word.replace(/\p{N}+/gu, '') : word)));
/** The indexed text around the phrase's first word where it is glued to something. */
function gluedSnippet(text, words) {
  const at = text.toLowerCase().indexOf(words[0]);
  return at < 0 ? null : text.slice(Math.max(0, at - 60), at + 80).replace(/\n/g, ' ⏎ ');
}
/** The texts of a dataset page's links (`<a>` elements, tags stripped) as padded reference words. */
const linkTextCache = new Map();
function linkTexts(pageId) {
  if (!linkTextCache.has(pageId)) {
    const html = allPages.find((page) => page.id === pageId)?.html ?? '';
    const texts = [...html.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/gi)].map((match) =>
      padded(
        referenceWords(
          match[1]
            .replace(/<[^>]*>/g, ' ')
            .replace(/&nbsp;|&#160;/g, ' ')
            .replace(/&amp;/g, '&'),
        ),
      ),
    );
    linkTextCache.set(pageId, texts);
  }
  return linkTextCache.get(pageId);
}
/** The indexed text of each stored page by URL (filled by `searchPhrases`). */
const pageTextByUrl = new Map();

async function searchPhrases() {
  process.stderr.write(`${datasetName}: sampling up to ${searchCount} phrases of each kind per site and searching them\n`);
  const searchStarted = performance.now();
  const byId = new Map(results.map((result) => [result.id, result]));
  const goldById = new Map(allPages.map((page) => [page.id, page.gold]));
  const resultByUrl = new Map();
  for (const result of results) if (result.url) resultByUrl.set(result.url, result);
  for (const result of results) if (result.url && result.indexed) pageTextByUrl.set(result.url, result.indexedText);
  const perSite = [];
  const phrasesOut = [];
  for (const layout of layouts) {
    const site = siteSlug(layout.site);
    const sampled = samplePhrases(layout, searchCount, flags['search-seed']);
    // The site's indexed texts as reference words: what a search layer without faults of its own would match.
    const indexedTexts = results.filter((result) => result.site === layout.site && result.indexed).map((result) => padded(referenceWords(result.indexedText)));
    const counts = {};
    for (const kind of ['inside', 'across', 'boilerplate']) {
      counts[kind] = noCounts();
      for (const phrase of sampled[kind]) {
        const c = counts[kind];
        c.phrases++;
        const out = { site: layout.site, ...phrase };
        if (kind === 'boilerplate') {
          const answer = await searchFor(phrase.query, site, new Set());
          out.total = answer.total;
          out.error = answer.error;
          out.heldBy = indexedTexts.filter((text) => text.includes(padded(phrase.words))).length;
          if (answer.error) c.queryErrors++;
          if (out.heldBy > 0) c.heldByIndex++;
          if (out.heldBy > 0 && answer.total === 0) {
            c.hiddenBySearch++;
            const holder = results.find((result) => result.site === layout.site && result.indexed && around(result.indexedText, phrase.words));
            out.indexed = around(holder.indexedText, phrase.words).snippet;
            Object.assign(out, await diagnose(phrase, site, holder.url));
          }
          if (answer.total > 0) {
            c.found++;
            out.matches = answer.hitUrls.map((url) => {
              const hit = resultByUrl.get(url);
              const text = pageTextByUrl.get(url) ?? '';
              const near = around(text, phrase.words);
              const gold = hit ? padded(referenceWords(goldById.get(hit.id) ?? '')) : '  ';
              const goldRun = longestGoldRun(phrase.words, gold);
              const isLink = hit ? linkTexts(hit.id).some((linkText) => linkText.includes(padded(phrase.words))) : false;
              const cause = !near
                ? 'search matched text the reference words do not hold'
                : goldRun >= phrase.words.length / 2
                  ? `straddles the gold's edge (${goldRun} of ${phrase.words.length} words in this page's gold)`
                  : isLink
                    ? 'kept link text (related links, menus)'
                    : near.line === 0
                      ? 'kept other text (first line)'
                      : 'kept other text (captions, notes, embeds, bylines…)';
              return { url, id: hit?.id ?? null, line: near?.line ?? null, indexed: near?.snippet ?? null, goldRun, cause };
            });
          }
        } else {
          const result = byId.get(phrase.pageId);
          const urls = new Set([result?.url, result?.duplicateOf].filter(Boolean));
          const texts = pageTexts.get(phrase.pageId) ?? { searchText: '', extractedText: '' };
          const holds = padded(referenceWords(texts.searchText)).includes(padded(phrase.words));
          const answer = urls.size > 0 ? await searchFor(phrase.query, site, urls) : { found: false, total: 0, hitUrls: [] };
          out.url = result?.url ?? null;
          out.found = answer.found;
          out.total = answer.total;
          out.error = answer.error;
          if (answer.error) c.queryErrors++;
          if (answer.found) {
            c.found++;
            if (!holds) c.foundWithoutText++;
          } else if (!result?.indexed && !result?.duplicateOf) {
            c.notIndexed++;
            out.cause = 'page not indexed';
          } else if (holds) {
            c.searchLayer++;
            out.cause = 'search layer';
            out.indexed = around(texts.searchText, phrase.words)?.snippet ?? null;
            const docUrl = result.duplicateOf ?? result.url;
            Object.assign(out, await diagnose(phrase, site, docUrl));
          } else {
            c.extraction++;
            const indexedWords = padded(referenceWords(texts.searchText));
            const halvesApart =
              phrase.kind === 'across' &&
              indexedWords.includes(padded(phrase.words.slice(0, phrase.split))) &&
              indexedWords.includes(padded(phrase.words.slice(phrase.split)));
            if (padded(referenceWords(texts.extractedText)).includes(padded(phrase.words))) out.cause = 'extracted but not in the index';
            else if (looseWords(texts.searchText).includes(padded(looseWords(phrase.words.join(' ')).trim().split(' ')))) {
              out.cause = 'extraction glued a word to its neighbour (no space between them)';
              out.indexed = gluedSnippet(texts.searchText, phrase.words);
            } else if (halvesApart) {
              // What the index holds between the two lines (or that it has them the other way round).
              const tail = around(texts.searchText, phrase.words.slice(0, phrase.split), 0);
              const head = around(texts.searchText.slice(tail.end), phrase.words.slice(phrase.split), 0);
              out.cause = head ? 'both lines indexed, text kept between them' : 'both lines indexed, in another order';
              if (head) {
                const between = texts.searchText.slice(tail.end, tail.end + head.start).trim();
                out.between = between.length > 160 ? `${between.slice(0, 160)}…` : between;
              }
              out.indexed = around(texts.searchText, phrase.words.slice(phrase.split), 120)?.snippet ?? null;
            } else {
              // Which gold line is missing, and what kind of line it is.
              const firstHalfHeld = phrase.kind === 'across' && indexedWords.includes(padded(phrase.words.slice(0, phrase.split)));
              const missingLine = phrase.goldLine + (firstHalfHeld ? 1 : 0);
              const missingWords = phrase.lineWords[firstHalfHeld ? 1 : 0];
              const missingPart =
                phrase.kind === 'across' ? (firstHalfHeld ? phrase.words.slice(phrase.split) : phrase.words.slice(0, phrase.split)) : phrase.words;
              out.cause = linkTexts(phrase.pageId).some((text) => text.includes(padded(missingPart)))
                ? 'extraction dropped a line: link text (the gold keeps links)'
                : missingLine < 2 || missingLine >= phrase.goldLines - 2
                  ? "extraction dropped a line: at the gold's edge (first or last two lines: title, date, byline, trailer)"
                  : missingWords <= 6
                    ? 'extraction dropped a line: a short line inside (heading, caption, date)'
                    : 'extraction dropped a line: a paragraph inside';
            }
          }
        }
        phrasesOut.push(out);
      }
    }
    perSite.push({ site: layout.site, counts });
  }
  process.stderr.write(`${datasetName}: ${phrasesOut.length} searches in ${((performance.now() - searchStarted) / 1000).toFixed(1)} s\n`);
  return { seed: flags['search-seed'], perSite, phrases: phrasesOut };
}

/** A site's (or the sum's) counts for one kind of phrase, all zero. */
function noCounts() {
  return { phrases: 0, found: 0, extraction: 0, searchLayer: 0, notIndexed: 0, foundWithoutText: 0, queryErrors: 0, heldByIndex: 0, hiddenBySearch: 0 };
}

function printSearchReport(report) {
  const sum = (rows, kind) => {
    const total = noCounts();
    for (const row of rows) for (const key of Object.keys(total)) total[key] += row.counts[kind][key];
    return total;
  };
  const share = (n, d) => (d === 0 ? '  -  ' : (n / d).toFixed(3));
  const cell = (c) => `${share(c.found, c.phrases)} (${c.found}/${c.phrases})`;
  const misses = (c) => `${c.extraction}/${c.searchLayer}/${c.notIndexed}`;
  const out = [
    `\n== ${datasetName}: exact-phrase searches through the product's search (seed ${report.seed}; up to ${searchCount} phrases of each kind per site)`,
    'inside/across: recall (the page, or the page its duplicate points to, among the results); misses: extraction dropped / search layer / not indexed.',
    'boilerplate: share whose search matches any page of the site; "in index" the share some indexed page of the site holds as text (reference words), whether or not its search matched',
    ['site', 'inside', 'misses', 'across', 'misses', 'boilerplate matched', 'in index', 'query errors'].join('\t'),
  ];
  const row = (name, rows) => {
    const inside = sum(rows, 'inside');
    const across = sum(rows, 'across');
    const boilerplate = sum(rows, 'boilerplate');
    return [
      name,
      cell(inside),
      misses(inside),
      cell(across),
      misses(across),
      cell(boilerplate),
      `${share(boilerplate.heldByIndex, boilerplate.phrases)} (${boilerplate.heldByIndex})`,
      inside.queryErrors + across.queryErrors + boilerplate.queryErrors,
    ].join('\t');
  };
  for (const site of report.perSite) out.push(row(site.site, [site]));
  out.push(row('ALL', report.perSite));
  const all = { inside: sum(report.perSite, 'inside'), across: sum(report.perSite, 'across') };
  const withoutText = all.inside.foundWithoutText + all.across.foundWithoutText;
  if (withoutText > 0) out.push(`(${withoutText} phrases were found although the page's indexed text does not hold their words as a run)`);
  const layer = report.phrases.filter(
    (phrase) => phrase.cause === 'search layer' || phrase.error || (phrase.kind === 'boilerplate' && phrase.heldBy > 0 && phrase.total === 0),
  );
  out.push(
    `\nsearch-layer misses (the page's indexed text holds the phrase, its search did not find the page; boilerplate: kept in the index, hidden from search): ${layer.length}`,
  );
  if (layer.length > 0) {
    out.push(
      `  by cause: ${Object.entries(countBy(layer.map((phrase) => phrase.layerCause ?? (phrase.error ? 'query error' : '?'))))
        .map(([cause, n]) => `${cause} ${n}`)
        .join(', ')}`,
    );
  }
  for (const phrase of layer) {
    out.push(`  [${phrase.kind}] ${phrase.site} ${phrase.query}${phrase.error ? `  ERROR ${phrase.error}` : ''}`);
    if (phrase.indexed) out.push(`      indexed: ${phrase.indexed}`);
    if (phrase.causes) out.push(`      why: ${phrase.causes.join('; ')}`);
    if (phrase.lexemes) out.push(`      to_tsvector there: ${phrase.lexemes}`);
  }
  const dropped = report.phrases.filter((phrase) => phrase.cause && phrase.cause !== 'search layer');
  out.push(`\nextraction misses (the phrase is not in the page's indexed text): ${dropped.length}`);
  for (const kind of ['inside', 'across']) {
    const ofKind = dropped.filter((phrase) => phrase.kind === kind);
    out.push(`  ${kind}: ${ofKind.length}`);
    for (const [cause, n] of Object.entries(countBy(ofKind.map((phrase) => phrase.cause))).sort((x, y) => y[1] - x[1])) out.push(`    ${n}\t${cause}`);
  }
  for (const phrase of flags.verbose ? dropped : dropped.slice(0, 15)) {
    out.push(`  [${phrase.kind}] ${phrase.site} ${phrase.pageId} ${phrase.query}: ${phrase.cause}`);
    if (phrase.between !== undefined) out.push(`      between them: ${JSON.stringify(phrase.between)}`);
    else if (phrase.indexed) out.push(`      indexed: ${phrase.indexed}`);
  }
  if (!flags.verbose && dropped.length > 15) out.push(`  … ${dropped.length - 15} more (--verbose)`);
  const falseMatches = report.phrases.filter((phrase) => phrase.kind === 'boilerplate' && phrase.total > 0);
  out.push(`\nboilerplate phrases that matched: ${falseMatches.length} of ${report.phrases.filter((phrase) => phrase.kind === 'boilerplate').length}`);
  if (falseMatches.length > 0) {
    const causes = countBy(falseMatches.map((phrase) => phrase.matches[0]?.cause.replace(/ \(\d+ of \d+ words.*\)$/, '') ?? '?'));
    out.push(
      `  by cause (first match): ${Object.entries(causes)
        .map(([cause, n]) => `${cause} ${n}`)
        .join(', ')}`,
    );
  }
  for (const phrase of flags.verbose ? falseMatches : falseMatches.slice(0, 25)) {
    const first = phrase.matches[0];
    out.push(`  ${phrase.site} ${phrase.query} matches ${phrase.total} page(s); shown on ${phrase.pageId}: "${phrase.shownLine}"`);
    if (first) out.push(`      ${first.cause}; indexed line ${first.line} of ${first.url}: ${first.indexed}`);
  }
  if (!flags.verbose && falseMatches.length > 25) out.push(`  … ${falseMatches.length - 25} more (--verbose)`);
  process.stdout.write(`${out.join('\n')}\n`);
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
/** Per dataset page id: the text a search finds it by (its own document, or its original's) and its stored extraction. */
const pageTexts = new Map();
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
    pageTexts.set(page.id, { searchText: throughOriginal, extractedText });
    results.push({
      id: page.id,
      site: page.site,
      url: row?.url ?? null,
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

const searchReport = searchCount > 0 ? await searchPhrases() : null;

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
if (searchReport) printSearchReport(searchReport);
if (flags.json) {
  writeFileSync(
    flags.json,
    `${JSON.stringify({ dataset: datasetName, crawlSeconds, timedOut, kfoldSeconds, overall, sites: sitesOut, pages: results, search: searchReport }, null, 1)}\n`,
  );
  process.stderr.write(`wrote ${flags.json}\n`);
}
