import { decodeHtml, evenlySpread, type SitePage, templateMethodByName } from '@winnow/extract';
import { extractionJobId, type PageTypeOutcome, type PreparationOutcome } from '@winnow/queue';
import { type Runtime, templateChanges } from '@winnow/runtime';
import {
  currentTemplates,
  findSiteById,
  insertTemplateVersion,
  listStoredPages,
  markOlderReadingsForReextraction,
  markSiteForReextraction,
  type NewTemplate,
  pagesToExtract,
  recordTemplateHealth,
  type StoredTemplate,
} from '@winnow/storage';

/**
 * Pages a template is prepared from per cluster: an even spread over the cluster, plus its newest
 * pages, so that a redesign shows in the sample as soon as there are a few pages of it. The
 * pipeline groups the sample by layout and prepares each layout from at most 30 (the FastCE
 * paper uses 20-30).
 */
export const SAMPLE_SIZE = 60;
export const NEWEST_PAGES = 30;

/**
 * Prepares a site's templates with the configured template method (`WINNOW_TEMPLATE_METHOD`):
 * records the current templates' health, clusters the stored pages into page types
 * (`clusterPages`), prepares a template for every cluster with at least `minTemplatePages` pages,
 * and — only when some page type's differs from the current version's (`templateChanges`: sizes aside)
 * — stores them as the next version with what changed per page type, and enqueues the pages whose
 * extraction no longer stands: read without a template of their type, or read alone
 * (`pagesToExtract`); with `reextractAll` (an analyst asked), every page, and when the current
 * version is kept, the pages an earlier version's template read. Returns what became of
 * each page type, for whoever asked (`winnow templates prepare`) and for the templater's log line. Pages that are not readable HTML
 * are skipped and reported once per run, never fatal to the site.
 */
export async function prepareSite(rt: Runtime, siteId: number, options: { reextractAll?: boolean } = {}): Promise<PreparationOutcome> {
  const site = await findSiteById(rt.db, siteId);
  if (!site) throw new Error(`site ${siteId} does not exist`);
  const method = templateMethodByName(rt.env.WINNOW_TEMPLATE_METHOD);
  await recordTemplateHealth(rt.db, siteId);
  const stored = await listStoredPages(rt.db, siteId);
  const bodies = await rt.bodies.load([...new Set(stored.map((page) => page.contentHash as string))]);
  const pages: SitePage[] = [];
  const unreadable: string[] = [];
  for (const page of stored) {
    const body = bodies.get(page.contentHash as string);
    if (!body) continue;
    try {
      pages.push({ url: page.url, html: decodeHtml(body, page.contentType ?? undefined).html });
    } catch {
      unreadable.push(page.url);
    }
  }
  bodies.clear();
  const minPages = site.config.minTemplatePages;
  // Off the event loop (rt.cpu): grouping parses every stored page of the site.
  const current = await currentTemplates(rt.db, siteId);
  // A page type keeps the name (its URL pattern) of the current template whose pattern it still
  // holds: named afresh by its most common pattern, it would be a new type and the old one
  // removed once another of its patterns outgrew the first.
  const clusters = (await rt.cpu.cluster({ pages, minPages })).map((cluster) => ({
    ...cluster,
    key: current.find((old) => cluster.urlPatterns.includes(old.cluster))?.cluster ?? cluster.key,
  }));
  // A page the clustering could not parse (empty, binary) is in no cluster.
  const clustered = new Set(clusters.flatMap((cluster) => cluster.members));
  for (const [index, page] of pages.entries()) if (!clustered.has(index)) unreadable.push(page.url);
  if (unreadable.length > 0) {
    rt.log.warn({ site: site.name, count: unreadable.length, urls: unreadable.slice(0, 10) }, 'pages skipped in template preparation: not readable HTML');
  }
  const templates: NewTemplate[] = [];
  for (const cluster of clusters) {
    if (cluster.members.length < minPages) continue;
    const sample = sampleOf(cluster.members).map((index) => (pages[index] as SitePage).html);
    // Off the event loop (rt.cpu): preparing a template reads dozens of pages.
    const { template, warnings } = await rt.cpu.prepare({ method: method.name, pages: sample });
    if (warnings.length > 0) rt.log.info({ site: site.name, cluster: cluster.key, warnings: warnings.slice(0, 10) }, 'template prepared with warnings');
    const prepared = { cluster: cluster.key, urlPatterns: cluster.urlPatterns, signature: cluster.signature, method: method.name, template };
    const previous = current.find((old) => old.cluster === cluster.key && old.method === method.name);
    templates.push({
      ...prepared,
      sampleSize: sample.length,
      pageCount: cluster.members.length,
      changes: current.length === 0 ? null : templateChanges(prepared, previous),
    });
  }
  const pageTypes = pageTypeOutcomes(clusters, templates, current);
  const kept = site.templateVersion;
  if (templates.length === 0) {
    return { previousVersion: kept, version: kept, reextract: 0, pageTypes };
  }
  if (pageTypes.every((type) => type.outcome === 'unchanged' || type.outcome === 'too-few-pages')) {
    if (!options.reextractAll) return { previousVersion: kept, version: kept, reextract: 0, pageTypes };
    // An analyst's run still brings every page to the version kept: readings of earlier versions' templates stand otherwise.
    await markOlderReadingsForReextraction(rt.db, siteId);
    return { previousVersion: kept, version: kept, reextract: await queueReextraction(rt, siteId, kept), pageTypes };
  }
  const version = await rt.db.transaction(async (tx) => {
    if (options.reextractAll) await markSiteForReextraction(tx, siteId);
    return insertTemplateVersion(tx, siteId, templates);
  });
  const reextract = await queueReextraction(rt, siteId, version);
  return { previousVersion: kept, version, reextract, pageTypes };
}

/**
 * Queues the extraction of the site's pages whose extraction does not stand (`pagesToExtract`)
 * with template version `version`; returns how many. Once per page and version however often
 * asked; a page a queued job brings up to date first is a no-op when this one runs.
 */
async function queueReextraction(rt: Runtime, siteId: number, version: number): Promise<number> {
  const reextract = await pagesToExtract(rt.db, siteId);
  const hashes = new Map(reextract.map((page) => [page.pageId, page.contentHash]));
  await rt.queues.addBulk(
    'extract',
    reextract.map(({ pageId }) => ({ pageId })),
    ({ pageId }) => extractionJobId(pageId, hashes.get(pageId) as string, version),
  );
  return reextract.length;
}

/**
 * What became of each page type: the clusters found, each judged by the template prepared for it
 * against the current version's, and the current version's page types that no longer have a
 * cluster (`removed`).
 */
function pageTypeOutcomes(
  clusters: readonly { key: string; members: readonly number[] }[],
  templates: readonly NewTemplate[],
  current: readonly StoredTemplate[],
) {
  const outcomes = clusters.map((cluster): PageTypeOutcome => {
    const template = templates.find((candidate) => candidate.cluster === cluster.key);
    const changes = template?.changes;
    return {
      cluster: cluster.key,
      pages: cluster.members.length,
      outcome: outcomeOf(
        template,
        current.some((old) => old.cluster === cluster.key),
      ),
      pathsAdded: changes?.pathsAdded.length ?? 0,
      pathsRemoved: changes?.pathsRemoved.length ?? 0,
      alsoChanged: changes?.alsoChanged ?? [],
    };
  });
  for (const old of current) {
    if (!clusters.some((cluster) => cluster.key === old.cluster)) {
      outcomes.push({ cluster: old.cluster, pages: 0, outcome: 'removed', pathsAdded: 0, pathsRemoved: 0, alsoChanged: [] });
    }
  }
  return outcomes;
}

/** A page type is `unchanged` when nothing of its template differs from the current version's: no path added or removed, nothing else changed. */
function outcomeOf(template: NewTemplate | undefined, hadTemplate: boolean): PageTypeOutcome['outcome'] {
  if (!template) return hadTemplate ? 'removed' : 'too-few-pages';
  const { changes } = template;
  if (!changes || changes.since === null) return 'new';
  return changes.pathsAdded.length + changes.pathsRemoved.length + (changes.alsoChanged?.length ?? 0) === 0 ? 'unchanged' : 'changed';
}

/** An even spread over a cluster's pages (in crawl order) and its newest pages, each once, in order. */
function sampleOf(members: readonly number[]): number[] {
  return [...new Set([...evenlySpread(members, SAMPLE_SIZE), ...members.slice(-NEWEST_PAGES)])].sort((a, b) => a - b);
}
