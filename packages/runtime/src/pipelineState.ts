import type { PipelineState } from '@winnow/metrics';
import { listTemplates, siteCounts } from '@winnow/storage';
import { crawlStatus } from './operations.js';
import type { Runtime } from './runtime.js';

/**
 * The shared pipeline as `/metrics` reports it (`PipelineState`): its queues, each site's open
 * crawl's frontier, its pages by stage, and the health of each current template. Read on each
 * scrape, by the process that serves the API.
 */
export async function pipelineState(rt: Runtime): Promise<PipelineState> {
  const [counts, queues, templates] = await Promise.all([siteCounts(rt.db), rt.queues.counts(), listTemplates(rt.db)]);
  const sites = await Promise.all(
    counts.map(async (count) => ({ count, crawl: await crawlStatus(rt, count.site), indexed: await rt.search.count(count.site) })),
  );
  return {
    queues: Object.entries(queues).flatMap(([queue, byState]) =>
      (['waiting', 'active', 'delayed', 'failed'] as const).map((state) => ({ queue, state, jobs: byState[state] })),
    ),
    frontier: sites.flatMap(({ count, crawl }) => {
      const open = crawl && ['queued', 'running', 'stopping'].includes(crawl.state);
      return [
        { site: count.site, state: 'queued', urls: open ? crawl.counts.queued : 0 },
        { site: count.site, state: 'in-flight', urls: open ? crawl.counts.inFlight : 0 },
      ];
    }),
    pages: sites.flatMap(({ count, indexed }) =>
      Object.entries({
        stored: count.stored,
        gone: count.gone,
        duplicate: count.duplicates,
        extracted: count.extracted,
        'read-alone': count.readAlone,
        empty: count.empty,
        indexed,
        'failed-extract': count.failedExtract,
        'failed-index': count.failedIndex,
      }).map(([stage, pages]) => ({ site: count.site, stage, pages })),
    ),
    templates: templates
      .filter((template) => template.current)
      .map((template) => ({
        site: template.site,
        pageType: template.cluster,
        pages: template.health.pages,
        readAlone: template.health.readAlone,
        meanWords: template.health.meanWords,
      })),
  };
}
