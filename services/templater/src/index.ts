import { startWorker, UnrecoverableError } from '@winnow/queue';
import { syncTemplateSchedule, type Runtime, type Service } from '@winnow/runtime';
import { findSiteById, listSites } from '@winnow/storage';
import { prepareSite } from './prepareSite.js';

export { prepareSite, SAMPLE_SIZE, type PreparationOutcome } from './prepareSite.js';

/**
 * Consumes `template` jobs. A `first-pages` request is skipped once the site has templates (the
 * crawl's end and the schedule refresh them). On start it registers every site's schedule again,
 * since a private Redis forgets them when its process ends.
 */
export async function startTemplater(rt: Runtime): Promise<Service> {
  for (const site of await listSites(rt.db)) await syncTemplateSchedule(rt, site);
  const worker = startWorker(rt.queueSettings, 'template', async ({ siteId, reason }) => {
    const site = await findSiteById(rt.db, siteId);
    if (!site) throw new UnrecoverableError(`site ${siteId} does not exist`);
    if (reason === 'first-pages' && site.templateVersion > 0) return { skipped: 'the site has templates' };
    return prepareSite(rt, siteId);
  });
  return { close: () => worker.close() };
}
