import type { Runtime, Service } from '@winnow/runtime';
import { startWorker, UnrecoverableError } from '@winnow/queue';
import { findCrawl } from '@winnow/storage';
import { runCrawl } from './crawl.js';

export { firstTemplateThreshold, runCrawl, type CrawlOutcome } from './crawl.js';

/** Consumes `crawl` jobs: one crawl per job, a crawl at a time per worker (Crawlee parallelises within it). */
export function startCrawler(rt: Runtime): Service {
  const worker = startWorker(rt.queueSettings, 'crawl', async ({ crawlId }) => {
    if (!(await findCrawl(rt.db, crawlId))) throw new UnrecoverableError(`crawl ${crawlId} does not exist`);
    return runCrawl(rt, crawlId);
  });
  return { close: () => worker.close() };
}
