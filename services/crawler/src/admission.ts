import { allowedGlobs, type SiteConfig, siteOrigins } from '@winnow/config';
import { urlPattern } from '@winnow/extract';
import {
  admitUrls,
  countNotAdmitted,
  type FrontierEntry,
  type FrontierKind,
  type NotAdmittedReason,
  type Queryable,
  recordNotAdmitted,
  type Site,
  urlsInFrontier,
} from '@winnow/storage';
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

/** Why a URL found on the site may not join its crawl: what the crawl log counts it under, and the words a refusal says. */
export interface LinkRefusal {
  reason: Extract<NotAdmittedReason, 'trap' | 'outside-allowed'>;
  why: string;
}

/**
 * Why a URL found on the site may not join its crawl, or null: a likely crawler trap, or outside
 * the site's allowed globs. The trap guards come first: they bound the URL's length before the
 * globs are matched. (Private addresses are judged when the URL is fetched, once its host name is
 * resolved.)
 */
export function refusedLink(url: string, config: SiteConfig): LinkRefusal | null {
  const trap = trapReason(url);
  if (trap) return { reason: 'trap', why: trap };
  return isAllowedUrl(url, allowedGlobs(config)) ? null : { reason: 'outside-allowed', why: "outside the site's allowed URLs" };
}

/** What a page or a sitemap leads to: URLs that may join the crawl, and URLs refused by the site's rules, with the reason. */
export interface Found {
  entries: FrontierEntry[];
  refused: { url: string; reason: NotAdmittedReason }[];
}

/** URLs found on the site (a page's links, a sitemap's entries), normalised and judged: those that may join the frontier at `depth`, and those the site's globs or the trap guards refuse. */
export function foundEntries(links: readonly string[], depth: number, rules: AdmissionRules): Found {
  const found: Found = { entries: [], refused: [] };
  const seen = new Set<string>();
  for (const link of links) {
    const url = normalizeUrl(link, undefined, rules.trackingParams);
    if (url === null || seen.has(url)) continue;
    seen.add(url);
    const refusal = refusedLink(url, rules.config);
    if (refusal) found.refused.push({ url, reason: refusal.reason });
    else found.entries.push(frontierEntry(url, depth));
  }
  return found;
}

/**
 * The links of a page at the site's `maxDepth`: none is followed, and those the site's rules
 * would admit are counted as beyond that depth (the others keep their own reason).
 */
export function beyondMaxDepth(found: Found): Found {
  return { entries: [], refused: [...found.refused, ...found.entries.map((entry) => ({ url: entry.url, reason: 'max-depth' as const }))] };
}

/**
 * Admits what was found to a crawl's frontier (`admitUrls`, within its budgets, revisits aside) and adds to the
 * crawl's log, counted by reason, the URLs the site's rules refused, those beyond its `maxDepth`
 * that the crawl does not have already, and those a budget left out: why a page was not crawled,
 * without a row per URL.
 */
export async function admitFound(db: Queryable, crawlId: number, site: Site, found: Found): Promise<void> {
  const { overBudget } = await admitUrls(db, crawlId, site.id, found.entries, {
    maxPages: site.config.maxPages,
    maxPerPattern: site.config.maxPagesPerPattern,
    maxSitemaps: site.config.maxSitemaps,
  });
  const admitted = await urlsInFrontier(
    db,
    crawlId,
    found.refused.filter((refusal) => refusal.reason === 'max-depth').map((refusal) => refusal.url),
  );
  const refused = found.refused.filter((refusal) => !admitted.has(refusal.url));
  await recordNotAdmitted(db, crawlId, [...countNotAdmitted(refused), ...overBudget]);
}

/**
 * What every crawl starts from, the first of a site or a recrawl: the seeds, and, when the site
 * asks for sitemaps, each seed origin's `/sitemap.xml` (the ones robots.txt names join when it is
 * read). Everything else is found from them under the site's current settings; the pages the site
 * already has are revisited as links reach them, and all the others once nothing else is left
 * (`revisitEntries`), outside `maxPages`.
 */
export function startingEntries(config: SiteConfig, trackingParams: readonly string[]): FrontierEntry[] {
  const entries: FrontierEntry[] = [];
  for (const seed of config.seeds) {
    const url = normalizeUrl(seed, undefined, trackingParams);
    if (url) entries.push(frontierEntry(url, 0));
  }
  if (config.sitemaps) {
    for (const origin of siteOrigins(config)) entries.push(frontierEntry(`${origin}/sitemap.xml`, 0, 'sitemap'));
  }
  return entries;
}

/**
 * The site's pages in its index that no link of a crawl reached (stored URLs, already normalised),
 * every one revisited at its end so that changed, moved and removed pages are noticed even when
 * nothing links to them any more, whatever budget the links used up: revisits count against none
 * (`admitUrls`). They are not reached from the seeds, so their links are not followed (`revisit`):
 * they sit at the site's `maxDepth`, where a canonical URL they name would join (within `maxPages`:
 * a new URL). A revisit that moved is replaced by its target, a revisit too (see `visit`'s `moved`).
 */
export function revisitEntries(config: SiteConfig, urls: readonly string[]): FrontierEntry[] {
  return urls.map((url) => frontierEntry(url, config.maxDepth, 'page', true));
}
