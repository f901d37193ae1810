import { indexJobId } from '@winnow/queue';
import { keepPageFailure, type Runtime, type Service, startPipelineWorker } from '@winnow/runtime';
import { extractPage, NewPageTypes, TemplateCache } from './extractPage.js';

export { DRIFT_MIN_PAGES, DRIFT_SHARE, extractPage, NewPageTypes, TemplateCache } from './extractPage.js';

const VANISHED = 'the page no longer exists (its site was removed)';

/**
 * Consumes `extract` jobs; each stored extraction enqueues the page for indexing, and new pages
 * read without a template of their type ask for templates (`NewPageTypes`). A page whose
 * job used its last attempt is kept in `page_failures` with the error; the job of a page that no
 * longer exists (its site was removed) completes as skipped; an outage is waited out
 * (`startPipelineWorker`).
 */
export function startExtractor(rt: Runtime): Service {
  const cache = new TemplateCache();
  const newPageTypes = new NewPageTypes();
  const worker = startPipelineWorker(
    rt,
    'extract',
    async ({ pageId }) => {
      const extraction = await extractPage(rt, cache, pageId, newPageTypes);
      if (extraction === 'vanished') return { skipped: VANISHED };
      // Indexed again either way (idempotent): a job that repeats a current extraction may be the
      // retry of one whose index job was lost. A new extraction's job carries its version, so that
      // the reconciler sees it in flight.
      await rt.queues.add('index', { pageId }, extraction ? { deduplication: { id: indexJobId(pageId, extraction.extractedAt.getTime()) } } : {});
      if (!extraction) return { skipped: 'already extracted from this body with the current templates' };
      return { method: extraction.method, templateVersion: extraction.templateVersion, blocks: extraction.blocks.length };
    },
    {
      concurrency: rt.env.WINNOW_EXTRACT_CONCURRENCY,
      onGiveUp: keepPageFailure(rt, 'extract'),
    },
  );
  return { close: () => worker.close() };
}
