import { startWorker, UnrecoverableError } from '@winnow/queue';
import { keepPageFailure, type Runtime, type Service } from '@winnow/runtime';
import { documentIdFor, type IndexDocument } from '@winnow/search';
import { clearPageFailures, indexablePages, pagePresence } from '@winnow/storage';
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
  /** Exist but have no extraction: the job that asked was wrong. */
  unextracted: number[];
}

/**
 * Writes pages' current extractions to the search index. The document of a page reads whatever
 * extraction the page has when its batch is flushed, under an id stable per site and URL, so
 * indexing twice, or out of order, leaves the latest text once.
 *
 * After the write, the documents of the batch's pages that no longer exist are removed. That
 * closes the race with removing a site, which deletes the site's row (and so its pages) first and
 * its documents second: if the existence check here still saw a page, the write before it was
 * acknowledged before the row was deleted, so before the site's documents were removed, which
 * takes it away; if the check did not see the page, the removal here takes it away. Either way no
 * document of a removed site outlives the batch. A page its site withdrew (a recrawl found it gone,
 * moved or asking not to be indexed) has no body any more: its document is removed the same way.
 */
export async function indexPages(rt: Runtime, pageIds: readonly number[]): Promise<IndexedBatch> {
  const ids = [...new Set(pageIds)];
  const pages = await indexablePages(rt.db, ids);
  const documents: IndexDocument[] = pages.map((page) => ({ ...page, docId: documentIdFor(page.site, page.url) }));
  await rt.search.upsert(documents);
  const { existing, withBody } = await pagePresence(rt.db, ids);
  const vanished = ids.filter((id) => !existing.has(id));
  const withdrawn = ids.filter((id) => existing.has(id) && !withBody.has(id));
  if (vanished.length + withdrawn.length > 0) await rt.search.removePages([...vanished, ...withdrawn]);
  const indexed = pages.map((page) => page.pageId).filter((id) => withBody.has(id));
  await clearPageFailures(rt.db, [...indexed, ...withdrawn], 'index');
  const done = new Set([...indexed, ...withdrawn]);
  return { indexed, vanished, withdrawn, unextracted: ids.filter((id) => existing.has(id) && !done.has(id)) };
}

/** An index job's result: its page's document was written, removed (the site withdrew the page), or the page no longer exists. */
export type IndexJobResult = { outcome: 'indexed' } | { outcome: 'removed' } | { outcome: 'skipped'; reason: string };

const VANISHED = 'the page no longer exists (its site was removed)';

/**
 * Consumes `index` jobs, many at a time: jobs gather into batches (size and flush interval from
 * the configuration) that are written in one call to the index. Workers take no more jobs than
 * one batch holds, which is the backpressure on the index. The job of a page that no longer exists
 * completes as skipped (logged at debug); a page without an extraction fails its job.
 */
export function startIndexer(rt: Runtime): Service {
  const batcher = new Batcher<number, IndexJobResult>(
    async (pageIds) => {
      const batch = await indexPages(rt, pageIds);
      if (batch.vanished.length > 0) rt.log.debug({ pageIds: batch.vanished }, `index jobs skipped: ${VANISHED}`);
      return new Map<number, IndexJobResult | Error>([
        ...batch.indexed.map((pageId) => [pageId, { outcome: 'indexed' }] as const),
        ...batch.vanished.map((pageId) => [pageId, { outcome: 'skipped', reason: VANISHED }] as const),
        ...batch.withdrawn.map((pageId) => [pageId, { outcome: 'removed' }] as const),
        ...batch.unextracted.map((pageId) => [pageId, new UnrecoverableError(`page ${pageId} has no extraction to index`)] as const),
      ]);
    },
    rt.env.WINNOW_INDEX_BATCH_SIZE,
    rt.env.WINNOW_INDEX_FLUSH_MS,
  );
  const worker = startWorker(rt.queueSettings, 'index', async ({ pageId }) => batcher.add(pageId), {
    concurrency: rt.env.WINNOW_INDEX_BATCH_SIZE,
    onGiveUp: keepPageFailure(rt, 'index'),
  });
  return { close: () => worker.close() };
}
