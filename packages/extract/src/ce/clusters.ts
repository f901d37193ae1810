import { ExtractionError } from '../result/errors.js';
import { jaccard, mostSimilar, sharedPaths, structureOf } from '../html/structure.js';

/** A page of a site, as the clustering reads it. */
export interface SitePage {
  url: string;
  html: string;
}

/** A page type of a site: pages whose URLs look alike and whose block structure agrees. */
export interface PageCluster {
  /** The most common URL pattern among the members; names the cluster. */
  key: string;
  urlPatterns: string[];
  /** Block paths at least half of the members have. */
  signature: string[];
  /** Indices of the members in the input. */
  members: number[];
}

export interface ClusterOptions {
  /** A cluster smaller than this joins its structurally nearest cluster, if one is near enough. */
  minPages?: number;
  /** Jaccard similarity of signatures at or above which two URL patterns are one page type. */
  samePageType?: number;
  /** Jaccard similarity a small cluster or an unknown page needs to join a cluster. */
  nearEnough?: number;
}

const DEFAULTS = { minPages: 10, samePageType: 0.85, nearEnough: 0.6 };

/** English month names and their usual abbreviations, as date paths spell them (`/2011/dec/05/`). */
const MONTH = /^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?)$/i;

/**
 * A URL's pattern: its path with every run of digits as `:n`, long hyphenated slugs as `:slug` and
 * month names as `:month` (a date path's month is no page type: the Guardian's December and January
 * articles were two page types, each too small for a template); host and query are ignored.
 * `/articles/17.html` → `/articles/:n.html`.
 */
export function urlPattern(url: string): string {
  const path = URL.canParse(url) ? new URL(url).pathname : (url.split(/[?#]/)[0] ?? '');
  return path
    .split('/')
    .map((segment) => {
      const [stem = '', ...extension] = segment.split('.');
      const slug = stem.length > 20 && (stem.match(/-/g)?.length ?? 0) >= 2 ? ':slug' : MONTH.test(stem) ? ':month' : stem.replace(/\d+/g, ':n');
      return [slug, ...extension].join('.');
    })
    .join('/');
}

interface Group {
  patterns: Map<string, number>;
  members: number[];
  structures: Set<string>[];
  signature: Set<string>;
}

function signatureOf(structures: readonly Set<string>[]): Set<string> {
  return new Set(sharedPaths(structures));
}

/**
 * Groups a site's pages into page types, as the template worker needs them (an article template
 * must not learn from list pages). Choices, since no paper covers this step:
 * 1. Pages are grouped by URL pattern (`urlPattern`): sites name their page types in their URLs.
 * 2. Groups whose structural signatures (block paths most members share) are nearly the same
 *    (Jaccard >= `samePageType`) are one page type under several patterns (a home page and the
 *    numbered pages of the same list).
 * 3. A group smaller than `minPages` joins the nearest larger group if its signature is near
 *    enough (Jaccard >= `nearEnough`).
 * 4. When the site has `minPages` pages, the groups still smaller than that join the largest
 *    group: no page goes without a template because its page type is rare on the site (a site's
 *    older design, pages whose URLs all look different), as no page does under the k-fold
 *    protocol, which prepares one template per site. The pipeline's template separates the
 *    layouts within a page type, and its self-check reads alone a page the template does not fit.
 *    Replayed as crawled sites (`winnow eval --replay`): dragnet's bbc.co.uk (10 pages in
 *    page types of 8, 1 and 1) went from no template and 0.779 lcs F1 to 0.881 (k-fold: 0.894),
 *    dragnet's indexed text as a whole from 0.956 to 0.961 (k-fold: 0.962); daniel's sites served
 *    under hash-like page names (each page a URL pattern of its own) from 0.934 to 0.936, as
 *    under their own paths.
 * Clusters come largest first. A page that is not readable HTML (its parse throws an
 * `ExtractionError`: empty, binary) is in no cluster, so that one bad page cannot fail a whole
 * site's preparation; the caller reports the pages no cluster lists.
 */
export function clusterPages(pages: readonly SitePage[], options: ClusterOptions = {}): PageCluster[] {
  const settings = { ...DEFAULTS, ...options };
  const byPattern = new Map<string, Group>();
  pages.forEach((page, index) => {
    let structure: Set<string>;
    try {
      structure = structureOf(page.html);
    } catch (error) {
      if (error instanceof ExtractionError) return;
      throw error;
    }
    const pattern = urlPattern(page.url);
    let group = byPattern.get(pattern);
    if (!group) {
      group = { patterns: new Map([[pattern, 0]]), members: [], structures: [], signature: new Set() };
      byPattern.set(pattern, group);
    }
    group.patterns.set(pattern, (group.patterns.get(pattern) ?? 0) + 1);
    group.members.push(index);
    group.structures.push(structure);
  });
  let groups = [...byPattern.values()];
  for (const group of groups) group.signature = signatureOf(group.structures);

  /** Moves every group of `from` into `into`, whose signature is then computed once. */
  const merge = (into: Group, ...from: Group[]) => {
    for (const group of from) {
      for (const [pattern, count] of group.patterns) into.patterns.set(pattern, (into.patterns.get(pattern) ?? 0) + count);
      for (const member of group.members) into.members.push(member);
      for (const structure of group.structures) into.structures.push(structure);
    }
    into.signature = signatureOf(into.structures);
    groups = groups.filter((group) => !from.includes(group));
  };

  for (let merged = true; merged; ) {
    merged = false;
    groups.sort((a, b) => b.members.length - a.members.length);
    search: for (const [i, a] of groups.entries()) {
      for (const b of groups.slice(i + 1)) {
        if (jaccard(a.signature, b.signature) >= settings.samePageType) {
          merge(a, b);
          merged = true;
          break search;
        }
      }
    }
  }
  for (const small of [...groups].sort((a, b) => a.members.length - b.members.length)) {
    if (small.members.length >= settings.minPages) continue;
    const nearest = mostSimilar(
      small.signature,
      groups.filter((group) => group !== small && group.members.length >= small.members.length),
      (group) => group.signature,
    );
    if (nearest && nearest.similarity >= settings.nearEnough) merge(nearest.candidate, small);
  }

  groups.sort((a, b) => b.members.length - a.members.length);
  const [largest, ...others] = groups;
  const rare = others.filter((group) => group.members.length < settings.minPages);
  if (largest && rare.length > 0 && groups.reduce((sum, group) => sum + group.members.length, 0) >= settings.minPages) merge(largest, ...rare);
  return groups
    .sort((a, b) => b.members.length - a.members.length)
    .map((group) => {
      const patterns = [...group.patterns].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([pattern]) => pattern);
      return { key: patterns[0] as string, urlPatterns: patterns, signature: [...group.signature].sort(), members: group.members.sort((a, b) => a - b) };
    });
}

/** What `clusterFor` needs of a cluster. */
export interface ClusterShape {
  urlPatterns: readonly string[];
  signature: readonly string[];
}

/**
 * The cluster a page belongs to: the one listing its URL pattern, else the one whose signature is
 * nearest its structure if near enough (a page type met under a new URL), else none.
 */
export function clusterFor<Cluster extends ClusterShape>(page: SitePage, clusters: readonly Cluster[], nearEnough = DEFAULTS.nearEnough): Cluster | undefined {
  const pattern = urlPattern(page.url);
  const byUrl = clusters.find((cluster) => cluster.urlPatterns.includes(pattern));
  if (byUrl) return byUrl;
  const nearest = mostSimilar(structureOf(page.html), clusters, (cluster) => new Set(cluster.signature));
  return nearest && nearest.similarity >= nearEnough ? nearest.candidate : undefined;
}
