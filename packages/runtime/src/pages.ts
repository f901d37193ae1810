import { WinnowError } from '@winnow/config';
import {
  findPagesByUrl,
  listPageExtractions,
  type PageExtraction,
  type PageExtractionFilters,
  type PageExtractionSummary,
  sitePageTypes,
} from '@winnow/storage';
import { InvalidRequestError, paging, quoted, requireSite, siteFilter } from './operations.js';
import type { Runtime } from './runtime.js';

/**
 * What the pipeline made of each page, for an analyst who prepares templates again and watches
 * extraction quality: a site's pages with their extraction (template version, method, words,
 * whether the self-check read them alone, warnings), narrowed to those that need a look, and one
 * page's extraction in full. `templates list` and `templates health` give the same as shares.
 */

export class PageNotFoundError extends WinnowError {
  override readonly name = 'PageNotFoundError';
  constructor(message: string) {
    super('not-found', message);
  }
}

export interface SitePagesParams extends PageExtractionFilters {
  page?: number | undefined;
  size?: number | undefined;
}

/** One page of a site's extractions, with what was asked (so that a reader knows what it is a page of). */
export interface SitePages {
  site: string;
  filters: { readAlone: boolean | null; empty: boolean | null; warnings: boolean | null; pageType: string | null };
  page: number;
  size: number;
  total: number;
  entries: PageExtractionSummary[];
}

export const PAGES_PAGE_SIZE = 50;

/** A filter is absent, true or false: anything else (a string from a form) is refused by name. */
function flag(value: unknown, name: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new InvalidRequestError(`${name} must be true or false`);
}

/**
 * The site's pages that have an extraction of their current body, in the order of their URLs, each
 * with its page type, template version, method, words, whether it was read alone and its first
 * warning (with how many); `page` counts from 1. A page type is one the site's templates were
 * prepared for (an unknown one is refused, naming them: a typo would list nothing).
 */
export async function sitePages(rt: Runtime, name: string, params: SitePagesParams = {}): Promise<SitePages> {
  const site = await requireSite(rt, name);
  const readAlone = flag(params.readAlone, 'readAlone');
  const empty = flag(params.empty, 'empty');
  const warnings = flag(params.warnings, 'warnings');
  const { page, size } = paging(params, PAGES_PAGE_SIZE);
  const { pageType } = params;
  if (pageType !== undefined) {
    const known = await sitePageTypes(rt.db, site.id);
    if (!known.includes(pageType)) {
      throw new InvalidRequestError(
        `${site.name} has no page type ${quoted(pageType)}; ${known.length > 0 ? `its templates' page types: ${known.join(', ')}` : 'it has no templates yet'}`,
      );
    }
  }
  const { total, entries } = await listPageExtractions(rt.db, site.id, { readAlone, empty, warnings, pageType, offset: (page - 1) * size, limit: size });
  return {
    site: site.name,
    filters: { readAlone: readAlone ?? null, empty: empty ?? null, warnings: warnings ?? null, pageType: pageType ?? null },
    page,
    size,
    total,
    entries,
  };
}

export interface PageParams {
  /** The page's URL as the crawl stored it (scheme and host in any case, and a fragment: they are compared as a browser spells them, fragment dropped). */
  url: unknown;
  /** The site whose page it is; needed only when two sites crawled the URL. */
  site?: string | undefined;
}

/** Longer than any URL the crawler admits (2,048 characters, a trap guard). */
const MAX_URL_LENGTH = 4096;
/** The schemes of the URLs the crawler fetches: a page has no other. */
const PAGE_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:']);

/**
 * One page's extraction in full: the listing's fields, every warning, the title and the main text.
 * A URL no site has a page for, a page not stored (with the crawler's reason) or not extracted
 * yet is a `PageNotFoundError`; a URL two sites crawled needs `site`.
 */
export async function pageExtraction(rt: Runtime, params: PageParams): Promise<PageExtraction> {
  const { url } = params;
  if (typeof url !== 'string' || url === '') throw new InvalidRequestError("url is required: the page's URL, as `winnow pages <site>` lists it");
  if (url.length > MAX_URL_LENGTH) throw new InvalidRequestError(`url is longer than ${MAX_URL_LENGTH} characters: no page has such a URL`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError(`url ${quoted(url)} is not an absolute URL (such as https://example.com/a)`);
  }
  if (!PAGE_PROTOCOLS.has(parsed.protocol)) throw new InvalidRequestError(`url ${quoted(url)} is not an http(s) URL: no page has such a URL`);
  const site = await siteFilter(rt, params.site);
  // The URL as given, and as a browser spells it (host lower-cased, default port dropped) without its fragment, the way the frontier stores URLs.
  // Given with a NUL, only the parser's spelling (%00) is looked up: no stored URL holds a NUL, and Postgres refuses one in text.
  parsed.hash = '';
  const spellings = [...new Set([url, parsed.href])].filter((spelling) => !spelling.includes('\u0000'));
  const found = await findPagesByUrl(rt.db, spellings, site?.name ?? null);
  const [first] = found;
  if (!first) {
    throw new PageNotFoundError(
      `${site ? `${site.name} has no page` : 'no site has a page'} ${quoted(url)}: no crawl reached that URL (a site's pages are listed with their URLs as the crawl spelled them)`,
    );
  }
  if (found.length > 1) {
    throw new InvalidRequestError(
      `${quoted(url)} is a page of ${found.length} sites (${found.map((page) => page.site).join(', ')}): name the site (--site <name> on the command line, site=<name> in the API's GET /pages?url=)`,
    );
  }
  if (first.extraction) return first.extraction;
  throw new PageNotFoundError(
    first.stored
      ? `${first.url} (${first.site}) is stored but not extracted yet`
      : `${first.url} (${first.site}) has no stored body: ${first.fetchError ?? 'it was not stored'}`,
  );
}
