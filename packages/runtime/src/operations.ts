import { MAX_PAGE_SIZE, MIN_SCHEDULE_MS, parseSiteConfig, SITE_NAME, type SiteConfig, SiteConfigError, WinnowError } from '@winnow/config';
import { MAX_RESULT_WINDOW, parseQuery, type SearchHit } from '@winnow/search';
import {
  archiveTotals,
  type ArchiveTotals,
  activeCrawl,
  changeSiteConfig,
  crawlLog as readCrawlLog,
  deleteSite,
  findCrawl,
  findSite,
  insertCrawl,
  insertSite,
  latestCrawl,
  latestReconcilerRun,
  listPageFailures,
  listSiteNames,
  listSites,
  CRAWL_LOG_OUTCOMES,
  notAdmitted,
  pagesStoodFor,
  requestCrawlStop,
  siteCounts,
  updateSiteConfig,
  type Crawl,
  type CrawlLogEntry,
  type NotAdmitted,
  type CrawlLogOutcome,
  type PageFailure,
  type ReconcilerRun,
  type Site,
  type SiteCounts,
  type StoodFor,
  stoodForKey,
} from '@winnow/storage';
import type { FailedJob, QueueCounts } from '@winnow/queue';
// The contracts alone: BullMQ loads only where the queues are opened (`openRuntime`).
import { QUEUE_NAMES, type QueueName } from '@winnow/queue/contracts';
import { isObject, mergePatch } from './mergePatch.js';
import type { Runtime } from './runtime.js';

/**
 * What operators and the search engine can ask of the pipeline, shared by the HTTP API and the
 * CLI so that both validate and act the same way.
 */

export class SiteNotFoundError extends WinnowError {
  override readonly name = 'SiteNotFoundError';
  constructor(message: string) {
    super('not-found', message);
  }
}

/**
 * A site name as it enters an operation: one that cannot be a site's (`SITE_NAME`: wrong
 * characters, a NUL byte, surrounding spaces, too long) names no site, and is answered as such
 * before it reaches a query.
 */
function siteName(name: unknown): string {
  const parsed = SITE_NAME.safeParse(name);
  if (!parsed.success || parsed.data !== name) throw new SiteNotFoundError(`no site named ${quoted(name)}`);
  return parsed.data;
}

/** A name for a message: JSON-quoted (control characters escaped) and cut to 100 characters. */
export function quoted(name: unknown): string {
  const text = String(name);
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

export async function requireSite(rt: Runtime, name: string): Promise<Site> {
  const site = await findSite(rt.db, siteName(name));
  if (!site) throw new SiteNotFoundError(`no site named ${quoted(name)}`);
  return site;
}

/**
 * The site a listing or a lookup is narrowed to (`site=`, `--site`), or none for every site. An
 * empty name is a mistake (a blank form field, `--site ''`), not "every site" nor a site named "".
 */
export async function siteFilter(rt: Runtime, name: string | undefined): Promise<Site | undefined> {
  if (name === undefined) return undefined;
  if (name === '') throw new InvalidRequestError('site must not be empty: leave it out for every site');
  return requireSite(rt, name);
}

/** The BullMQ job scheduler id of a site's template schedule. */
export function templateScheduleId(siteId: number): string {
  return `template-schedule-${siteId}`;
}

/** The BullMQ job scheduler id of a site's recrawl schedule. */
export function recrawlScheduleId(siteId: number): string {
  return `recrawl-schedule-${siteId}`;
}

/**
 * Registers (or removes, when their interval is 0) the site's periodic template preparation and
 * recrawl, as BullMQ job schedulers. The site's settings in Postgres are the truth, Redis holds
 * only the timers: the reconciler calls this again for a site whose schedule Redis lost
 * (`reconcile`), at every worker's start and every `WINNOW_RECONCILE_EVERY_MS`. A new schedule first fires one interval from now, not at once as
 * BullMQ's `every` would: otherwise every process start on a fresh Redis (every command of the
 * embedded default) prepared every site's templates again, and started its recrawl. An existing
 * schedule keeps its next time. One shorter than `MIN_SCHEDULE_MS`, which an earlier version stored
 * (the site's `configProblem` names it), stays off until the site is fixed: BullMQ would run it
 * back to back.
 */
export async function syncSchedules(rt: Runtime, site: Site): Promise<void> {
  // No queues here (an embedded command that runs no workers): the reconciler of the next process that runs them registers the schedules.
  if (!rt.queuesOpen) return;
  const schedules = [
    { queue: rt.queues.queue('template'), id: templateScheduleId(site.id), every: site.config.templateEveryMs, name: 'template' },
    { queue: rt.queues.queue('crawl'), id: recrawlScheduleId(site.id), every: site.config.recrawlEveryMs, name: 'crawl' },
  ] as const;
  for (const { queue, id, every, name } of schedules) {
    if (every >= MIN_SCHEDULE_MS)
      await queue.upsertJobScheduler(id, { every, startDate: Date.now() + every }, { name, data: { siteId: site.id, reason: 'schedule' } });
    else await queue.removeJobScheduler(id);
  }
}

/** A request to add or change a site must carry its settings: without them it is told so, not that `undefined` is no object. */
function requireSettings(input: unknown): void {
  if (input === undefined) throw new InvalidRequestError("this request needs a JSON body: the site's settings");
}

export async function addSite(rt: Runtime, input: unknown): Promise<Site> {
  requireSettings(input);
  const site = await insertSite(rt.db, parseSiteConfig(input));
  await syncSchedules(rt, site);
  return site;
}

/** Replaces a site's whole configuration: what the body leaves out gets its default. */
export async function replaceSite(rt: Runtime, name: string, input: unknown): Promise<Site> {
  siteName(name);
  // An unknown site is a 404 before a missing body is a 400.
  if (input === undefined) await requireSite(rt, name);
  requireSettings(input);
  const body = isObject(input) ? input : {};
  refuseRename(name, body);
  const config: SiteConfig = parseSiteConfig({ ...body, name });
  const site = await updateSiteConfig(rt.db, name, config);
  if (!site) throw new SiteNotFoundError(`no site named ${quoted(name)}`);
  await syncSchedules(rt, site);
  return site;
}

/**
 * Changes some of a site's settings: `patch` is a JSON merge patch (RFC 7396) of its stored
 * configuration, so the keys it holds replace theirs and a `null` removes one, which then gets its
 * default (the seeds have none: they can be replaced, not reset). The merged configuration is validated by the one schema as a new one would be, and
 * stored under a lock on the site's row (two patches at once both apply); its schedules follow, as
 * `replaceSite`'s do. An operator changes `maxPages` without restating the seeds.
 */
export async function updateSite(rt: Runtime, name: string, patch: unknown): Promise<Site> {
  await requireSite(rt, name);
  requireSettings(patch);
  if (!isObject(patch)) throw new InvalidRequestError("a site's patch must be a JSON object of the settings to change (null resets one to its default)");
  refuseRename(name, patch);
  // A null resets a setting to its default; the seeds have none, and the schema would only say they are missing.
  if (patch.seeds === null) {
    throw new SiteConfigError('invalid site configuration: seeds: cannot be reset: a site needs at least one seed URL (give the seeds that replace them)');
  }
  const site = await changeSiteConfig(rt.db, name, (config) => parseSiteConfig(mergePatch(config, patch)));
  if (!site) throw new SiteNotFoundError(`no site named ${quoted(name)}`); // removed since it was found
  await syncSchedules(rt, site);
  return site;
}

/** A body that names another site than its path: a site keeps its name (its pages, documents and jobs are filed under it). */
function refuseRename(name: string, body: Record<string, unknown>): void {
  if ('name' in body && body.name !== name) {
    throw new InvalidRequestError(
      `the body names the site ${quoted(body.name)} and the path ${quoted(name)}: a site cannot be renamed (add it under the new name and remove the old one)`,
    );
  }
}

/**
 * Removes a site: its schedules, its row with its crawls, pages, templates and
 * extractions, then its index documents. The row goes first: the site's queued jobs then drain
 * as skips (their pages are gone), searches stop returning its documents at once, and the
 * indexer removes whatever a batch in flight writes afterwards (`indexPages` in
 * services/indexer). Should removing the documents fail, removing the site again finishes it: a
 * name without a site but with documents is removed, not refused.
 */
export async function removeSite(rt: Runtime, name: string): Promise<RemovedSite> {
  const site = await findSite(rt.db, siteName(name));
  const documents = await rt.search.count(name);
  let removed: RemovedSite = { site: name, crawls: 0, pages: 0, templateVersions: 0, templates: 0, documents };
  if (site) {
    const [held] = await rt.db.query<{ crawls: number; pages: number; versions: number; templates: number }>(
      `SELECT (SELECT count(*) FROM crawls WHERE site_id = $1)::int AS crawls, (SELECT count(*) FROM pages WHERE site_id = $1)::int AS pages,
              (SELECT count(DISTINCT version) FROM templates WHERE site_id = $1)::int AS versions, (SELECT count(*) FROM templates WHERE site_id = $1)::int AS templates`,
      [site.id],
    );
    removed = { ...removed, crawls: held?.crawls ?? 0, pages: held?.pages ?? 0, templateVersions: held?.versions ?? 0, templates: held?.templates ?? 0 };
    // Without queues here, no Redis holds the site's schedules (see `syncSchedules`).
    if (rt.queuesOpen) {
      await rt.queues.queue('template').removeJobScheduler(templateScheduleId(site.id));
      await rt.queues.queue('crawl').removeJobScheduler(recrawlScheduleId(site.id));
    }
    await deleteSite(rt.db, name);
  } else if (documents === 0) {
    throw new SiteNotFoundError(`no site named ${quoted(name)}`);
  }
  await rt.search.removeSite(name);
  return removed;
}

/** What removing a site took away with it, counted just before. */
export interface RemovedSite {
  site: string;
  crawls: number;
  /** Its pages, stored or not (each with its extraction, if any). */
  pages: number;
  templateVersions: number;
  /** Templates over every version (one per page type and version). */
  templates: number;
  /** Its documents in the search index. */
  documents: number;
}

export { listSites };

/** Records a crawl of the site; crawler processes admit its seeds and share its frontier. */
export async function startCrawl(rt: Runtime, name: string): Promise<Crawl> {
  const site = await requireSite(rt, name);
  return insertCrawl(rt.db, site.id);
}

/** Stops the site's crawl: at once if no crawler is fetching for it, else once the URLs in flight are done. */
export async function stopCrawl(rt: Runtime, name: string): Promise<Crawl | undefined> {
  const site = await requireSite(rt, name);
  const crawl = await activeCrawl(rt.db, site.id);
  return crawl && requestCrawlStop(rt.db, crawl.id);
}

/** The site's crawl that is queued, running or stopping, if any. */
export async function openCrawl(rt: Runtime, name: string): Promise<Crawl | undefined> {
  const site = await requireSite(rt, name);
  return activeCrawl(rt.db, site.id);
}

export async function crawlStatus(rt: Runtime, name: string): Promise<Crawl | undefined> {
  const site = await requireSite(rt, name);
  return latestCrawl(rt.db, site.id);
}

export interface CrawlLogParams {
  /** Outcomes to list (`CRAWL_LOG_OUTCOMES`); every one when absent or empty. */
  outcomes?: readonly string[] | undefined;
  /** Only this crawl of the site; every crawl when absent. */
  crawl?: number | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** One page of a site's crawl log, with what was asked (so that a reader knows what it is a page of). */
export interface CrawlLogPage {
  site: string;
  crawl: number | null;
  outcomes: CrawlLogOutcome[];
  page: number;
  size: number;
  total: number;
  entries: CrawlLogEntry[];
  /** The URLs the crawl asked for (else the site's latest) found and did not admit, counted by reason: they have no entries. */
  notAdmitted: NotAdmitted[];
}

export const CRAWL_LOG_PAGE_SIZE = 50;

/**
 * The site's URLs that were not stored — moved, gone, refused, disallowed, failed, cancelled —
 * with the crawler's reason, and the URLs a crawl fetched that the indexer filed under another
 * page (`duplicate`, with that page's URL), newest crawl first; `page` counts from 1. The outcomes are the
 * names of a crawl's counts, so a count and its URLs always agree. Beside them, what one crawl
 * (the one asked for, else the latest) found and never admitted, counted by reason with a few
 * examples (links outside the site's globs, URLs over a budget…): a crawl keeps no row per such URL.
 */
export async function crawlLog(rt: Runtime, name: string, params: CrawlLogParams = {}): Promise<CrawlLogPage> {
  const site = await requireSite(rt, name);
  const outcomes = params.outcomes?.length ? [...new Set(params.outcomes)] : [...CRAWL_LOG_OUTCOMES];
  for (const outcome of outcomes) {
    if (!(CRAWL_LOG_OUTCOMES as readonly string[]).includes(outcome)) {
      throw new InvalidRequestError(`unknown outcome ${quoted(outcome)}; the crawl log lists: ${CRAWL_LOG_OUTCOMES.join(', ')}`);
    }
  }
  const { page, size } = paging(params, CRAWL_LOG_PAGE_SIZE);
  if (params.crawl !== undefined) {
    if (!Number.isInteger(params.crawl) || params.crawl < 1) throw new InvalidRequestError('crawl must be a positive integer');
    if ((await findCrawl(rt.db, params.crawl))?.siteId !== site.id) throw new SiteNotFoundError(`${site.name} has no crawl ${params.crawl}`);
  }
  const { total, entries } = await readCrawlLog(rt.db, site.id, {
    outcomes: outcomes as CrawlLogOutcome[],
    crawlId: params.crawl,
    offset: (page - 1) * size,
    limit: size,
  });
  const counted = params.crawl ?? (await latestCrawl(rt.db, site.id))?.id;
  const skipped = counted === undefined ? [] : await notAdmitted(rt.db, counted);
  return { site: site.name, crawl: params.crawl ?? null, outcomes: outcomes as CrawlLogOutcome[], page, size, total, entries, notAdmitted: skipped };
}

export interface SearchParams {
  q: unknown;
  site?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

export { MAX_PAGE_SIZE };

/** A listing's page (from 1) and page size (1 to `MAX_PAGE_SIZE`), checked once for every listing. */
export function paging(params: { page?: number | undefined; size?: number | undefined }, defaultSize: number): { page: number; size: number } {
  const page = params.page ?? 1;
  const size = params.size ?? defaultSize;
  if (!Number.isInteger(page) || page < 1) throw new InvalidRequestError('page must be a positive integer');
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw new InvalidRequestError(`size must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  return { page, size };
}

export class InvalidRequestError extends WinnowError {
  override readonly name = 'InvalidRequestError';
  constructor(message: string) {
    super('invalid-input', message);
  }
}

/** How many of the URLs a hit stands for (`alsoAt`) it lists; `alsoAtTotal` counts them all. */
export const MAX_ALSO_AT = 20;

/**
 * A search hit, with the other URLs of its site that its document stands for: a byte-identical
 * copy or a page naming it canonical is indexed once, under this hit's URL.
 */
export interface SearchResultHit extends SearchHit {
  alsoAt: string[];
  alsoAtTotal: number;
}

export interface SearchResult {
  total: number;
  /** `gte`: at least `total` documents match (counting stops at `MAX_RESULT_WINDOW`); `eq`: exactly. */
  totalRelation: 'eq' | 'gte';
  hits: SearchResultHit[];
  page: number;
  size: number;
}

/**
 * Runs a search; `page` counts from 1. Bad queries throw `QueryError`, bad paging
 * `InvalidRequestError`: results are paged no deeper than `MAX_RESULT_WINDOW` in either index, so
 * that paging never depends on which index answers. Only documents of sites that exist answer.
 */
export async function search(rt: Runtime, params: SearchParams): Promise<SearchResult> {
  const query = parseQuery(params.q);
  const { page, size } = paging(params, 10);
  if (page * size > MAX_RESULT_WINDOW) {
    throw new InvalidRequestError(
      `page ${page} of size ${size} would end at result ${page * size}: only the first ${MAX_RESULT_WINDOW} results can be paged through; narrow the query`,
    );
  }
  const site = await siteFilter(rt, params.site);
  const sites = site ? [site.name] : await listSiteNames(rt.db);
  const response = await rt.search.search({ query, sites, offset: (page - 1) * size, limit: size });
  const stoodFor = await pagesStoodFor(rt.db, response.hits, MAX_ALSO_AT);
  const none: StoodFor = { urls: [], total: 0 };
  const hits = response.hits.map((hit) => {
    const { urls, total } = stoodFor.get(stoodForKey(hit)) ?? none;
    return { ...hit, alsoAt: urls, alsoAtTotal: total };
  });
  return { total: response.total, totalRelation: response.totalRelation, hits, page, size };
}

export interface SiteStatus extends SiteCounts {
  indexed: number;
  crawl: Crawl | undefined;
  /** What the latest crawl found and did not admit, counted by reason (see `crawlLog`). */
  notAdmitted: NotAdmitted[];
}

export interface PipelineStatus {
  sites: SiteStatus[];
  queues: Record<QueueName, QueueCounts>;
  failedJobs: FailedJob[];
  failedPages: PageFailure[];
  /** The object store's WARC files and the fetches staged in Postgres for it; null when bodies stay in Postgres. */
  archive: ArchiveTotals | null;
  /** The reconciler's latest run: what it found out of step and queued, by kind (`reconcile`); null before its first. */
  reconciler: ReconcilerRun | null;
}

/**
 * The pipeline's status. Queues that are not open here (an embedded command that runs no workers)
 * are reported idle: no process runs an embedded pipeline's queues while this one holds its
 * database, and a private Redis started only to be read would be empty.
 */
export async function pipelineStatus(rt: Runtime): Promise<PipelineStatus> {
  const [counts, sites, queues, failedJobs, failedPages, archive, reconciler] = await Promise.all([
    siteCounts(rt.db),
    listSites(rt.db),
    rt.queuesOpen ? rt.queues.counts() : idleQueues(),
    rt.queuesOpen ? rt.queues.failedJobs() : [],
    listPageFailures(rt.db),
    rt.archive ? archiveTotals(rt.db) : null,
    latestReconcilerRun(rt.db),
  ]);
  const siteStatus = await Promise.all(
    counts.map(async (count) => {
      const site = sites.find((candidate) => candidate.name === count.site);
      const crawl = site && (await latestCrawl(rt.db, site.id));
      return { ...count, indexed: await rt.search.count(count.site), crawl, notAdmitted: crawl ? await notAdmitted(rt.db, crawl.id) : [] };
    }),
  );
  return { sites: siteStatus, queues, failedJobs, failedPages, archive, reconciler: reconciler ?? null };
}

function idleQueues(): Record<QueueName, QueueCounts> {
  return Object.fromEntries(QUEUE_NAMES.map((name) => [name, { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 }])) as Record<
    QueueName,
    QueueCounts
  >;
}

/** True when no crawl is queued or running and no queue holds waiting, active or delayed work. */
export async function isIdle(rt: Runtime): Promise<boolean> {
  const sites = await listSites(rt.db);
  for (const site of sites) if (await activeCrawl(rt.db, site.id)) return false;
  const counts = await rt.queues.counts();
  return Object.values(counts).every((count) => count.waiting + count.active === 0) && (await nonScheduledDelayed(rt)) === 0;
}

/** Delayed jobs other than the next run of each template schedule (those are always there). */
async function nonScheduledDelayed(rt: Runtime): Promise<number> {
  let delayed = 0;
  for (const name of QUEUE_NAMES) delayed += (await rt.queues.queue(name).getDelayed()).filter((job) => !job.repeatJobKey).length;
  return delayed;
}

/** Waits until the pipeline is idle twice in a row (work in flight may enqueue more). */
export async function waitForIdle(rt: Runtime, onTick?: () => Promise<void>, pollMs = 200): Promise<void> {
  let idleChecks = 0;
  while (idleChecks < 2) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    await onTick?.();
    idleChecks = (await isIdle(rt)) ? idleChecks + 1 : 0;
  }
}
