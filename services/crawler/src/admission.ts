import { allowedGlobs, type SiteConfig, siteOrigins } from '@winnow/config';
import { urlPattern } from '@winnow/extract';
import type { FrontierEntry, FrontierKind } from '@winnow/storage';
import { hostKey, isAllowedUrl, normalizeUrl, trapReason } from './urls.js';

/** How the crawler spells and filters URLs for one site. */
export interface AdmissionRules {
  config: SiteConfig;
  trackingParams: readonly string[];
}

/** A frontier entry for a URL already normalised. */
export function frontierEntry(url: string, depth: number, kind: FrontierKind = 'page', revisit = false): FrontierEntry {
  return { url, host: hostKey(url), kind, depth, pattern: urlPattern(url), revisit };
}

/**
 * Why a URL found on the site may not join its crawl, or null: a likely crawler trap, or outside
 * the site's allowed globs. The trap guards come first: they bound the URL's length before the
 * globs are matched. (Private addresses are judged when the URL is fetched, once its host name is
 * resolved.)
 */
export function refusedLink(url: string, config: SiteConfig): string | null {
  return trapReason(url) ?? (isAllowedUrl(url, allowedGlobs(config)) ? null : "outside the site's allowed URLs");
}

/** URLs found on the site (a page's links, a sitemap's entries) that may join the frontier at `depth`: normalised, within the site's globs, not traps. */
export function foundEntries(links: readonly string[], depth: number, rules: AdmissionRules): FrontierEntry[] {
  const entries: FrontierEntry[] = [];
  const seen = new Set<string>();
  for (const link of links) {
    const url = normalizeUrl(link, undefined, rules.trackingParams);
    if (url === null || seen.has(url) || refusedLink(url, rules.config) !== null) continue;
    seen.add(url);
    entries.push(frontierEntry(url, depth));
  }
  return entries;
}

/**
 * What a new crawl starts from: the seeds; the pages the site already has (a recrawl revisits
 * them, so that changed, moved and removed pages are noticed even when nothing links to them any
 * more); and, when the site asks for sitemaps, each seed origin's `/sitemap.xml` (the ones
 * robots.txt names join when it is read).
 */
export function startingEntries(config: SiteConfig, knownUrls: readonly string[], trackingParams: readonly string[]): FrontierEntry[] {
  const entries: FrontierEntry[] = [];
  for (const seed of config.seeds) {
    const url = normalizeUrl(seed, undefined, trackingParams);
    if (url) entries.push(frontierEntry(url, 0));
  }
  const known = new Set(knownUrls);
  const seeds = new Set(entries.map((entry) => entry.url));
  for (const entry of entries) entry.revisit = known.has(entry.url);
  for (const url of known) if (!seeds.has(url)) entries.push(frontierEntry(url, 1, 'page', true));
  if (config.sitemaps) {
    for (const origin of siteOrigins(config)) entries.push(frontierEntry(`${origin}/sitemap.xml`, 0, 'sitemap'));
  }
  return entries;
}
