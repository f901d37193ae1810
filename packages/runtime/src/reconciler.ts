import { MIN_SCHEDULE_MS } from '@winnow/config';
import { extractionJobId, indexJobId } from '@winnow/queue/contracts';
import {
  failedPageIds,
  type Finding,
  indexableVersions,
  listSites,
  type ReconcilerRun,
  recordReconcilerRun,
  type Site,
  unextractedPages,
} from '@winnow/storage';
import { startPipelineWorker } from './jobs.js';
import { recrawlScheduleId, syncSchedules, templateScheduleId } from './operations.js';
import type { Runtime } from './runtime.js';

type Queue = ReturnType<Runtime['queues']['queue']>;

/**
 * What the reconciler finds out of step: a page whose current body has no extraction
 * (`unextracted`), one that should have a search document and has none (`unindexed`) or has one
 * written from an older extraction (`stale-document`), a document of a page that should have none
 * (`orphan-document`: gone, withdrawn, a duplicate, removed), and a site's template or recrawl
 * schedule missing from Redis or out of step with the site's settings (`schedule`).
 */
export const FINDING_KINDS = ['unextracted', 'unindexed', 'stale-document', 'orphan-document', 'schedule'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export type ReconcileReason = 'start' | 'schedule';

/** The reconciler's job scheduler, one per deployment (its queue's prefix). */
const RECONCILER_SCHEDULE = 'reconciler';

/** Work whose deduplication id a queue still holds is waiting or running: not lost. Asked this many at a time. */
const IN_FLIGHT_CHECKS = 500;

/**
 * Compares what Postgres says should exist with what exists, and queues what is missing:
 * extractions of stored pages, search documents of extracted pages (missing, stale or that should
 * not be there: the indexer writes or removes them), and the sites' schedules (Postgres is the
 * truth; Redis holds only their timers). Queues are where work is lost: a job that gave up during
 * an outage, a Redis that lost its data, a private Redis that ended with its process, a job that
 * was never queued because its producer died. Work still waiting or running is not a finding: each
 * job carries a deduplication id naming its work (`extractionJobId`, `indexJobId`), and a queue
 * that still holds the id holds the job. Pages whose failure is recorded are left to `status`
 * rather than queued again at every run. At most `limit` jobs are queued per kind: a large loss is
 * made good over several runs. The run is recorded (`status` shows the latest) and its findings
 * counted in `winnow_reconciler_findings_total` by kind.
 */
export async function reconcile(rt: Runtime, reason: ReconcileReason, limit = rt.env.WINNOW_RECONCILE_LIMIT): Promise<ReconcilerRun> {
  const startedAt = new Date();
  const findings = Object.fromEntries(FINDING_KINDS.map((kind) => [kind, { found: 0, queued: 0 }])) as Record<FindingKind, Finding>;

  for (const site of await listSites(rt.db)) {
    const outOfStep = await schedulesOutOfStep(rt, site);
    if (outOfStep === 0) continue;
    await syncSchedules(rt, site);
    findings.schedule.found += outOfStep;
    findings.schedule.queued += outOfStep;
  }

  const extract = rt.queues.queue('extract');
  const failedExtract = await failedPageIds(rt.db, 'extract');
  const unextracted = (await unextractedPages(rt.db)).filter((page) => !failedExtract.has(page.pageId));
  const lostExtractions = await notInFlight(extract, unextracted, (page) => extractionJobId(page.pageId, page.contentHash));
  findings.unextracted.found = lostExtractions.length;
  const extractNow = lostExtractions.slice(0, limit);
  const hashes = new Map(extractNow.map((page) => [page.pageId, page.contentHash]));
  await rt.queues.addBulk(
    'extract',
    extractNow.map(({ pageId }) => ({ pageId })),
    ({ pageId }) => extractionJobId(pageId, hashes.get(pageId) as string),
  );
  findings.unextracted.queued = extractNow.length;

  const index = rt.queues.queue('index');
  const failedIndex = await failedPageIds(rt.db, 'index');
  const wanted = await indexableVersions(rt.db);
  const held = await rt.search.documentVersions();
  const pending = new Set(unextracted.map((page) => page.pageId));
  const toWrite = [...wanted].filter(([pageId, version]) => held.get(pageId) !== version && !failedIndex.has(pageId));
  // A page with a body and no extraction yet gets its index job from the extractor.
  const toRemove = [...held.keys()].filter((pageId) => !wanted.has(pageId) && !pending.has(pageId) && !failedIndex.has(pageId));
  const jobs: { kind: FindingKind; pageId: number; dedupId: string }[] = [
    ...toWrite.map(([pageId, version]) => ({
      kind: held.has(pageId) ? ('stale-document' as const) : ('unindexed' as const),
      pageId,
      dedupId: indexJobId(pageId, version),
    })),
    ...toRemove.map((pageId) => ({ kind: 'orphan-document' as const, pageId, dedupId: indexJobId(pageId, 'remove') })),
  ];
  const lostIndexing = await notInFlight(index, jobs, (job) => job.dedupId);
  for (const kind of ['unindexed', 'stale-document', 'orphan-document'] as const) {
    const ofKind = lostIndexing.filter((job) => job.kind === kind);
    const now = ofKind.slice(0, limit);
    for (const job of now) await index.add('index', { pageId: job.pageId }, { deduplication: { id: job.dedupId } });
    findings[kind] = { found: ofKind.length, queued: now.length };
  }

  const run = { reason, startedAt, findings };
  await recordReconcilerRun(rt.db, run);
  for (const kind of FINDING_KINDS) if (findings[kind].found > 0) rt.metrics.reconcilerFindings.inc({ kind }, findings[kind].found);
  const found = FINDING_KINDS.filter((kind) => findings[kind].found > 0);
  if (found.length > 0) {
    rt.log.info({ reason, findings }, `reconciler: ${found.map((kind) => `${findings[kind].found} ${kind} (${findings[kind].queued} queued)`).join(', ')}`);
  }
  return { ...run, finishedAt: new Date() };
}

/**
 * How many of the site's schedules Redis holds otherwise than its configuration says: missing, at
 * another interval (a change whose registration did not reach Redis), or still there once turned
 * off. The one place that brings Redis's timers back to Postgres's settings: no worker registers
 * them at its start.
 */
async function schedulesOutOfStep(rt: Runtime, site: Site): Promise<number> {
  const wanted = [
    { queue: rt.queues.queue('template'), id: templateScheduleId(site.id), every: site.config.templateEveryMs },
    { queue: rt.queues.queue('crawl'), id: recrawlScheduleId(site.id), every: site.config.recrawlEveryMs },
  ];
  let outOfStep = 0;
  for (const { queue, id, every } of wanted) {
    const held = await queue.getJobScheduler(id);
    const on = every >= MIN_SCHEDULE_MS;
    if (on ? Number(held?.every) !== every : held) outOfStep++;
  }
  return outOfStep;
}

/** The items whose job (by deduplication id) the queue does not hold. */
async function notInFlight<T>(queue: Queue, items: readonly T[], dedupId: (item: T) => string): Promise<T[]> {
  const lost: T[] = [];
  for (let start = 0; start < items.length; start += IN_FLIGHT_CHECKS) {
    const chunk = items.slice(start, start + IN_FLIGHT_CHECKS);
    const held = await Promise.all(chunk.map((item) => queue.getDeduplicationJobId(dedupId(item))));
    chunk.forEach((item, i) => {
      if (!held[i]) lost.push(item);
    });
  }
  return lost;
}

/**
 * Runs the reconciler in this process: a worker of the `reconcile` queue, a run as it starts
 * (deduplicated: workers starting together run one), and a BullMQ job scheduler every
 * `WINNOW_RECONCILE_EVERY_MS` shared by every process of the deployment, so that one run happens
 * per interval however many workers there are. A Redis that lost its data lost that scheduler
 * too: each process looks for it every interval and registers it again. Every worker process runs
 * one (`winnow worker`, the services' mains, the embedded pipeline), so every deployment has it.
 */
export async function startReconciler(rt: Runtime): Promise<{ close(): Promise<void> }> {
  const every = rt.env.WINNOW_RECONCILE_EVERY_MS;
  const queue = rt.queues.queue('reconcile');
  const worker = startPipelineWorker(rt, 'reconcile', async ({ reason }) => {
    const run = await reconcile(rt, reason);
    return run.findings;
  });
  const ensureSchedule = async () => {
    const scheduler = await queue.getJobScheduler(RECONCILER_SCHEDULE);
    if (scheduler?.every === every) return;
    await queue.upsertJobScheduler(RECONCILER_SCHEDULE, { every, startDate: Date.now() + every }, { name: 'reconcile', data: { reason: 'schedule' } });
  };
  // Queued before the start returns: an embedded command waiting for the pipeline to be idle waits for this run too.
  await (async () => {
    await ensureSchedule();
    await rt.queues.add('reconcile', { reason: 'start' }, { deduplication: { id: 'reconcile:start' } });
  })().catch((error: unknown) => rt.log.warn({ err: error }, 'could not queue the reconciler; its schedule is looked for again later'));
  const timer = setInterval(
    () => void ensureSchedule().catch((error: unknown) => rt.log.warn({ err: error }, "could not look for the reconciler's schedule")),
    every,
  );
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await worker.close();
    },
  };
}
