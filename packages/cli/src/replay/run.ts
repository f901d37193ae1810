import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadEnv } from '@winnow/config';
import { startCrawler, normalizeUrl, trapReason } from '@winnow/crawler';
import { evaluate, goldMismatch, type GoldPage, lcsF1, loadPages } from '@winnow/eval';
import {
  around,
  boilerplateMatchCause,
  countContentMiss,
  explainContentMiss,
  holdsRun,
  linkTexts,
  noCounts,
  PHRASE_KINDS,
  type PathRule,
  type PhraseCounts,
  type PhraseKind,
  padded,
  type ReplayedPage,
  type ReplayPageResult,
  type ReplayReport,
  type ReplaySiteInfo,
  readerWords,
  type SearchedPhrase,
  type SearchReport,
  type SiteLayout,
  samplePhrases,
  searchRates,
  searchTextHolds,
  siteLayout,
  siteSlug,
  summarisePages,
  sumSites,
  countBy,
} from '@winnow/eval/replay';
import { clusterPages, decodeHtml } from '@winnow/extract';
import { startExtractor } from '@winnow/extractor';
import { startIndexer } from '@winnow/indexer';
import { addSite, createLogger, openRuntime, pipelineStatus, type Runtime, search, startCrawl, waitForIdle } from '@winnow/runtime';
import { bridgesOf, wordsOf } from '@winnow/search';
import { listStoredPages, loadRawPages } from '@winnow/storage';
import { startTemplater } from '@winnow/templater';
import { type ServedSite, serveSite } from './serve.js';

export interface ReplayOptions {
  /** A dataset folder or pages.jsonl.gz, or a dataset's name under `datasets`. */
  dataset: string;
  datasets: string;
  /** Only these sites (the dataset's names), else every site of `minPages` pages or more. */
  sites?: string[];
  /** At most this many sites (after sorting by name). */
  limit?: number;
  minPages: number;
  /** Each site's `maxPages`. */
  maxPages: number;
  paths: PathRule;
  rewriteCharset: boolean;
  /** Also score the k-fold `pipeline` on the same pages, after the crawl (never alongside it). */
  kfold: boolean;
  /** A pipeline not idle by then is reported as far as it got. */
  timeoutSeconds: number;
  /** Phrases of each kind per site to search (0: none). */
  search: number;
  searchSeed: string;
  /** Progress lines (stderr). */
  progress: (line: string) => void;
}

/** Resolves `--replay`'s argument: an existing path, else a dataset's name under `datasets`. */
export function datasetPath(dataset: string, datasets: string): string {
  const path = existsSync(dataset) ? resolve(dataset) : resolve(datasets, dataset);
  if (!existsSync(path)) throw new Error(`no dataset at ${dataset} nor ${path}: give its folder or pages.jsonl.gz`);
  return path;
}

/** A path and query as the crawler spells it (tracking parameters dropped, `/a?` as `/a`). */
function crawlerKey(pathAndQuery: string): string {
  const url = normalizeUrl(`http://replay.invalid${pathAndQuery}`);
  return url ? url.slice('http://replay.invalid'.length) : pathAndQuery;
}

/** Why the crawler would not admit a URL the seed links to, when its trap guards say so (it logs no such link). */
function neverAdmitted(url: string): string {
  const normalized = normalizeUrl(url);
  const reason = normalized && trapReason(normalized);
  return reason ? ` (trap guard: ${reason})` : '';
}

interface PageRow {
  id: number;
  url: string;
  content_hash: string | null;
  duplicate_of: string | null;
  method: string | null;
  template_id: number | null;
  read_alone: boolean | null;
  main_text: string | null;
  warnings: string[] | null;
  word_count: number | null;
  cluster: string | null;
  template_version: number | null;
  indexed_text: string | null;
}

/**
 * Replays a dataset's multi-page sites as websites and measures what the product indexes and finds
 * (see docs/replay.md): each site served on its own 127.0.0.1 port, crawled, templated, extracted
 * and indexed by the embedded pipeline in this process (PGlite in memory, a private redis-server,
 * the Postgres full-text index) until idle; each page's indexed text scored against its gold with
 * lcs F1; then sampled exact phrases sent through the product's `search`.
 */
export async function replayDataset(options: ReplayOptions): Promise<ReplayReport> {
  const path = datasetPath(options.dataset, options.datasets);
  const dataset = basename(path.endsWith('.jsonl.gz') ? dirname(path) : path);
  const allPages = await loadPages(path);
  const bySite = new Map<string, GoldPage[]>();
  for (const page of allPages) bySite.set(page.site, [...(bySite.get(page.site) ?? []), page]);
  let siteNames = [...bySite.keys()].filter((site) => bySite.get(site)!.length >= options.minPages).sort();
  if (options.sites) {
    const unknown = options.sites.filter((site) => !bySite.has(site));
    if (unknown.length > 0) throw new Error(`no such site in ${dataset}: ${unknown.join(', ')}`);
    siteNames = options.sites;
  }
  if (options.limit !== undefined) siteNames = siteNames.slice(0, options.limit);
  if (siteNames.length === 0) throw new Error(`no site of ${dataset} has ${options.minPages} pages or more`);

  const layouts = siteNames.map((site) => siteLayout(site, bySite.get(site)!, { paths: options.paths, rewriteCharset: options.rewriteCharset, crawlerKey }));
  const servers = new Map<string, ServedSite>();
  const env = loadEnv({ WINNOW_LOG_LEVEL: 'warn', ...process.env, DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_DATA_DIR: 'memory' });
  let rt: Runtime | undefined;
  const services: Array<{ close(): Promise<void> }> = [];
  try {
    for (const layout of layouts) servers.set(layout.site, await serveSite(layout, crawlerKey));
    rt = await openRuntime(env, { log: createLogger(env, 'replay') });
    for (const start of [startTemplater, startExtractor, startIndexer, startCrawler]) services.push(await start(rt));
    const crawl = await crawlSites(rt, layouts, servers, options, dataset);
    const { results, siteInfo, pageTexts } = await readBack(rt, layouts, servers, allPages);
    const searchReport = options.search > 0 ? await searchPhrases(rt, layouts, results, pageTexts, allPages, options, dataset) : null;
    for (const service of services.splice(0).reverse()) await service.close();
    await rt.close();
    rt = undefined;
    let kfoldSeconds: number | null = null;
    if (options.kfold) {
      options.progress(`${dataset}: running the k-fold pipeline evaluation for the same pages`);
      const started = performance.now();
      const { outcomes } = await evaluate(allPages, {
        method: 'pipeline',
        minPagesPerSite: options.minPages,
        folds: 5,
        chromiumPath: env.WINNOW_CHROMIUM_PATH,
      });
      kfoldSeconds = (performance.now() - started) / 1000;
      const goldById = new Map(allPages.map((page) => [page.id, page.gold]));
      const kfold = new Map(outcomes.map((outcome) => [outcome.id, outcome.text]));
      for (const result of results) {
        const text = kfold.get(result.id);
        if (text === undefined) continue;
        const gold = goldById.get(result.id)!;
        result.lcsKfold = lcsF1(gold, text);
        result.emptyKfold = text.trim() === '' && gold.trim() !== '';
      }
    }
    return {
      dataset,
      crawlSeconds: crawl.seconds,
      timedOut: crawl.timedOut,
      kfoldSeconds,
      overall: summarisePages(results),
      sites: siteInfo.map((info) => ({ ...info, summary: summarisePages(results.filter((row) => row.site === info.site)) })),
      pages: results,
      search: searchReport,
    };
  } finally {
    for (const service of services.reverse()) await service.close();
    await rt?.close();
    for (const server of servers.values()) await server.close();
  }
}

/** Adds every site with the seed as its only start and waits for the pipeline to go idle (or the timeout). */
async function crawlSites(rt: Runtime, layouts: readonly SiteLayout[], servers: Map<string, ServedSite>, options: ReplayOptions, dataset: string) {
  const pageCount = layouts.reduce((sum, layout) => sum + layout.served.length, 0);
  options.progress(
    `${dataset}: serving ${layouts.length} sites (${pageCount} pages) on 127.0.0.1; crawling, templating, extracting and indexing them (embedded, in memory)`,
  );
  const started = performance.now();
  for (const layout of layouts) {
    await addSite(rt, {
      name: siteSlug(layout.site),
      seeds: [`${servers.get(layout.site)!.origin}${layout.seed}`],
      maxPages: options.maxPages,
      concurrency: 8,
      templateEveryMs: 0,
      allowPrivateAddresses: true,
    });
    await startCrawl(rt, siteSlug(layout.site));
  }
  let lastTick = 0;
  let timedOut = false;
  await waitForIdle(rt, async () => {
    if (performance.now() - started > options.timeoutSeconds * 1000) {
      timedOut = true;
      throw new Error('timed out');
    }
    if (performance.now() - lastTick < 15_000) return;
    lastTick = performance.now();
    const [row] = await rt.db.query<{ stored: number; extracted: number; indexed: number }>(
      `SELECT count(*) FILTER (WHERE p.content_hash IS NOT NULL)::int AS stored, count(e.page_id)::int AS extracted, (SELECT count(*)::int FROM search_documents) AS indexed
         FROM pages p LEFT JOIN extractions e ON e.page_id = p.id`,
    );
    options.progress(`  ${((performance.now() - started) / 1000).toFixed(0)} s: ${row?.stored} stored, ${row?.extracted} extracted, ${row?.indexed} indexed`);
  }).catch((error: unknown) => {
    if (!timedOut) throw error;
  });
  const seconds = (performance.now() - started) / 1000;
  options.progress(
    timedOut
      ? `${dataset}: NOT idle after ${seconds.toFixed(1)} s (--timeout-s): reporting what was indexed so far`
      : `${dataset}: pipeline idle after ${seconds.toFixed(1)} s`,
  );
  return { seconds, timedOut };
}

/** Per dataset page id: the text a search finds it by (its own document, or its original's), its stored extraction, and what became of it. */
type PageTexts = Map<string, { searchText: string; extractedText: string; stored: boolean; extracted: boolean }>;

/** Reads back, per site, each dataset page's stored row, extraction and search document, the crawl's outcomes, the templates and page types. */
async function readBack(rt: Runtime, layouts: readonly SiteLayout[], servers: Map<string, ServedSite>, allPages: readonly GoldPage[]) {
  const status = await pipelineStatus(rt);
  const results: ReplayPageResult[] = [];
  const pageTexts: PageTexts = new Map();
  const siteInfo: ReplaySiteInfo[] = [];
  for (const layout of layouts) {
    const name = siteSlug(layout.site);
    const server = servers.get(layout.site)!;
    const pathOf = (url: string) => {
      const parsed = new URL(url);
      return parsed.origin === server.origin ? parsed.pathname + parsed.search : null;
    };
    const entryOf = (url: string) => {
      const path = pathOf(url);
      return path === null ? undefined : server.lookup(path);
    };
    const rows = await rt.db.query<PageRow>(
      `SELECT p.id, p.url, p.content_hash, p.duplicate_of,
              e.method, e.template_id, e.read_alone, e.main_text, e.warnings, e.word_count, t.cluster, t.version AS template_version,
              d.main_text AS indexed_text
         FROM pages p JOIN sites s ON s.id = p.site_id
         LEFT JOIN extractions e ON e.page_id = p.id
         LEFT JOIN templates t ON t.id = e.template_id
         LEFT JOIN search_documents d ON d.page_id = p.id
        WHERE s.name = $1`,
      [name],
    );
    const frontier = await rt.db.query<{ url: string; outcome: string | null; error: string | null }>(
      `SELECT f.url, f.outcome, f.error FROM frontier f JOIN sites s ON s.id = f.site_id WHERE s.name = $1 AND f.kind = 'page'`,
      [name],
    );
    const rowById = new Map<string, PageRow>();
    const rowByUrl = new Map(rows.map((row) => [row.url, row]));
    for (const row of rows) {
      const entry = entryOf(row.url);
      if (entry) rowById.set(entry.page.id, row);
    }
    const outcomeById = new Map<string, string>();
    for (const row of frontier) {
      const entry = entryOf(row.url);
      if (entry) outcomeById.set(entry.page.id, `${row.outcome ?? 'open'}${row.error ? `: ${row.error}` : ''}`);
    }
    const outcomes: Record<string, number> = Object.fromEntries(
      ['stored', 'refused', 'failed', 'moved', 'gone', 'disallowed', 'cancelled', 'unchanged'].map((outcome) => [outcome, 0]),
    );
    for (const row of frontier) if (row.outcome) outcomes[row.outcome] = (outcomes[row.outcome] ?? 0) + 1;
    const templates = await rt.db.query<{ cluster: string; url_patterns: unknown; page_count: number; sample_size: number; version: number }>(
      `SELECT t.cluster, t.url_patterns, t.page_count, t.sample_size, t.version FROM templates t JOIN sites s ON s.id = t.site_id
        WHERE s.name = $1 AND t.version = s.template_version ORDER BY t.page_count DESC`,
      [name],
    );
    // The page types as the templater sees them now (its clustering of every stored page, seed included).
    const [siteRow] = await rt.db.query<{ id: number; config: { minTemplatePages: number }; template_version: number }>(
      'SELECT id, config, template_version FROM sites WHERE name = $1',
      [name],
    );
    const stored = await listStoredPages(rt.db, siteRow!.id);
    const bodies = await loadRawPages(rt.db, [...new Set(stored.flatMap((page) => (page.contentHash ? [page.contentHash] : [])))]);
    const sitePages = stored.flatMap((page) => {
      const body = page.contentHash ? bodies.get(page.contentHash) : undefined;
      if (!body) return [];
      try {
        return [{ url: page.url, html: decodeHtml(body, page.contentType ?? undefined).html }];
      } catch {
        return [];
      }
    });
    const clusters = clusterPages(sitePages, { minPages: siteRow!.config.minTemplatePages }).map((cluster) => ({
      key: cluster.key,
      patterns: cluster.urlPatterns,
      pages: cluster.members.length,
      datasetPages: cluster.members.filter((i) => {
        const path = pathOf(sitePages[i]!.url);
        return path !== null && path !== layout.seed && server.lookup(path) !== undefined;
      }).length,
    }));
    const siteStatus = status.sites.find((s) => s.site === name);
    siteInfo.push({
      site: layout.site,
      origin: server.origin,
      paths: countBy(layout.served.map((entry) => entry.how)),
      crawl: siteStatus?.crawl ? { state: siteStatus.crawl.state, counts: siteStatus.crawl.counts, error: siteStatus.crawl.error ?? null } : null,
      frontierOutcomes: outcomes,
      requests: server.requests,
      templates: templates.map((t) => ({
        cluster: t.cluster,
        patterns: t.url_patterns,
        pageCount: t.page_count,
        sampleSize: t.sample_size,
        version: t.version,
      })),
      clusters,
    });
    for (const entry of layout.served) {
      const { page } = entry;
      const row = rowById.get(page.id);
      const indexedText = row?.indexed_text ?? '';
      // What a reader who follows a duplicate to the page that stands for it finds.
      const throughOriginal = row?.duplicate_of ? (rowByUrl.get(row.duplicate_of)?.indexed_text ?? '') : indexedText;
      const extractedText = row?.main_text ?? '';
      let reading = 'not stored';
      if (row?.content_hash)
        reading = row.method == null ? 'not extracted' : row.template_id == null ? 'no template' : row.read_alone ? 'template: read alone' : 'template';
      // A reading the self-check trusted stands when a later version is prepared: it may come from a template of fewer pages.
      if (row?.template_id != null && row.template_version !== null && row.template_version < siteRow!.template_version)
        reading += ` (v${row.template_version} of ${siteRow!.template_version})`;
      pageTexts.set(page.id, { searchText: throughOriginal, extractedText, stored: Boolean(row?.content_hash), extracted: row?.method != null });
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
        siteTemplateVersion: siteRow!.template_version,
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
  void allPages;
  return { results, siteInfo, pageTexts };
}

/** Runs the query through the product's search (`search` of @winnow/runtime, what the API and CLI call), paging until one of `urls` answers. */
async function searchFor(rt: Runtime, query: string, site: string, urls: ReadonlySet<string>) {
  const size = 100;
  const hitUrls: string[] = [];
  let total = 0;
  for (let page = 1; page * size <= 10_000; page++) {
    let response: Awaited<ReturnType<typeof search>>;
    try {
      response = await search(rt, { q: query, site, page, size });
    } catch (error) {
      return { error: String((error as Error)?.message ?? error), found: false, total: 0, hitUrls };
    }
    total = response.total;
    for (const hit of response.hits) if (hitUrls.length < 5) hitUrls.push(hit.url);
    if (response.hits.some((hit) => urls.has(hit.url))) return { found: true, total, hitUrls };
    if (page * size >= total) break;
  }
  return { found: false, total, hitUrls };
}

/** Where the Postgres index lost a phrase the page's indexed text holds: the query's words, the tsquery, or `norm_text`. */
async function diagnose(rt: Runtime, phrase: SearchedPhrase, site: string, url: string, indexedText: string) {
  const inner = phrase.query.slice(1, -1);
  const queryWords = wordsOf(inner);
  const [row] = await rt.db.query<{ tsquery_matches: boolean; norm_text_matches: boolean; tsquery: string }>(
    `SELECT search_vector @@ phraseto_tsquery('simple', $3) AS tsquery_matches, norm_text LIKE $4 AS norm_text_matches,
            phraseto_tsquery('simple', $3)::text AS tsquery
       FROM search_documents WHERE site = $1 AND url = $2`,
    [site, url, queryWords.join(' '), `% ${queryWords.join(' ')} %`],
  );
  const causes: string[] = [];
  if (queryWords.join(' ') !== phrase.words.join(' ')) causes.push(`query words differ: [${queryWords.join(' ')}]`);
  if (row && !row.tsquery_matches) causes.push(`tsquery ${row.tsquery} does not match the document's tsvector`);
  if (row && !row.norm_text_matches) causes.push('norm_text LIKE does not match');
  if (!row) causes.push('no search document at that URL');
  let lexemes: string | null = null;
  if (row && !row.tsquery_matches) {
    // How to_tsvector reads the indexed text around the phrase, widened to white space on both
    // sides: a joined token may begin before its first word or end after its last.
    const near = around(indexedText, phrase.words, 0);
    let raw = inner;
    if (near) {
      const from = indexedText.slice(0, near.start).search(/\S*$/);
      const after = indexedText.slice(near.end).search(/\s|$/);
      raw = indexedText.slice(from, near.end + after);
    }
    lexemes = (await rt.db.query<{ v: string }>(`SELECT to_tsvector('simple', search_spaced_characters($1))::text AS v`, [raw]))[0]?.v ?? null;
  }
  // The lexemes the default parser made of more than one of the query's words (its compound, number, host, file and email tokens).
  const joined = [...(lexemes ?? '').matchAll(/'((?:[^']|'')+)'/g)].map((match) => match[1]!).filter((lexeme) => /[^\p{L}\p{M}\p{N}]/u.test(lexeme));
  const kinds = [...new Set(joined.map(joinedTokenKind))];
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

function joinedTokenKind(lexeme: string): string {
  if (/^-\d/.test(lexeme)) return 'digits after a hyphen (read as a negative number)';
  if (/^[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}\p{N}]+)+$/u.test(lexeme)) return 'hyphenated word';
  if (/^[+-]?\d+(?:[.,]\d+)+$/.test(lexeme)) return 'number with a point';
  if (lexeme.includes('@')) return 'email';
  if (lexeme.includes('/')) return 'path or URL';
  if (lexeme.includes('.')) return 'host or dotted abbreviation';
  return 'other joined token';
}

/**
 * Per site, up to `options.search` phrases of each kind through the product's search, filtered to the
 * site and paged through. A hit is the page's URL (or the URL of the page it duplicates) among the
 * results; a boilerplate phrase counts when it matches any page of the site.
 */
async function searchPhrases(
  rt: Runtime,
  layouts: readonly SiteLayout[],
  results: readonly ReplayPageResult[],
  pageTexts: PageTexts,
  allPages: readonly GoldPage[],
  options: ReplayOptions,
  dataset: string,
): Promise<SearchReport> {
  options.progress(`${dataset}: sampling up to ${options.search} phrases of each kind per site and searching them`);
  const started = performance.now();
  const byId = new Map(results.map((result) => [result.id, result]));
  const pageById = new Map(allPages.map((page) => [page.id, page]));
  const resultByUrl = new Map<string, ReplayPageResult>();
  for (const result of results) if (result.url) resultByUrl.set(result.url, result);
  const textByUrl = new Map<string, string>();
  for (const result of results) if (result.url && result.indexed) textByUrl.set(result.url, result.indexedText);
  const linkTextCache = new Map<string, string[]>();
  const linksOf = (pageId: string) => {
    if (!linkTextCache.has(pageId)) linkTextCache.set(pageId, linkTexts(pageById.get(pageId)?.html ?? ''));
    return linkTextCache.get(pageId)!;
  };
  const perSite: SearchReport['perSite'] = [];
  const phrases: SearchedPhrase[] = [];
  const pagesNotSampled: string[] = [];
  for (const layout of layouts) {
    const site = siteSlug(layout.site);
    const pages = layout.served.map(({ page }) => ({ ...page, goldIsNotItsText: goldMismatch(page) }));
    for (const page of pages) if (page.goldIsNotItsText) pagesNotSampled.push(page.id);
    const sampled = samplePhrases(layout.site, pages, options.search, options.searchSeed);
    const siteResults = results.filter((result) => result.site === layout.site && result.indexed);
    // The site's indexed texts as reader words: what a search layer without faults of its own would match.
    const indexedTexts = siteResults.map((result) => padded(readerWords(result.indexedText)));
    const counts = Object.fromEntries(PHRASE_KINDS.map((kind) => [kind, noCounts()])) as Record<PhraseKind, PhraseCounts>;
    for (const kind of PHRASE_KINDS) {
      const c = counts[kind];
      for (const phrase of sampled[kind]) {
        c.phrases++;
        const out: SearchedPhrase = { site: layout.site, ...phrase, total: 0 };
        if (kind === 'boilerplate') {
          const answer = await searchFor(rt, phrase.query, site, new Set());
          out.total = answer.total;
          if (answer.error) out.error = answer.error;
          out.heldBy = indexedTexts.filter((text) => text.includes(padded(phrase.words))).length;
          if (answer.error) c.queryErrors++;
          if (out.heldBy > 0) c.heldByIndex++;
          if (out.heldBy > 0 && answer.total === 0) {
            c.hiddenBySearch++;
            const holder = siteResults.find((result) => holdsRun(result.indexedText, phrase.words))!;
            out.indexed = around(holder.indexedText, phrase.words)?.snippet ?? null;
            Object.assign(out, await diagnose(rt, out, site, holder.url!, holder.indexedText));
          }
          if (answer.total > 0) {
            c.found++;
            out.matches = answer.hitUrls.map((url) => {
              const hit = resultByUrl.get(url);
              const explained = boilerplateMatchCause(
                phrase.words,
                textByUrl.get(url) ?? '',
                hit ? (pageById.get(hit.id)?.gold ?? '') : '',
                hit ? linksOf(hit.id) : [],
              );
              return { url, id: hit?.id ?? null, ...explained };
            });
          }
        } else {
          const result = byId.get(phrase.pageId);
          const urls = new Set([result?.url, result?.duplicateOf].filter((url): url is string => Boolean(url)));
          const texts = pageTexts.get(phrase.pageId) ?? { searchText: '', extractedText: '', stored: false, extracted: false };
          const replayed: ReplayedPage = {
            ...texts,
            indexed: result?.indexed ?? false,
            duplicateOf: result?.duplicateOf ?? null,
            linkTexts: linksOf(phrase.pageId),
          };
          const holds = searchTextHolds(phrase, replayed);
          const answer = urls.size > 0 ? await searchFor(rt, phrase.query, site, urls) : { found: false, total: 0, hitUrls: [] };
          out.url = result?.url ?? null;
          out.found = answer.found;
          out.total = answer.total;
          if ('error' in answer && answer.error) {
            out.error = answer.error;
            c.queryErrors++;
          }
          if (answer.found) {
            c.found++;
            if (!holds) {
              if (bridgesOf(replayed.searchText).some((bridge) => holdsRun(bridge, phrase.words))) c.foundPastInterruption++;
              else c.foundWithoutText++;
            }
          } else {
            const miss = explainContentMiss(phrase, replayed);
            countContentMiss(c, miss);
            Object.assign(out, miss);
            if (miss.layer === 'search failed' && result) {
              const documentUrl = result.duplicateOf ?? result.url!;
              Object.assign(out, await diagnose(rt, out, site, documentUrl, textByUrl.get(documentUrl) ?? ''));
            }
          }
        }
        phrases.push(out);
      }
    }
    perSite.push({ site: layout.site, counts });
  }
  options.progress(`${dataset}: ${phrases.length} searches in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const all = sumSites(perSite);
  return { seed: options.searchSeed, perSite, all, rates: searchRates(all), phrases, pagesNotSampled };
}
