import { isDeepStrictEqual } from 'node:util';
import { decodeHtml, evenlySpread, type SitePage, type TemplateMethod, templateMethodByName } from '@winnow/extract';
import { extractionJobId } from '@winnow/queue';
import type { Runtime } from '@winnow/runtime';
import {
  currentTemplates,
  findSiteById,
  insertTemplateVersion,
  listStoredPages,
  loadRawPages,
  markSiteForReextraction,
  type NewTemplate,
  pagesToExtract,
  recordTemplateHealth,
  type StoredTemplate,
  type TemplateChanges,
} from '@winnow/storage';

/**
 * Pages a template is prepared from per cluster: an even spread over the cluster, plus its newest
 * pages, so that a redesign shows in the sample as soon as there are a few pages of it. The
 * pipeline groups the sample by layout and prepares each layout from at most 30 (the FastCE
 * paper uses 20-30).
 */
export const SAMPLE_SIZE = 60;
export const NEWEST_PAGES = 30;

export interface PreparationOutcome {
  /** The site's template version after the run (unchanged when the templates were), or null when no cluster had enough pages. */
  version: number | null;
  /** True when the run prepared exactly the templates the site has: no new version, nothing re-extracted. */
  unchanged: boolean;
  clusters: { cluster: string; pages: number; templated: boolean }[];
  reextract: number;
}

/**
 * Prepares a site's templates with the configured template method (`WINNOW_TEMPLATE_METHOD`):
 * records the current templates' health, clusters the stored pages into page types
 * (`clusterPages`), prepares a template for every cluster with at least `minTemplatePages` pages,
 * and — only when they differ from the current version's — stores them as the next version with
 * what changed (paths added and removed), and enqueues the pages whose extraction no longer stands:
 * read without a template of their type, or read alone (`pagesToExtract`); with `reextractAll` (an
 * analyst asked), every page. Pages that are not readable HTML are skipped and reported once per
 * run, never fatal to the site.
 */
export async function prepareSite(rt: Runtime, siteId: number, options: { reextractAll?: boolean } = {}): Promise<PreparationOutcome> {
  const site = await findSiteById(rt.db, siteId);
  if (!site) throw new Error(`site ${siteId} does not exist`);
  const method = templateMethodByName(rt.env.WINNOW_TEMPLATE_METHOD);
  await recordTemplateHealth(rt.db, siteId);
  const stored = await listStoredPages(rt.db, siteId);
  const bodies = await loadRawPages(rt.db, [...new Set(stored.map((page) => page.contentHash as string))]);
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
  const clusters = await rt.cpu.cluster({ pages, minPages });
  // A page the clustering could not parse (empty, binary) is in no cluster.
  const clustered = new Set(clusters.flatMap((cluster) => cluster.members));
  for (const [index, page] of pages.entries()) if (!clustered.has(index)) unreadable.push(page.url);
  if (unreadable.length > 0) {
    rt.log.warn({ site: site.name, count: unreadable.length, urls: unreadable.slice(0, 10) }, 'pages skipped in template preparation: not readable HTML');
  }
  const current = await currentTemplates(rt.db, siteId);
  const templates: NewTemplate[] = [];
  for (const cluster of clusters) {
    if (cluster.members.length < minPages) continue;
    const sample = sampleOf(cluster.members).map((index) => (pages[index] as SitePage).html);
    // Off the event loop (rt.cpu): preparing a template reads dozens of pages.
    const { template, warnings } = await rt.cpu.prepare({ method: method.name, pages: sample });
    if (warnings.length > 0) rt.log.info({ site: site.name, cluster: cluster.key, warnings: warnings.slice(0, 10) }, 'template prepared with warnings');
    const previous = current.find((old) => old.cluster === cluster.key && old.method === method.name);
    templates.push({
      cluster: cluster.key,
      urlPatterns: cluster.urlPatterns,
      signature: cluster.signature,
      method: method.name,
      template,
      sampleSize: sample.length,
      pageCount: cluster.members.length,
      changes: current.length === 0 ? null : changesOf(method, template, previous),
    });
  }
  const summary = clusters.map((cluster) => ({ cluster: cluster.key, pages: cluster.members.length, templated: cluster.members.length >= minPages }));
  if (templates.length === 0) {
    rt.log.info({ site: site.name, clusters: summary }, 'no cluster has enough pages for a template yet');
    return { version: null, unchanged: false, clusters: summary, reextract: 0 };
  }
  if (sameTemplates(current, templates)) {
    rt.log.info({ site: site.name, version: site.templateVersion }, 'templates unchanged: no new version');
    return { version: site.templateVersion, unchanged: true, clusters: summary, reextract: 0 };
  }
  const version = await rt.db.transaction(async (tx) => {
    if (options.reextractAll) await markSiteForReextraction(tx, siteId);
    return insertTemplateVersion(tx, siteId, templates);
  });
  // Once per page and version however often asked; a page a queued job brings up to date first is a no-op when this one runs.
  const reextract = await pagesToExtract(rt.db, siteId);
  const hashes = new Map(reextract.map((page) => [page.pageId, page.contentHash]));
  await rt.queues.addBulk(
    'extract',
    reextract.map(({ pageId }) => ({ pageId })),
    ({ pageId }) => extractionJobId(pageId, hashes.get(pageId) as string, version),
  );
  const changes = templates.map((template) => ({
    cluster: template.cluster,
    added: template.changes?.pathsAdded.length,
    removed: template.changes?.pathsRemoved.length,
  }));
  rt.log.info({ site: site.name, method: method.name, version, clusters: summary, changes, reextract: reextract.length }, 'templates prepared');
  return { version, unchanged: false, clusters: summary, reextract: reextract.length };
}

/** An even spread over a cluster's pages (in crawl order) and its newest pages, each once, in order. */
function sampleOf(members: readonly number[]): number[] {
  return [...new Set([...evenlySpread(members, SAMPLE_SIZE), ...members.slice(-NEWEST_PAGES)])].sort((a, b) => a - b);
}

/** Whether a run prepared the templates the site already has (sizes aside): then there is nothing to store or re-extract. */
function sameTemplates(current: readonly StoredTemplate[], prepared: readonly NewTemplate[]): boolean {
  const essence = (template: Pick<StoredTemplate, 'cluster' | 'urlPatterns' | 'signature' | 'method' | 'template'>) => ({
    cluster: template.cluster,
    urlPatterns: template.urlPatterns,
    signature: template.signature,
    method: template.method,
    // As stored: through JSON, as Postgres returns it (key order aside, which the comparison ignores).
    template: JSON.parse(JSON.stringify(template.template)) as unknown,
  });
  const byCluster = (a: { cluster: string }, b: { cluster: string }) => a.cluster.localeCompare(b.cluster);
  return isDeepStrictEqual([...current].sort(byCluster).map(essence), [...prepared].sort(byCluster).map(essence));
}

function changesOf(method: TemplateMethod, template: unknown, previous: StoredTemplate | undefined): TemplateChanges {
  const now = new Set(method.contentPaths(template));
  const before = new Set(previous ? method.contentPaths(method.parseTemplate(previous.template)) : []);
  return {
    since: previous?.version ?? null,
    pathsAdded: [...now].filter((path) => !before.has(path)).sort(),
    pathsRemoved: [...before].filter((path) => !now.has(path)).sort(),
  };
}
