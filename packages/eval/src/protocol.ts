import type { GoldPage } from './dataset.js';

/** One site's pages split for k-fold evaluation of a template method. */
export interface SiteFolds {
  site: string;
  pages: GoldPage[];
  /** `folds[i]` are the held-out pages of fold i; the template of fold i sees every other page. */
  folds: GoldPage[][];
}

export interface FoldOptions {
  minPagesPerSite: number;
  folds: number;
}

/**
 * The template protocol: only sites with at least `minPagesPerSite` pages take part; each site's
 * pages (ordered by id, so runs are repeatable) are dealt round-robin into `folds` folds, and every
 * fold is extracted with a template prepared on the other folds — a page is never scored with a
 * template that saw it.
 */
export function siteFolds(pages: readonly GoldPage[], options: FoldOptions): SiteFolds[] {
  if (!Number.isInteger(options.folds) || options.folds < 2) throw new RangeError('--folds must be an integer of at least 2');
  if (!Number.isInteger(options.minPagesPerSite) || options.minPagesPerSite < options.folds) {
    throw new RangeError('--min-pages-per-site must be an integer no smaller than --folds');
  }
  const bySite = new Map<string, GoldPage[]>();
  for (const page of pages) {
    const sitePages = bySite.get(page.site) ?? [];
    sitePages.push(page);
    bySite.set(page.site, sitePages);
  }
  return [...bySite.entries()]
    .filter(([, sitePages]) => sitePages.length >= options.minPagesPerSite)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([site, sitePages]) => {
      const ordered = [...sitePages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const folds: GoldPage[][] = Array.from({ length: options.folds }, () => []);
      ordered.forEach((page, i) => {
        folds[i % options.folds]!.push(page);
      });
      return { site, pages: ordered, folds };
    });
}
