import { TEMPLATE_JOB_RESULT, type TemplateJobResult } from '@winnow/queue/contracts';
import { WinnowError } from '@winnow/config';
import { hasStoredPages, type HealthRecord, listTemplates, type Site, siteHealthHistory, type TemplateSummary } from '@winnow/storage';
import { InvalidRequestError, paging, quoted, requireSite, SiteNotFoundError, siteFilter } from './operations.js';
import type { Runtime } from './runtime.js';

/**
 * What an analyst asks of a site's templates: the stored versions, their page types' health over
 * time, a preparation now and how it went.
 */

/** The stored templates, newest version first; of one site when `name` is given (an unknown name is refused). */
export async function siteTemplates(rt: Runtime, name?: string): Promise<TemplateSummary[]> {
  await siteFilter(rt, name);
  return listTemplates(rt.db, name);
}

export interface HealthHistoryParams {
  /** Only records measured at or after this time: an ISO 8601 date (`2026-05-01`, midnight UTC) or time with its zone (`2026-05-01T12:00:00Z`). */
  since?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** One page of a site's health records, with what was asked (so that a reader knows what it is a page of). */
export interface HealthHistoryPage {
  site: string;
  /** The `since` asked for, as an ISO 8601 time; null for every record. */
  since: string | null;
  page: number;
  size: number;
  total: number;
  entries: HealthRecord[];
}

export const HEALTH_PAGE_SIZE = 50;

/** A date, or a date and time with its zone: a time without one would be read in whatever zone the server runs. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

function sinceTime(since: string): Date {
  const time = ISO_TIME.test(since) ? new Date(since) : undefined;
  if (!time || Number.isNaN(time.getTime())) {
    throw new InvalidRequestError(`since must be an ISO 8601 date (2026-05-01) or time with its zone (2026-05-01T12:00:00Z), not ${quoted(since)}`);
  }
  return time;
}

/**
 * A site's page types' recorded health, newest first, one page of it (`page` from 1): the
 * templater records a page type's figures when they or its template changed since its last record.
 */
export async function templateHealthHistory(rt: Runtime, name: string, params: HealthHistoryParams = {}): Promise<HealthHistoryPage> {
  const site = await requireSite(rt, name);
  const since = params.since === undefined ? undefined : sinceTime(params.since);
  const { page, size } = paging(params, HEALTH_PAGE_SIZE);
  const { total, entries } = await siteHealthHistory(rt.db, site.id, { since, offset: (page - 1) * size, limit: size });
  return { site: site.name, since: since?.toISOString() ?? null, page, size, total, entries };
}

/**
 * Queues an analyst's template preparation of the site; returns the site and the job's id, by which
 * `templateJob` follows it. A site with no stored page (never crawled, or nothing stored yet) is
 * refused as a conflict with its state: the preparation would find nothing, and say only that no
 * page type has enough pages.
 */
export async function requestTemplates(rt: Runtime, name: string): Promise<{ site: Site; job: string }> {
  const site = await requireSite(rt, name);
  if (!(await hasStoredPages(rt.db, site.id))) {
    throw new WinnowError('conflict', `${site.name} has no stored pages yet: crawl it first (\`winnow crawl ${site.name}\`), then prepare its templates`);
  }
  const job = await rt.queues.add('template', { siteId: site.id, reason: 'manual' });
  return { site, job };
}

/**
 * A template preparation job as its requester follows it: `done` with the templater's result (or,
 * when that cannot be read, none and why), or `failed` (retries spent) with its error.
 */
export interface TemplateJob {
  id: string;
  site: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  result: TemplateJobResult | null;
  error: string | null;
}

/**
 * Where one of the site's template jobs is (a waiting retry counts as queued). A job is found
 * while BullMQ keeps it: finished ones are trimmed to the last 1,000 (`PipelineQueues`).
 */
export async function templateJob(rt: Runtime, name: string, id: string): Promise<TemplateJob> {
  const site = await requireSite(rt, name);
  const job = /^\d{1,15}$/.test(id) ? await rt.queues.queue('template').getJob(id) : undefined;
  const state = job && job.data.siteId === site.id ? await job.getState() : 'unknown';
  if (!job || state === 'unknown')
    throw new SiteNotFoundError(`${site.name} has no template job ${quoted(id)} (finished jobs are kept for a while, then trimmed)`);
  if (state === 'completed') {
    // A job an older templater ran returned another shape: it is done, with nothing this version can read.
    const result = TEMPLATE_JOB_RESULT.safeParse(job.returnvalue);
    return result.success
      ? { id, site: site.name, state: 'done', result: result.data, error: null }
      : { id, site: site.name, state: 'done', result: null, error: 'it ended, but its result is not one this version reads (an older templater ran it)' };
  }
  if (state === 'failed') return { id, site: site.name, state: 'failed', result: null, error: job.failedReason };
  return { id, site: site.name, state: state === 'active' ? 'running' : 'queued', result: null, error: null };
}
