import { extractionJobId } from '@winnow/queue';
import { unextractedPages, indexableVersions } from '@winnow/storage';
import type { Runtime } from './runtime.js';

/** What `requeueLostJobs` queued again. */
export interface RequeuedJobs {
  /** Pages whose current body has no extraction. */
  extract: number;
  /** Pages whose document is missing or was written from an older extraction, and documents that should not be there. */
  index: number;
}

/**
 * Queues again the work a pipeline's queues lost: every page whose current body has no
 * extraction, every page whose search document is missing or older than its extraction, and
 * every document of a page that should have none (gone, withdrawn, a duplicate, removed), which
 * the indexer removes. A private Redis keeps nothing across restarts, so when the embedded
 * pipeline starts, whatever is undone was queued by an earlier process and lost with it: a crawl
 * that finished while its pages were still being extracted or indexed, and was then interrupted,
 * would otherwise leave them out of the index for good (a later crawl finds them unchanged and
 * queues nothing). Extraction jobs keep their usual deduplication id; an index job is idempotent.
 */
export async function requeueLostJobs(rt: Runtime): Promise<RequeuedJobs> {
  const unextracted = await unextractedPages(rt.db);
  const hashes = new Map(unextracted.map((page) => [page.pageId, page.contentHash]));
  await rt.queues.addBulk(
    'extract',
    unextracted.map(({ pageId }) => ({ pageId })),
    ({ pageId }) => extractionJobId(pageId, hashes.get(pageId) as string),
  );

  const wanted = await indexableVersions(rt.db);
  const held = await rt.search.documentVersions();
  const toIndex = [...wanted].filter(([pageId, version]) => held.get(pageId) !== version).map(([pageId]) => pageId);
  // A page with a body and no extraction yet gets its index job from the extractor.
  const toRemove = [...held.keys()].filter((pageId) => !wanted.has(pageId) && !hashes.has(pageId));
  const pageIds = [...toIndex, ...toRemove].sort((a, b) => a - b);
  await rt.queues.addBulk(
    'index',
    pageIds.map((pageId) => ({ pageId })),
  );
  if (unextracted.length + pageIds.length > 0) {
    rt.log.info({ extract: unextracted.length, index: pageIds.length }, 'queued again the jobs an earlier process left undone');
  }
  return { extract: unextracted.length, index: pageIds.length };
}
