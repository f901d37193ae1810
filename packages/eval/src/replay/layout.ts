import type { GoldPage } from '../dataset.js';

/**
 * How a page without a URL in the dataset (all of daniel, a few dragnet sites) gets a path:
 * `canonical` its own `<link rel=canonical>` / `og:url` when that names the site's host (or is
 * relative), else `/page/<n>.html`; `flat` always `/page/<n>.html`; `id` `/<the id's last
 * segment>.html` (hash-like names, one URL pattern per page).
 */
export const PATH_RULES = ['canonical', 'flat', 'id'] as const;
export type PathRule = (typeof PATH_RULES)[number];

/** One dataset page as served: its unique path and query, where that came from, and its body. */
export interface ServedPage {
  page: GoldPage;
  path: string;
  how: 'dataset' | 'canonical' | 'id' | 'synthetic';
  body: Buffer;
}

/** A dataset site as a website: its pages (in id order) and a seed path that no page has, linking to them all. */
export interface SiteLayout {
  site: string;
  served: ServedPage[];
  seed: string;
}

export interface LayoutOptions {
  paths: PathRule;
  /**
   * Rewrite the pages' `<meta charset>` to utf-8. By default it is left as it is (the dataset's HTML
   * is already decoded, so the tag may be stale) and the body goes out as UTF-8 with a charset in
   * `Content-Type`, which wins over the tag in the WHATWG order, as for a real server that sends one.
   */
  rewriteCharset: boolean;
  /** A path and query as the crawler spells it (its URL normalisation): two pages must not share one. */
  crawlerKey: (pathAndQuery: string) => string;
}

const META_CHARSET = /<meta\b[^>]*\bcharset\s*=\s*["']?[\w-]+["']?[^>]*>/gi;

/** The site's host name without `www.`, for comparing canonical URLs. */
const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** The page's own canonical or og:url as path and query, when it names a page of `site` (or is relative). */
export function ownCanonical(html: string, site: string): string | null {
  const head = html.slice(0, 200_000);
  for (const tag of head.match(/<(?:link|meta)\b[^>]*>/gi) ?? []) {
    const isCanonical = /\brel\s*=\s*["']?canonical\b/i.test(tag) || /\bproperty\s*=\s*["']?og:url\b/i.test(tag);
    if (!isCanonical) continue;
    const value = /\b(?:href|content)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const raw = (value?.[1] ?? value?.[2] ?? value?.[3] ?? '').replace(/&amp;/g, '&').trim();
    if (!raw || !URL.canParse(raw, `http://${site}/`)) continue;
    const url = new URL(raw, `http://${site}/`);
    const host = bareHost(url.hostname);
    if (host === bareHost(site) || host.endsWith(`.${bareHost(site)}`) || bareHost(site).endsWith(`.${host}`)) return url.pathname + url.search;
  }
  return null;
}

/**
 * The site as served. Pages keep their dataset URL's path and query; two pages with one path get
 * `replay_dup=<n>` added to the later one's query (URL patterns ignore queries, so the page type is
 * unchanged). The pages' own links are left alone: most name the real hosts and are outside the
 * site, and relative ones lead to 404s here, which the crawler records as refused.
 */
export function siteLayout(site: string, pages: readonly GoldPage[], options: LayoutOptions): SiteLayout {
  const served: ServedPage[] = [];
  const taken = new Set<string>();
  let synthetic = 0;
  const ordered = [...pages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const page of ordered) {
    let path: string;
    let how: ServedPage['how'];
    const canonical = page.url && URL.canParse(page.url) ? null : options.paths === 'canonical' ? ownCanonical(page.html, site) : null;
    if (page.url && URL.canParse(page.url)) {
      const url = new URL(page.url);
      path = url.pathname + url.search;
      how = 'dataset';
    } else if (canonical) {
      path = canonical;
      how = 'canonical';
    } else if (options.paths === 'id') {
      path = `/${encodeURIComponent(page.id.split('/').pop() ?? page.id)}.html`;
      how = 'id';
    } else {
      path = `/page/${++synthetic}.html`;
      how = 'synthetic';
    }
    let unique = path;
    for (let n = 2; taken.has(options.crawlerKey(unique)); n++) unique = `${path}${path.includes('?') ? '&' : '?'}replay_dup=${n}`;
    taken.add(options.crawlerKey(unique));
    const html = options.rewriteCharset ? page.html.replace(META_CHARSET, '<meta charset="utf-8">') : page.html;
    served.push({ page, path: unique, how, body: Buffer.from(html, 'utf8') });
  }
  let seed = '/';
  for (let n = 1; taken.has(seed); n++) seed = `/replay-seed-${n}.html`;
  return { site, served, seed };
}

/** The site's name in Winnow: `r-` and its host in lower-case letters, digits and dashes (at most 63 characters). */
export function siteSlug(site: string): string {
  return `r-${site
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`.slice(0, 63);
}
