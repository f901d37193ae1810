import { refusedHost, type SiteConfig, siteOrigins } from '@winnow/config';
import { decodeHtml } from '@winnow/extract';
import { extractionJobId } from '@winnow/queue';
import type { Runtime } from '@winnow/runtime';
import {
  type FetchKind,
  type FetchToArchive,
  type FrontierOutcome,
  type LeasedUrl,
  contentHash,
  loadBody,
  markPageGone,
  type PreviousFetch,
  previousFetch,
  type Site,
  storedAnswer,
  storedInCrawl,
  storeFetchedPage,
  touchPage,
  upsertFetchedPage,
} from '@winnow/storage';
import { admitFound, beyondMaxDepth, type Found, foundEntries, frontierEntry, refusedLink } from './admission.js';
import type { RenderedPage, RenderRequest } from './browser.js';
import { type FetchedResponse, FetchError, type Fetcher } from './fetcher.js';
import { headerCanonical, readLinks } from './links.js';
import { type HostPace, type HostSlot, type Politeness, retryAfterMs } from './politeness.js';
import type { RobotsCache, RobotsRules } from './robots.js';
import { readSitemap } from './sitemaps.js';
import { sniffsAsHtml } from './sniff.js';
import { hostKey, normalizeUrl, trapReason } from './urls.js';

/** The media types a stored page may have: what the extractor can read. */
const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);
/** What the MIME Sniffing Standard counts as no type at all (absent, empty, or saying it does not know): such a body is sniffed. */
const UNKNOWN_TYPES: ReadonlySet<string> = new Set(['', 'unknown/unknown', 'application/unknown', '*/*']);
/** Tries per URL for failures that can pass (timeouts, resets, 5xx, 429). */
export const MAX_ATTEMPTS = 3;
/** A host whose next free slot is further away than this: the URL goes back to the frontier instead of holding a worker. */
const LONGEST_SLOT_WAIT_MS = 2000;
/** A host that answered 429 or 503 without `Retry-After` is left alone this long. */
const DEFAULT_BACKOFF_MS = 30_000;

/**
 * How the response a visit answers was had, for its fetch's WARC records: fetched now (with the
 * request headers sent; null when Chromium rendered it), and for a 304 answered from the stored
 * page, the 304 itself. Undefined for a page answered from what a process that died had stored:
 * its fetch was staged then.
 */
interface Capture {
  requestHeaders: Record<string, string> | null;
  notModified?: FetchedResponse;
}

/** What became of a leased URL: done with an outcome, or back to the frontier for later. */
export type Visit = { outcome: FrontierOutcome; error?: string; pageId?: number } | { retryInMs: number; attempted: boolean };

/** What visiting a URL needs, shared by every visit of a crawler process. */
export interface VisitContext {
  rt: Runtime;
  fetcher: Fetcher;
  politeness: Politeness;
  robots: RobotsCache;
  /** Renders a page in Chromium (`render: browser` sites). */
  render(request: RenderRequest): Promise<RenderedPage>;
  trackingParams: readonly string[];
  /** Fetches one URL in a politeness slot of its host, waiting for one as long as it takes (robots.txt). */
  politeFetch(url: string, pace: HostPace, allowPrivate: boolean): Promise<FetchedResponse>;
  /** URLs this process already offered to a crawl, and refusals it already counted: most links of a page are, and need no round trip. */
  admitted(crawlId: number): Set<string>;
}

/**
 * Visits one leased URL of a crawl: robots.txt, the host's politeness slot, the fetch (HTTP, or
 * Chromium for `render: browser` sites), and what the response means — a stored page and its
 * links admitted to the frontier (before the URL is marked done, so that a crawl never looks
 * finished while a page's links are still on their way), an unchanged page (304 or the same
 * body: nothing to extract again), a redirect (the old page moves: its target joins the frontier
 * if the site allows it), a page gone (404/410 of a page that had a body: it leaves the index), or
 * a refusal recorded with its reason. Failures that can pass come back with a delay. An attempt
 * after one that fetched but could not record records what `held` kept, without fetching again.
 */
export async function visit(context: VisitContext, leased: LeasedUrl, site: Site, held: HeldFetch = {}): Promise<Visit> {
  if (!held.fetched) {
    const unfetched = await fetchLeased(context, leased, site, held);
    if (unfetched) return unfetched;
  }
  return settle(context, leased, site, held.fetched as Fetched);
}

/**
 * What a visit had from the host: the response (with the stored page it was asked against, whose
 * validators it sent), or the fetch's error.
 */
type Fetched = { response: FetchedResponse; previous: PreviousFetch | undefined; rendered: boolean } | { error: FetchError };

/**
 * Shared by the attempts at one visit: the first that reaches the host leaves what it had here, and
 * an attempt after it (the answer could not be recorded: Postgres or Redis unreachable) records
 * that instead of asking the host again. Asked again at each retry, a page was fetched 9 times in
 * one Postgres outage. At most one response per URL in flight is held (`WINNOW_CRAWL_CONCURRENCY`
 * of them, each within `WINNOW_MAX_PAGE_BYTES`), and only for as long as its visit is retried.
 */
export interface HeldFetch {
  fetched?: Fetched;
}

/**
 * Everything a visit does up to the request: robots.txt, the host's slot, the fetch, whose result
 * it leaves in `held`. Returns the visit's end instead when the URL is not to be fetched (now).
 */
async function fetchLeased(context: VisitContext, leased: LeasedUrl, site: Site, held: HeldFetch): Promise<Visit | undefined> {
  const { config } = site;
  const url = new URL(leased.url);
  // Links are judged when found and seeds are the operator's own: only a revisit (a stored page no
  // link reached) can be outside the site's globs, once the operator narrowed them.
  const outside = leased.revisit ? refusedLink(leased.url, config) : null;
  if (outside) return (await withdraw(context, leased, site, outside.why)) ?? refuse(context, leased, site, outside.why);
  const literal = refusedHost(url.hostname, config.allowPrivateAddresses);
  if (literal) return refuse(context, leased, site, `refused: ${literal}`);
  if (leased.lapsed && leased.kind === 'page') {
    // A process that died holding this URL may have stored the page first: it is answered from
    // what was stored (links admitted again, extraction queued once), not fetched a second time.
    const stored = await storedInCrawl(context.rt.db, site.id, leased.url, leased.crawlId);
    const body = stored && (await loadBody(context.rt.bodies, stored.contentHash));
    if (stored && body) {
      const previous = stored.hadBefore ? await previousFetch(context.rt.db, site.id, leased.url) : undefined;
      return answer(context, leased, site, { url: leased.url, status: stored.status, headers: stored.headers, body }, previous, undefined);
    }
  }
  const pace: HostPace = { intervalMs: config.delayMs, maxInFlight: config.concurrency };
  const rules = await context.robots.rulesFor(leased.crawlId, url.origin, (robotsUrl) => context.politeFetch(robotsUrl, pace, config.allowPrivateAddresses));
  observeRobots(context, leased.host, rules);
  if (rules.unavailable) {
    const { reason, refused, retriable, retryInMs } = rules.unavailable;
    if (refused) return refuse(context, leased, site, reason);
    // robots.txt is tried again on its own bounded schedule; the URL waits for it without spending its own tries.
    return retriable ? { retryInMs, attempted: false } : fail(context, leased, site, reason);
  }
  if (config.sitemaps && leased.depth === 0 && rules.sitemaps.length > 0) {
    await admit(context, leased, site, sitemapsFound(context, site, rules.sitemaps, 0));
  }
  const disallowed = rules.disallowedBy(leased.url);
  if (disallowed) {
    return (leased.kind === 'page' && (await withdraw(context, leased, site, disallowed))) || { outcome: 'disallowed', error: disallowed };
  }

  const crawlDelay = Math.min(rules.crawlDelayMs ?? 0, context.rt.env.WINNOW_MAX_CRAWL_DELAY_MS);
  if (rules.fetchedNow && crawlDelay > config.delayMs) await context.politeness.delayNext(leased.host, crawlDelay);
  const intervalMs = Math.max(config.delayMs, crawlDelay);
  context.rt.metrics.hostInterval.set({ host: leased.host }, intervalMs / 1000);
  // A robots.txt fetched just now took the host's slot: the page waits its turn behind it. Sent
  // back instead, it would find robots.txt due again whenever it is kept for less than the host's
  // interval, and no page would ever be fetched.
  const longestWaitMs = rules.fetchedNow ? LONGEST_SLOT_WAIT_MS + intervalMs : LONGEST_SLOT_WAIT_MS;
  const slot = await context.politeness.acquire(leased.host, { ...pace, intervalMs }, longestWaitMs);
  if ('retryInMs' in slot) return { retryInMs: slot.retryInMs, attempted: false };
  const rendered = leased.kind === 'page' && config.render === 'browser';
  try {
    // Every page the site has, however this crawl reached it, is fetched with its validators.
    const previous = leased.kind === 'page' && leased.known ? await previousFetch(context.rt.db, site.id, leased.url) : undefined;
    // The start is confirmed just before the request is sent: a browser takes hundreds of
    // milliseconds to open a page, and a start confirmed before that would bring the page's
    // request that much closer to the host's previous one.
    if (!rendered) await slot.started();
    const response = rendered ? await render(context, leased, site, slot, intervalMs) : await fetchOnce(context, leased.url, config, previous);
    held.fetched = { response, previous, rendered };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    held.fetched = { error };
  } finally {
    await slot.release();
  }
  return undefined;
}

/** What the host's answer (or the fetch's error) means for the URL, recorded. */
function settle(context: VisitContext, leased: LeasedUrl, site: Site, fetched: Fetched): Promise<Visit> {
  if ('error' in fetched) {
    const { error } = fetched;
    if (error.retriable) return retryOrFail(context, leased, site, error.message);
    return error.code === 'unreachable' || error.code === 'timeout' ? fail(context, leased, site, error.message) : refuse(context, leased, site, error.message);
  }
  const { response, previous, rendered } = fetched;
  if (leased.kind === 'sitemap') return readSitemapResponse(context, leased, site, response);
  return answer(context, leased, site, response, previous, { requestHeaders: rendered ? null : (response.requestHeaders ?? {}) });
}

/** robots.txt states a host can be in, as `winnow_host_robots_state` reports them. */
const ROBOTS_STATES = ['readable', 'unavailable', 'refused'] as const;

/** The host's robots.txt as this visit found it: read (rules, or none to read), unavailable for now, or a host the network policy refuses. */
function observeRobots(context: VisitContext, host: string, rules: RobotsRules): void {
  const state = rules.unavailable === null ? 'readable' : rules.unavailable.refused ? 'refused' : 'unavailable';
  for (const each of ROBOTS_STATES) context.rt.metrics.robots.set({ host, state: each }, each === state ? 1 : 0);
}

function fetchOnce(context: VisitContext, url: string, config: SiteConfig, previous: PreviousFetch | undefined): Promise<FetchedResponse> {
  const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' };
  if (previous?.contentHash && previous.etag) headers['if-none-match'] = previous.etag;
  if (previous?.contentHash && previous.lastModified) headers['if-modified-since'] = previous.lastModified;
  return context.fetcher.fetch({ url, allowPrivate: config.allowPrivateAddresses, headers });
}

/**
 * A page rendered in Chromium, every request of it fetched here. On a site that allows private
 * addresses, the page's documents may be on them (its navigations are held to the site's globs),
 * but its subresources only on the site's own origins (its seeds'): the site's scripts must not
 * reach every private host and port of the network. Public subresources (a CDN) stay allowed.
 * Every request the browser sends keeps the host's pace (`Politeness.paceStart`): on the page's
 * host its Crawl-delay, elsewhere the site's `delayMs`.
 */
async function render(context: VisitContext, leased: LeasedUrl, site: Site, slot: HostSlot, intervalMs: number): Promise<FetchedResponse> {
  const origins = siteOrigins(site.config);
  // The first request is the page's own, started on the visit's slot; every later one (its
  // subresources, its scripts' navigations, a redirect's next hop) waits its turn at its host.
  let slotUsed = false;
  const paced = async (url: string) => {
    if (!slotUsed) {
      slotUsed = true;
      return slot.started();
    }
    const host = hostKey(url);
    await context.politeness.paceStart(host, host === leased.host ? intervalMs : site.config.delayMs);
  };
  const rendered = await context.render({
    url: leased.url,
    fetch: async (url, headers, kind) => {
      await paced(url);
      return context.fetcher.fetch({
        url,
        allowPrivate: site.config.allowPrivateAddresses && (kind === 'document' || origins.has(new URL(url).origin)),
        headers,
      });
    },
    timeoutMs: context.rt.env.WINNOW_FETCH_TIMEOUT_MS,
  });
  if (rendered.status >= 300 && rendered.status < 400) return rendered;
  // Chromium serialises the DOM as UTF-8 whatever the page was sent in.
  return { ...rendered, headers: { ...rendered.headers, 'content-type': 'text/html; charset=utf-8' } };
}

async function answer(
  context: VisitContext,
  leased: LeasedUrl,
  site: Site,
  response: FetchedResponse,
  previous: PreviousFetch | undefined,
  capture: Capture | undefined,
): Promise<Visit> {
  const { status, headers } = response;
  const { rt } = context;
  if (status === 304 && previous) {
    // An unchanged page's links are followed from its stored body, as a changed page's are: they
    // may lead where an earlier crawl did not go (a larger maxPages, wider globs, a stopped crawl).
    const stored = leased.revisit ? undefined : await storedAnswer(rt.db, previous.pageId);
    const body = stored && (await loadBody(rt.bodies, stored.contentHash));
    if (stored && body && previous.contentHash) {
      const asStored = { url: leased.url, status: stored.status, headers: stored.headers, body };
      return answer(context, leased, site, asStored, previous, capture && { ...capture, notModified: response });
    }
    return unchanged(context, leased, previous, toArchive(context, leased, site, response, capture, 'not-modified'));
  }
  if (status >= 300 && status < 400 && headers.location) return moved(context, leased, site, response, previous);
  if (status === 429 || status === 503) {
    await context.politeness.backOff(leased.host, retryAfterMs(headers['retry-after']) ?? DEFAULT_BACKOFF_MS);
    rt.metrics.hostBackoffs.inc({ host: leased.host });
    return retryOrFail(context, leased, site, `HTTP ${status}`, response);
  }
  // Only a page with a body goes: one gone since an earlier crawl, still missing, is refused as
  // any 404 is (`record` keeps it gone), so that `gone` counts what left the index in this crawl.
  if ((status === 404 || status === 410) && previous?.contentHash) {
    return takeOut(context, leased, previous.pageId, status, `HTTP ${status}: the page is gone`, 'gone');
  }
  if (status >= 500) return retryOrFail(context, leased, site, `HTTP ${status}`, response);
  if (status < 200 || status >= 300) return refuse(context, leased, site, `HTTP ${status}`, response);
  let mediaType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  // A response that names no type is sniffed as a browser would; a declared type is authoritative.
  if (UNKNOWN_TYPES.has(mediaType) && sniffsAsHtml(response.body)) mediaType = 'text/html';
  if (!HTML_TYPES.has(mediaType)) return refuse(context, leased, site, `not HTML: ${mediaType || 'no content type'}`, response);
  if (response.body.length === 0) return refuse(context, leased, site, 'empty body', response);
  let html: string;
  try {
    html = decodeHtml(response.body, headers['content-type']).html;
  } catch (error) {
    return refuse(context, leased, site, (error as Error).message, response);
  }
  const page = readLinks(html, response.url);
  const rules = { config: site.config, trackingParams: context.trackingParams };
  const robotsHeader = (headers['x-robots-tag'] ?? '').toLowerCase();
  // A revisit (a page no link of this crawl reached) is not a way in: its links are not followed.
  if (!leased.revisit && !page.nofollow && !/\b(?:nofollow|none)\b/.test(robotsHeader)) {
    const links = foundEntries(page.links, leased.depth + 1, rules);
    await admit(context, leased, site, leased.depth < site.config.maxDepth ? links : beyondMaxDepth(links));
  }
  // The page's canonical URL (its own `<link rel="canonical">`, else the one its `Link` header
  // names) is the address its document belongs under (the indexer files this page as its duplicate
  // once it is stored): it is fetched, at this page's depth and whatever its nofollow, as a
  // redirect's target is, if the site's globs and trap guards admit it as a link.
  const named = page.canonical ?? headerCanonical(headers.link, response.url);
  const canonical = named && normalizeUrl(named, undefined, context.trackingParams);
  if (canonical && canonical !== leased.url) await admit(context, leased, site, foundEntries([canonical], leased.depth, rules));
  if (page.noindex || /\b(?:noindex|none)\b/.test(robotsHeader)) {
    const reason = 'the page asks not to be indexed (robots noindex)';
    if (!previous?.contentHash) return refuse(context, leased, site, reason, response);
    return takeOut(context, leased, previous.pageId, status, reason, 'gone');
  }
  if (previous && previous.contentHash === contentHash(response.body)) {
    return unchanged(context, leased, previous, toArchive(context, leased, site, response, capture, 'unchanged'));
  }
  const { pageId, contentHash: hash } = await storeFetchedPage(
    rt.db,
    {
      siteId: site.id,
      url: leased.url,
      crawlId: leased.crawlId,
      status,
      headers,
      contentType: headers['content-type'] ?? null,
      canonicalUrl: canonical,
    },
    response.body,
    toArchive(context, leased, site, response, capture, 'stored'),
  );
  await rt.queues.add('extract', { pageId }, { deduplication: { id: extractionJobId(pageId, hash) } });
  return { outcome: 'stored', pageId };
}

/**
 * What a fetch with a stored body stages for its WARC records when an object store keeps them
 * (`FetchToArchive`); undefined with Postgres bodies, or for a page answered from what a process
 * that died stored (its fetch is staged already). A 304 answered from the stored page is staged as
 * the 304 it was.
 */
function toArchive(
  context: VisitContext,
  leased: LeasedUrl,
  site: Site,
  response: FetchedResponse,
  capture: Capture | undefined,
  kind: FetchKind,
): FetchToArchive | undefined {
  if (!capture || context.rt.bodies.kind !== 'object-store') return undefined;
  const fetched = capture.notModified ?? response;
  const coding = fetched.headers['content-encoding'];
  return {
    kind: capture.notModified ? 'not-modified' : kind,
    status: fetched.status,
    responseHeaders: fetched.headers,
    requestHeaders: capture.requestHeaders,
    metadata: {
      site: site.name,
      crawl: String(leased.crawlId),
      depth: String(leased.depth),
      ...(coding ? { 'decoded-content-encoding': coding } : {}),
      ...(capture.requestHeaders === null ? { 'rendered-by': 'chromium' } : {}),
    },
  };
}

async function unchanged(context: VisitContext, leased: LeasedUrl, previous: PreviousFetch, archive: FetchToArchive | undefined): Promise<Visit> {
  await touchPage(context.rt.db, previous.pageId, leased.crawlId, archive);
  // A body stored before but never extracted (its job was lost with a Redis that kept nothing) is extracted now.
  if (!previous.extracted && previous.contentHash) {
    await context.rt.queues.add('extract', { pageId: previous.pageId }, { deduplication: { id: extractionJobId(previous.pageId, previous.contentHash) } });
  }
  return { outcome: 'unchanged', pageId: previous.pageId };
}

async function moved(context: VisitContext, leased: LeasedUrl, site: Site, response: FetchedResponse, previous: PreviousFetch | undefined): Promise<Visit> {
  const target = normalizeUrl(response.headers.location as string, response.url, context.trackingParams);
  const why =
    target === null
      ? 'not an http(s) URL'
      : (refusedLink(target, site.config)?.why ?? refusedHost(new URL(target).hostname, site.config.allowPrivateAddresses));
  if (why || target === null) return refuse(context, leased, site, `redirect to ${response.headers.location} refused: ${why}`, response);
  if (leased.revisit && previous?.contentHash) {
    // A stored page no link reached that moved is replaced by its target: a revisit in its place,
    // outside the crawl's budgets as the page was (links may have filled maxPages), and one step
    // only: the replacement is no stored page, so where it redirects is a new URL like any other.
    // Admitted past this process's cache of offered URLs, which may hold it as over a budget.
    await admitFound(context.rt.db, leased.crawlId, site, { entries: [frontierEntry(target, leased.depth, 'page', true)], refused: [] });
  } else await admit(context, leased, site, { entries: [frontierEntry(target, leased.depth)], refused: [] });
  const reason = `HTTP ${response.status}: moved to ${target}`;
  if (previous?.contentHash) return takeOut(context, leased, previous.pageId, response.status, reason, 'moved');
  const pageId = await record(context, leased, site, reason, response);
  return { outcome: 'moved', error: reason, pageId };
}

/**
 * A sitemap's pages join the crawl (at depth 0, held to `maxPages` like any page), and so do the
 * sitemaps of an index, one level deep as sitemaps.org allows: a sitemap's depth is how many
 * indexes led to it, and an index listed by an index is refused, with the reason in the crawl log.
 * With the crawl's `maxSitemaps`, a site whose sitemaps list ever more sitemaps cannot keep a crawl
 * going for ever.
 */
async function readSitemapResponse(context: VisitContext, leased: LeasedUrl, site: Site, response: FetchedResponse): Promise<Visit> {
  if (response.status < 200 || response.status >= 300) return { outcome: 'refused', error: `sitemap answered HTTP ${response.status}` };
  let listed: ReturnType<typeof readSitemap>;
  try {
    listed = readSitemap(response.body, response.url, context.rt.env.WINNOW_MAX_PAGE_BYTES);
  } catch (error) {
    return { outcome: 'refused', error: `unreadable sitemap: ${(error as Error).message}` };
  }
  const pages = foundEntries(listed.pages, 0, { config: site.config, trackingParams: context.trackingParams });
  const nested = leased.depth > 0 && listed.sitemaps.length > 0;
  const sitemaps = sitemapsFound(context, site, nested ? [] : listed.sitemaps, leased.depth + 1);
  await admit(context, leased, site, { entries: [...pages.entries, ...sitemaps.entries], refused: [...pages.refused, ...sitemaps.refused] });
  if (nested) {
    return {
      outcome: 'refused',
      error: `a sitemap index listed by a sitemap index: its ${listed.sitemaps.length} sitemaps are not followed (sitemaps.org allows one level of indexes)`,
    };
  }
  return { outcome: 'read' };
}

/**
 * Sitemaps named by robots.txt or listed by a sitemap index that may join the crawl at `depth`: on
 * the site's own origins (its seeds', as `/sitemap.xml`), and not crawler traps; the others are
 * refused, counted in the crawl log. A sitemap elsewhere would make the site's files send the
 * crawler to any host. The site's globs are not applied: sitemaps conventionally sit at the
 * origin's root, outside globs that narrow a site to a section, and the pages they list are held
 * to the globs. A location that is not an http(s) URL names nothing to fetch.
 */
function sitemapsFound(context: VisitContext, site: Site, sitemaps: readonly string[], depth: number): Found {
  const origins = siteOrigins(site.config);
  const found: Found = { entries: [], refused: [] };
  for (const sitemap of sitemaps) {
    const url = normalizeUrl(sitemap, undefined, context.trackingParams);
    if (url === null) continue;
    if (!origins.has(new URL(url).origin)) found.refused.push({ url, reason: 'sitemap-elsewhere' });
    else if (trapReason(url)) found.refused.push({ url, reason: 'trap' });
    else found.entries.push(frontierEntry(url, depth, 'sitemap'));
  }
  return found;
}

/**
 * Admits what a page or a sitemap led to, and counts what was refused (`admitFound`), leaving out
 * what this process has already offered to the crawl: most links of a page are in the frontier
 * already and need no round trip, and a refused link on every page of a site is counted once, not
 * once a page. What a visit offers is claimed before it is written, so that visits running at once
 * never count a URL twice, and given back if writing fails (the visit is tried again). (The
 * database admits each URL once anyway; across processes a URL not admitted may be counted once
 * by each.)
 */
async function admit(context: VisitContext, leased: LeasedUrl, site: Site, found: Found): Promise<void> {
  const seen = context.admitted(leased.crawlId);
  // A refusal is remembered with its reason: a URL refused now may be admitted once the site's globs change.
  const refusalKey = ({ url, reason }: Found['refused'][number]) => `${reason} ${url}`;
  const entries = found.entries.filter((entry) => !seen.has(entry.url));
  const refused = found.refused.filter((refusal) => !seen.has(refusalKey(refusal)));
  if (entries.length + refused.length === 0) return;
  const claimed = [...entries.map((entry) => entry.url), ...refused.map(refusalKey)];
  for (const key of claimed) seen.add(key);
  try {
    await admitFound(context.rt.db, leased.crawlId, site, { entries, refused });
  } catch (error) {
    for (const key of claimed) seen.delete(key);
    throw error;
  }
}

async function retryOrFail(context: VisitContext, leased: LeasedUrl, site: Site, reason: string, response?: FetchedResponse): Promise<Visit> {
  if (leased.attempts + 1 < MAX_ATTEMPTS) return { retryInMs: 1000 * 4 ** leased.attempts, attempted: true };
  return fail(context, leased, site, reason, response);
}

async function fail(context: VisitContext, leased: LeasedUrl, site: Site, reason: string, response?: FetchedResponse): Promise<Visit> {
  const error = response ? reason : `fetch failed: ${reason}`;
  const pageId = leased.kind === 'page' ? await record(context, leased, site, error, response) : undefined;
  return { outcome: 'failed', error, ...(pageId === undefined ? {} : { pageId }) };
}

/**
 * A stored page the site's rules now keep out (globs narrowed, robots.txt disallowing it) leaves
 * the index, as a gone page does, with the reason in the crawl log; it is not fetched. Undefined
 * when the site has no body for this URL, which is then refused or disallowed as any URL is.
 */
async function withdraw(context: VisitContext, leased: LeasedUrl, site: Site, reason: string): Promise<Visit | undefined> {
  const previous = leased.known ? await previousFetch(context.rt.db, site.id, leased.url) : undefined;
  if (!previous?.contentHash) return undefined;
  return takeOut(context, leased, previous.pageId, null, `${reason}: removed from the index`, 'gone');
}

/** Takes a stored page out of the index: it is marked gone with why (its log entry says so too) and indexed again, which removes it. */
async function takeOut(
  context: VisitContext,
  leased: LeasedUrl,
  pageId: number,
  status: number | null,
  reason: string,
  outcome: 'gone' | 'moved',
): Promise<Visit> {
  await markPageGone(context.rt.db, pageId, leased.crawlId, status, reason);
  await context.rt.queues.add('index', { pageId });
  return { outcome, error: reason, pageId };
}

async function refuse(context: VisitContext, leased: LeasedUrl, site: Site, reason: string, response?: FetchedResponse): Promise<Visit> {
  const pageId = leased.kind === 'page' ? await record(context, leased, site, reason, response) : undefined;
  return { outcome: 'refused', error: reason, ...(pageId === undefined ? {} : { pageId }) };
}

/**
 * A response that was not stored (or no response), recorded against its URL with the reason. A
 * page that has a body from an earlier fetch keeps it: a server failing for a while, or answering
 * 403 today, does not take a page out of the index (404, 410 and noindex do). A page already gone
 * stays gone.
 */
async function record(context: VisitContext, leased: LeasedUrl, site: Site, reason: string, response?: FetchedResponse): Promise<number> {
  const previous = leased.known ? await previousFetch(context.rt.db, site.id, leased.url) : undefined;
  if (previous?.contentHash) return previous.pageId;
  // A page an earlier crawl found gone (removed, moved) stays gone, with what this fetch found.
  if (previous?.gone) {
    if (response) await markPageGone(context.rt.db, previous.pageId, leased.crawlId, response.status, reason);
    else await touchPage(context.rt.db, previous.pageId, leased.crawlId);
    return previous.pageId;
  }
  return upsertFetchedPage(context.rt.db, {
    siteId: site.id,
    url: leased.url,
    crawlId: leased.crawlId,
    status: response?.status ?? null,
    headers: response?.headers ?? {},
    contentType: response?.headers['content-type'] ?? null,
    contentHash: null,
    fetchError: reason,
  });
}
