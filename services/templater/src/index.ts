import { startWorker } from '@winnow/queue';
import { type Runtime, type Service, syncSchedules } from '@winnow/runtime';
import { findSiteById, listSites } from '@winnow/storage';
import { prepareSite } from './prepareSite.js';

export { prepareSite, SAMPLE_SIZE } from './prepareSite.js';

/**
 * Consumes `template` jobs (see `prepareSite`; an analyst's `manual` run re-extracts every page if
 * it stores a new version, else the pages an earlier version read). On start it registers every site's schedule again,
 * since a private Redis forgets them when its process ends.
 */
export async function startTemplater(rt: Runtime): Promise<Service> {
  for (const site of await listSites(rt.db)) await syncSchedules(rt, site);
  const worker = startWorker(rt.queueSettings, 'template', async ({ siteId, reason }) => {
    const site = await findSiteById(rt.db, siteId);
    if (!site) return { skipped: `site ${siteId} no longer exists` };
    return prepareSite(rt, siteId, { reextractAll: reason === 'manual' });
  });
  return { close: () => worker.close() };
}
