import { parseSiteConfig, type SiteConfig } from '@winnow/config';
import { parseQuery, type SearchResponse } from '@winnow/search';
import {
  activeCrawl,
  deleteSite,
  findSite,
  insertCrawl,
  insertSite,
  latestCrawl,
  listPageFailures,
  listSites,
  requestCrawlStop,
  siteCounts,
  updateSiteConfig,
  type Crawl,
  type PageFailure,
  type Site,
  type SiteCounts,
} from '@winnow/storage';
import { QUEUE_NAMES, type FailedJob, type QueueCounts, type QueueName } from '@winnow/queue';
import type { Runtime } from './runtime.js';

/**
 * What operators and the search engine can ask of the pipeline, shared by the HTTP API and the
 * CLI so that both validate and act the same way.
 */

export class SiteNotFoundError extends Error {
  override readonly name = 'SiteNotFoundError';
}

export async function requireSite(rt: Runtime, name: string): Promise<Site> {
  const site = await findSite(rt.db, name);
  if (!site) throw new SiteNotFoundError(`no site named "${name}"`);
  return site;
}

/** The BullMQ job scheduler id of a site's template schedule. */
export function templateScheduleId(siteId: number): string {
  return `template-schedule-${siteId}`;
}

/** Registers (or removes, when the interval is 0) the site's periodic template preparation. */
export async function syncTemplateSchedule(rt: Runtime, site: Site): Promise<void> {
  const queue = rt.queues.queue('template');
  if (site.config.templateEveryMs > 0) {
    await queue.upsertJobScheduler(templateScheduleId(site.id), { every: site.config.templateEveryMs }, { name: 'template', data: { siteId: site.id, reason: 'schedule' } });
  } else {
    await queue.removeJobScheduler(templateScheduleId(site.id));
  }
}

export async function addSite(rt: Runtime, input: unknown): Promise<Site> {
  const site = await insertSite(rt.db, parseSiteConfig(input));
  await syncTemplateSchedule(rt, site);
  return site;
}

export async function replaceSite(rt: Runtime, name: string, input: unknown): Promise<Site> {
  const config: SiteConfig = parseSiteConfig({ ...(typeof input === 'object' && input !== null ? input : {}), name });
  const site = await updateSiteConfig(rt.db, name, config);
  if (!site) throw new SiteNotFoundError(`no site named "${name}"`);
  await syncTemplateSchedule(rt, site);
  return site;
}

/** Removes a site, its stored pages, templates, extractions, index documents and schedule. */
export async function removeSite(rt: Runtime, name: string): Promise<void> {
  const site = await requireSite(rt, name);
  await rt.queues.queue('template').removeJobScheduler(templateScheduleId(site.id));
  await rt.search.removeSite(name);
  await deleteSite(rt.db, name);
}

export { listSites };

export async function startCrawl(rt: Runtime, name: string): Promise<Crawl> {
  const site = await requireSite(rt, name);
  const crawl = await insertCrawl(rt.db, site.id);
  await rt.queues.add('crawl', { crawlId: crawl.id });
  return crawl;
}

export async function stopCrawl(rt: Runtime, name: string): Promise<Crawl | undefined> {
  const site = await requireSite(rt, name);
  const crawl = await activeCrawl(rt.db, site.id);
  if (crawl) await requestCrawlStop(rt.db, crawl.id);
  return crawl && { ...crawl, state: 'stopping' };
}

export async function crawlStatus(rt: Runtime, name: string): Promise<Crawl | undefined> {
  const site = await requireSite(rt, name);
  return latestCrawl(rt.db, site.id);
}

export async function requestTemplates(rt: Runtime, name: string): Promise<Site> {
  const site = await requireSite(rt, name);
  await rt.queues.add('template', { siteId: site.id, reason: 'manual' });
  return site;
}

export interface SearchParams {
  q: unknown;
  site?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

export const MAX_PAGE_SIZE = 100;

export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

/** Runs a search; `page` counts from 1. Bad queries throw `QueryError`, bad paging `InvalidRequestError`. */
export async function search(rt: Runtime, params: SearchParams): Promise<SearchResponse & { page: number; size: number }> {
  const query = parseQuery(params.q);
  const page = params.page ?? 1;
  const size = params.size ?? 10;
  if (!Number.isInteger(page) || page < 1 || page > 1000) throw new InvalidRequestError('page must be an integer from 1 to 1000');
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw new InvalidRequestError(`size must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  if (params.site !== undefined) await requireSite(rt, params.site);
  const response = await rt.search.search({ query, site: params.site, offset: (page - 1) * size, limit: size });
  return { ...response, page, size };
}

export interface SiteStatus extends SiteCounts {
  indexed: number;
  crawl: Crawl | undefined;
}

export interface PipelineStatus {
  sites: SiteStatus[];
  queues: Record<QueueName, QueueCounts>;
  failedJobs: FailedJob[];
  failedPages: PageFailure[];
}

export async function pipelineStatus(rt: Runtime): Promise<PipelineStatus> {
  const [counts, sites, queues, failedJobs, failedPages] = await Promise.all([siteCounts(rt.db), listSites(rt.db), rt.queues.counts(), rt.queues.failedJobs(), listPageFailures(rt.db)]);
  const siteStatus = await Promise.all(
    counts.map(async (count) => {
      const site = sites.find((candidate) => candidate.name === count.site);
      return { ...count, indexed: await rt.search.count(count.site), crawl: site && (await latestCrawl(rt.db, site.id)) };
    }),
  );
  return { sites: siteStatus, queues, failedJobs, failedPages };
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
