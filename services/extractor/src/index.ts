import { methodByName, type PageExtractor } from '@winnow/extract';
import { startWorker } from '@winnow/queue';
import { keepPageFailure, type Runtime, type Service } from '@winnow/runtime';
import { extractPage, TemplateCache } from './extractPage.js';

export { extractPage, TemplateCache } from './extractPage.js';

/**
 * Consumes `extract` jobs; each stored extraction enqueues the page for indexing. A page whose
 * job used its last attempt is kept in `page_failures` with the error.
 */
export function startExtractor(rt: Runtime): Service {
  const cache = new TemplateCache();
  const fallback = singlePageMethod(rt.env.WINNOW_FALLBACK_METHOD);
  const worker = startWorker(
    rt.queueSettings,
    'extract',
    async ({ pageId }) => {
      const extraction = await extractPage(rt, cache, pageId, fallback);
      await rt.queues.add('index', { pageId });
      return { method: extraction.method, templateVersion: extraction.templateVersion, blocks: extraction.blocks.length };
    },
    {
      concurrency: rt.env.WINNOW_EXTRACT_CONCURRENCY,
      onGiveUp: keepPageFailure(rt, 'extract'),
    },
  );
  return { close: () => worker.close() };
}

/** The configured fallback, checked at start: a template method's name or an unknown one fails here. */
function singlePageMethod(name: string): PageExtractor {
  const method = methodByName(name);
  if (method.kind !== 'single') throw new Error(`WINNOW_FALLBACK_METHOD must name a single-page method; ${name} needs a template`);
  return method.extract;
}
