import { UnrecoverableError } from '@winnow/queue';
import { keepPageFailure, type Runtime, type Service, startPipelineWorker } from '@winnow/runtime';
import { documentIdFor, type IndexDocument } from '@winnow/search';
import { clearPageFailures, type IndexablePage, indexablePages, pagePresence, resolveDuplicates } from '@winnow/storage';
import { Batcher } from './batcher.js';

export { Batcher } from './batcher.js';

/** What became of a batch's pages. */
export interface IndexedBatch {
  /** Written with their current extraction. */
  indexed: number[];
  /** No longer exist (their site was removed): nothing of them is left in the index. */
  vanished: number[];
  /** Exist without a body: their site withdrew them (404, 410, moved, noindex), so their documents were removed. */
  withdrawn: number[];
  /** Duplicates of another page of their site (by the URL that stands for them): their documents were removed. */
  duplicates: Map<number, string>;
  /** Exist but have no extraction: the job that asked was wrong. */
  unextracted: number[];
}

/**
 * Writes pages' current extractions to the search index. The document of a page reads whatever
 * extraction the page has when its batch is flushed, under an id stable per site and URL, so
 * indexing twice, or out of order, leaves the latest text once.
 *
 * A site's duplicate pages get no document (`resolveDuplicates` decides and records them in
 * `pages.duplicate_of`): a page naming another page of the site as canonical, or one whose body is
 * byte-identical to another's. Deciding a batch's pages decides the pages that depend on them too
 * (same body, naming them as canonical, recorded as their duplicates), so a page that becomes a
 * duplicate loses its document, and one whose original is gone, changed or withdrawn gets its own.
 *
 * After the writes, every page written or removed is looked at again, and whatever no longer
 * agrees is put right: the documents of pages that no longer exist, have no body or are now
 * duplicates are removed; a page removed as a duplicate that a later decision made the original
 * gets its document back. That closes the race with removing a site, which deletes the site's row
 * (and so its pages) first and its documents second: if the check here still saw a page, the write
 * before it was acknowledged before the row was deleted, so before the site's documents were
 * removed, which takes it away; if the check did not see the page, the removal here takes it away.
 * The same argument holds for two batches deciding one site's duplicates at once: decisions follow
 * one another (`resolveDuplicates`), and each batch checks its writes against the last one.
 */
export async function indexPages(rt: Runtime, pageIds: readonly number[]): Promise<IndexedBatch> {
  const ids = [...new Set(pageIds)];
  const requested = new Set(ids);
  const decisions = await resolveDuplicates(rt.db, ids);
  // Requested pages are written or removed as decided; the others only when their decision changed.
  const own = decisions.filter((d) => d.hasBody && d.duplicateOf === null && (requested.has(d.pageId) || d.previous !== null)).map((d) => d.pageId);
  const duplicates = decisions.filter((d) => d.duplicateOf !== null && (requested.has(d.pageId) || d.previous !== d.duplicateOf)).map((d) => d.pageId);
  const written = await writeDocuments(rt, own);
  if (duplicates.length > 0) await rt.search.removePages(duplicates);

  const touched = [...new Set([...ids, ...written, ...duplicates])];
  const { existing, withBody, duplicateOf } = await pagePresence(rt.db, touched);
  const stands = (id: number) => withBody.has(id) && !duplicateOf.has(id);
  const removed = new Set(duplicates);
  const stale = touched.filter((id) => !stands(id) && !removed.has(id));
  if (stale.length > 0) await rt.search.removePages(stale);
  await writeDocuments(
    rt,
    duplicates.filter((id) => stands(id)),
  );

  const vanished = ids.filter((id) => !existing.has(id));
  const withdrawn = ids.filter((id) => existing.has(id) && !withBody.has(id));
  const duplicated = new Map(ids.flatMap((id) => (duplicateOf.has(id) ? [[id, duplicateOf.get(id) as string] as const] : [])));
  const writtenSet = new Set(written);
  const indexed = ids.filter((id) => writtenSet.has(id) && stands(id));
  await clearPageFailures(rt.db, [...indexed, ...withdrawn, ...duplicated.keys()], 'index');
  const done = new Set([...indexed, ...withdrawn, ...duplicated.keys()]);
  return { indexed, vanished, withdrawn, duplicates: duplicated, unextracted: ids.filter((id) => existing.has(id) && !done.has(id)) };
}

/** Writes the documents of the pages that have an extraction; returns their ids. */
async function writeDocuments(rt: Runtime, pageIds: readonly number[]): Promise<number[]> {
  if (pageIds.length === 0) return [];
  const pages: IndexablePage[] = await indexablePages(rt.db, pageIds);
  const documents: IndexDocument[] = pages.map((page) => ({ ...page, docId: documentIdFor(page.site, page.url) }));
  await rt.search.upsert(documents);
  const now = Date.now();
  for (const page of pages) rt.metrics.indexLagSeconds.observe(Math.max(0, now - page.extractedAt.getTime()) / 1000);
  return pages.map((page) => page.pageId);
}

/**
 * An index job's result: its page's document was written, removed (the site withdrew the page),
 * left out for the page that stands for it (a duplicate, `of` its URL), or the page no longer exists.
 */
export type IndexJobResult = { outcome: 'indexed' } | { outcome: 'removed' } | { outcome: 'duplicate'; of: string } | { outcome: 'skipped'; reason: string };

const VANISHED = 'the page no longer exists (its site was removed)';

/** A batch's pages in `winnow_index_writes_total`, by what became of each one's job (`IndexJobResult`; `failed`: it had no extraction). */
function countOutcomes(rt: Runtime, batch: IndexedBatch): void {
  const { indexWrites } = rt.metrics;
  indexWrites.inc({ outcome: 'indexed' }, batch.indexed.length);
  indexWrites.inc({ outcome: 'removed' }, batch.withdrawn.length);
  indexWrites.inc({ outcome: 'duplicate' }, batch.duplicates.size);
  indexWrites.inc({ outcome: 'skipped' }, batch.vanished.length);
  indexWrites.inc({ outcome: 'failed' }, batch.unextracted.length);
}

/**
 * Consumes `index` jobs, many at a time: jobs gather into batches (size and flush interval from
 * the configuration) that are written in one call to the index. Workers take no more jobs than
 * one batch holds, which is the backpressure on the index. The job of a page that no longer exists
 * completes as skipped (logged at debug), a duplicate's as `duplicate` with the URL that stands
 * for it; a page without an extraction fails its job. A batch that fails because the database or the
 * index cannot be reached is added again by each of its jobs once the outage ends (`startPipelineWorker`).
 */
export function startIndexer(rt: Runtime): Service {
  const batcher = new Batcher<number, IndexJobResult>(
    async (pageIds) => {
      const started = performance.now();
      const batch = await indexPages(rt, pageIds);
      rt.metrics.indexBatchSeconds.observe((performance.now() - started) / 1000);
      countOutcomes(rt, batch);
      if (batch.vanished.length > 0) rt.log.debug({ pageIds: batch.vanished }, `index jobs skipped: ${VANISHED}`);
      return new Map<number, IndexJobResult | Error>([
        ...batch.indexed.map((pageId) => [pageId, { outcome: 'indexed' }] as const),
        ...batch.vanished.map((pageId) => [pageId, { outcome: 'skipped', reason: VANISHED }] as const),
        ...batch.withdrawn.map((pageId) => [pageId, { outcome: 'removed' }] as const),
        ...[...batch.duplicates].map(([pageId, of]) => [pageId, { outcome: 'duplicate', of }] as const),
        ...batch.unextracted.map((pageId) => [pageId, new UnrecoverableError(`page ${pageId} has no extraction to index`)] as const),
      ]);
    },
    rt.env.WINNOW_INDEX_BATCH_SIZE,
    rt.env.WINNOW_INDEX_FLUSH_MS,
  );
  const worker = startPipelineWorker(rt, 'index', async ({ pageId }) => batcher.add(pageId), {
    concurrency: rt.env.WINNOW_INDEX_BATCH_SIZE,
    onGiveUp: keepPageFailure(rt, 'index'),
  });
  return { close: () => worker.close() };
}
