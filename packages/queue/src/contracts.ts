import { z } from 'zod';

const id = z.number().int().positive();

/**
 * One contract per queue: what a job of that queue carries. Jobs carry ids, never page bodies;
 * every worker validates its payload before acting on it.
 */
export const JOB_CONTRACTS = {
  /** Start a crawl of a site (its recrawl schedule); crawler processes then share the crawl's frontier. */
  crawl: z.object({ siteId: id, reason: z.enum(['schedule']) }).strict(),
  /** Prepare a site's templates again. */
  template: z.object({ siteId: id, reason: z.enum(['new-pages', 'crawl-finished', 'schedule', 'manual', 'drift']) }).strict(),
  /** Extract one stored page. */
  extract: z.object({ pageId: id }).strict(),
  /** Put one page's extraction into the search index. */
  index: z.object({ pageId: id }).strict(),
  /** Compare stored pages, extractions, documents and schedules, and queue what is missing (`reconcile` in @winnow/runtime). */
  reconcile: z.object({ reason: z.enum(['start', 'schedule']) }).strict(),
} as const;

/**
 * What became of one page type in a template preparation: `new` (no template of its type before),
 * `changed` (content paths added and removed, and what else of it changed, by field name: see
 * `TemplateChanges` in @winnow/storage), `unchanged` (the same template as before), `removed`
 * (the site's current version has a template of its type that the run did not prepare), or
 * `too-few-pages` (under the site's `minTemplatePages`: read without a template).
 */
const pageTypeOutcome = z
  .object({
    cluster: z.string(),
    pages: z.number().int().nonnegative(),
    outcome: z.enum(['new', 'changed', 'unchanged', 'removed', 'too-few-pages']),
    pathsAdded: z.number().int().nonnegative(),
    pathsRemoved: z.number().int().nonnegative(),
    alsoChanged: z.array(z.string()),
  })
  .strict();

/**
 * What a `template` job returns: the outcome of the templater's run (`prepareSite`), or why it
 * did nothing. Read back by whoever waits on the job (`winnow templates prepare`, the API), so it
 * is checked like a payload: it crosses Redis.
 */
export const TEMPLATE_JOB_RESULT = z.union([
  z
    .object({
      /** The site's version before the run (0: it had none). */
      previousVersion: z.number().int().nonnegative(),
      /** Its version after: the new one, or `previousVersion` when nothing was stored. */
      version: z.number().int().nonnegative(),
      /** Pages queued to be extracted again: with the new version, or (an analyst's run) those an earlier version read when the current one is kept. */
      reextract: z.number().int().nonnegative(),
      pageTypes: z.array(pageTypeOutcome),
    })
    .strict(),
  z.object({ skipped: z.string() }).strict(),
]);
export type TemplateJobResult = z.infer<typeof TEMPLATE_JOB_RESULT>;
export type PreparationOutcome = Exclude<TemplateJobResult, { skipped: string }>;
export type PageTypeOutcome = PreparationOutcome['pageTypes'][number];

/**
 * The deduplication id of a page's extraction job for one body (and, from the templater, one
 * template version): the job is queued once however many times it is asked for before it runs.
 * A job already running is not a reason to skip a new version's (it may have read the old one);
 * the extractor makes a job whose page is already current a no-op instead.
 */
export function extractionJobId(pageId: number, contentHash: string, templateVersion?: number): string {
  return templateVersion === undefined ? `extract:${pageId}:${contentHash}` : `extract:${pageId}:${contentHash}:v${templateVersion}`;
}

/**
 * The deduplication id of an index job for one extraction of a page (its time, ms since the
 * epoch), or for taking its document out (`remove`): while such a job waits or runs, the reconciler
 * sees the work in flight and queues nothing.
 */
export function indexJobId(pageId: number, version: number | 'remove'): string {
  return `index:${pageId}:${version}`;
}

export type QueueName = keyof typeof JOB_CONTRACTS;
export type JobPayload<Name extends QueueName> = z.infer<(typeof JOB_CONTRACTS)[Name]>;
export const QUEUE_NAMES = Object.keys(JOB_CONTRACTS) as QueueName[];

export class JobPayloadError extends Error {
  override readonly name = 'JobPayloadError';
}

export function parseJobPayload<Name extends QueueName>(queue: Name, data: unknown): JobPayload<Name> {
  const parsed = JOB_CONTRACTS[queue].safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`);
    throw new JobPayloadError(`invalid ${queue} job payload ${JSON.stringify(data)}: ${problems.join('; ')}`);
  }
  return parsed.data as JobPayload<Name>;
}
