import type { JobPayload, PreparationOutcome } from '@winnow/queue';
import { type Runtime, type Service, startPipelineWorker } from '@winnow/runtime';
import { findSiteById } from '@winnow/storage';
import { prepareSite } from './prepareSite.js';

export { prepareSite, SAMPLE_SIZE } from './prepareSite.js';

/**
 * Consumes `template` jobs (see `prepareSite`; an analyst's `manual` run re-extracts every page if
 * it stores a new version, else the pages an earlier version read). The sites' schedules that
 * Redis lost (a private Redis ends with its process) are registered again by the reconciler.
 */
export async function startTemplater(rt: Runtime): Promise<Service> {
  const worker = startPipelineWorker(rt, 'template', async ({ siteId, reason }) => {
    const site = await findSiteById(rt.db, siteId);
    if (!site) return { skipped: `site ${siteId} no longer exists` };
    const outcome = await prepareSite(rt, siteId, { reextractAll: reason === 'manual' });
    reportPreparation(rt, site.name, reason, outcome);
    return outcome;
  });
  return { close: () => worker.close() };
}

/** Why a preparation ran, in the words of its log line. */
const WHY: Record<JobPayload<'template'>['reason'], string> = {
  'new-pages': 'new pages without a template of their type',
  'crawl-finished': 'a crawl finished',
  schedule: 'its schedule',
  manual: 'an analyst asked',
  drift: 'a template drifted',
};

/**
 * One line per preparation: the site by name, why it ran, and what it did: the version stored with
 * each page type that is new, changed or removed (and how many pages are read again), or that the
 * current version stands. Counted in `winnow_template_preparations_total` and, when a version is
 * stored, `winnow_template_versions_total`.
 */
function reportPreparation(rt: Runtime, site: string, reason: JobPayload<'template'>['reason'], outcome: PreparationOutcome): void {
  const stored = outcome.version !== outcome.previousVersion;
  const prepared = outcome.pageTypes.some((type) => type.outcome !== 'too-few-pages');
  rt.metrics.templatePreparations.inc({ reason, outcome: stored ? 'new-version' : prepared ? 'unchanged' : 'too-few-pages' });
  const fields = {
    site,
    reason,
    version: outcome.version,
    previousVersion: outcome.previousVersion,
    reextract: outcome.reextract,
    pageTypes: outcome.pageTypes,
  };
  if (!stored) {
    const said = prepared ? `version ${outcome.version} stands (no page type changed)` : 'no page type has enough pages for a template yet';
    return void rt.log.info(fields, `templates of ${site} prepared (${WHY[reason]}): ${said}`);
  }
  rt.metrics.templateVersions.inc({ site, reason });
  const changed = outcome.pageTypes
    .filter((type) => type.outcome === 'new' || type.outcome === 'changed' || type.outcome === 'removed')
    .map(
      (type) =>
        `${type.cluster} ${type.outcome}${type.outcome === 'changed' ? ` (+${type.pathsAdded} -${type.pathsRemoved} paths${type.alsoChanged.length > 0 ? `, ${type.alsoChanged.join(', ')}` : ''})` : ''}`,
    );
  rt.log.info(
    fields,
    `template version ${outcome.version} of ${site} stored (${WHY[reason]}): ${changed.join('; ')}; ${outcome.reextract} pages to extract again`,
  );
}
