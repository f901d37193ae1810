import { startWorker, UnrecoverableError } from '@winnow/queue';
import { keepPageFailure, type Runtime, type Service } from '@winnow/runtime';
import { documentIdFor, type IndexDocument } from '@winnow/search';
import { clearPageFailure, indexablePages } from '@winnow/storage';
import { Batcher } from './batcher.js';

export { Batcher } from './batcher.js';

/**
 * Writes pages' current extractions to the search index. The document of a page reads whatever
 * extraction the page has when its batch is flushed, under an id stable per URL, so indexing
 * twice, or out of order, leaves the latest text once. A page with no extraction fails its job.
 */
export async function indexPages(rt: Runtime, pageIds: readonly number[]): Promise<Set<number>> {
  const pages = await indexablePages(rt.db, [...new Set(pageIds)]);
  const documents: IndexDocument[] = pages.map((page) => ({ ...page, docId: documentIdFor(page.url) }));
  await rt.search.upsert(documents);
  for (const page of pages) await clearPageFailure(rt.db, page.pageId, 'index');
  return new Set(pages.map((page) => page.pageId));
}

/**
 * Consumes `index` jobs, many at a time: jobs gather into batches (size and flush interval from
 * the configuration) that are written in one call to the index. Workers take no more jobs than
 * one batch holds, which is the backpressure on the index.
 */
export function startIndexer(rt: Runtime): Service {
  const batcher = new Batcher<number>(
    async (pageIds) => {
      const indexed = await indexPages(rt, pageIds);
      const missing = pageIds.filter((pageId) => !indexed.has(pageId));
      return new Map(missing.map((pageId) => [pageId, new UnrecoverableError(`page ${pageId} has no extraction to index`)]));
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
