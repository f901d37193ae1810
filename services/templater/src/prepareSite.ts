import { clusterPages, decodeHtml, evenlySpread, type SitePage, templateMethodByName } from '@winnow/extract';
import type { Runtime } from '@winnow/runtime';
import { findSiteById, insertTemplateVersion, listStoredPages, loadRawPage, type NewTemplate, pagesToExtract } from '@winnow/storage';

/** Pages a template is prepared from per cluster: the FastCE paper uses 20-30; ContentExtractor's labelling grows with their square. */
export const SAMPLE_SIZE = 30;

export interface PreparationOutcome {
  /** The new template version, or null when no cluster had enough pages. */
  version: number | null;
  clusters: { cluster: string; pages: number; templated: boolean }[];
  reextract: number;
}

/**
 * Prepares a site's templates with the configured template method (`WINNOW_TEMPLATE_METHOD`):
 * clusters its stored pages into page types (`clusterPages`), prepares a template from up to
 * `SAMPLE_SIZE` evenly spread pages of every cluster with at least `minTemplatePages`, stores the
 * result as the site's next version in one transaction, and enqueues every page whose extraction
 * predates it.
 */
export async function prepareSite(rt: Runtime, siteId: number): Promise<PreparationOutcome> {
  const site = await findSiteById(rt.db, siteId);
  if (!site) throw new Error(`site ${siteId} does not exist`);
  const method = templateMethodByName(rt.env.WINNOW_TEMPLATE_METHOD);
  const stored = await listStoredPages(rt.db, siteId);
  const pages: SitePage[] = [];
  for (const page of stored) {
    const body = await loadRawPage(rt.db, page.contentHash as string);
    if (!body) continue;
    try {
      pages.push({ url: page.url, html: decodeHtml(body, page.contentType ?? undefined).html });
    } catch {
      // An undecodable body (binary) cannot teach a template; the extractor reports it for that page.
    }
  }
  const minPages = site.config.minTemplatePages;
  const clusters = clusterPages(pages, { minPages });
  const templates: NewTemplate[] = [];
  for (const cluster of clusters) {
    if (cluster.members.length < minPages) continue;
    const sample = evenlySpread(cluster.members, SAMPLE_SIZE).map((index) => (pages[index] as SitePage).html);
    const { template } = method.prepare(sample);
    templates.push({
      cluster: cluster.key,
      urlPatterns: cluster.urlPatterns,
      signature: cluster.signature,
      method: method.name,
      template,
      sampleSize: sample.length,
      pageCount: cluster.members.length,
    });
  }
  const summary = clusters.map((cluster) => ({ cluster: cluster.key, pages: cluster.members.length, templated: cluster.members.length >= minPages }));
  if (templates.length === 0) {
    rt.log.info({ site: site.name, clusters: summary }, 'no cluster has enough pages for a template yet');
    return { version: null, clusters: summary, reextract: 0 };
  }
  const version = await rt.db.transaction((tx) => insertTemplateVersion(tx, siteId, templates));
  const reextract = await pagesToExtract(rt.db, siteId);
  await rt.queues.addBulk(
    'extract',
    reextract.map((pageId) => ({ pageId })),
  );
  rt.log.info({ site: site.name, method: method.name, version, clusters: summary, reextract: reextract.length }, 'templates prepared');
  return { version, clusters: summary, reextract: reextract.length };
}
