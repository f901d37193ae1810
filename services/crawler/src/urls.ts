import { urlGlob } from '@winnow/config';

/**
 * Query parameters that only track where a visitor came from: they make one page many URLs. An
 * entry ending in `*` is a prefix. Operators extend the list with `WINNOW_TRACKING_PARAMS`.
 */
export const DEFAULT_TRACKING_PARAMS: readonly string[] = [
  'utm_*',
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  'igshid',
  'ref_src',
];

/**
 * A URL in the one spelling the frontier stores, so that a page is added once however it is
 * linked: WHATWG parsing lower-cases the scheme and host, drops default ports and resolves dot
 * segments; the fragment and tracking parameters go, and an empty query (`?`) with them. Null for
 * anything that is not an absolute http(s) URL once resolved against `base`.
 */
export function normalizeUrl(raw: string, base?: string, trackingParams: readonly string[] = DEFAULT_TRACKING_PARAMS): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  for (const name of [...url.searchParams.keys()]) {
    if (trackingParams.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern))) url.searchParams.delete(name);
  }
  // An empty query (`/a?`, or one whose parameters all went) reads as '' yet keeps its `?` in
  // `href` until it is set: `/a?` and `/a` are one page.
  if (url.search === '') url.search = '';
  return url.href;
}

/** URLs longer than this are generated, not linked by people (session ids, calendars, filters). */
export const MAX_URL_LENGTH = 2048;
/** A path segment that occurs this often is a loop of relative links (`/a/b/a/b/a/b/…`). */
const MAX_SEGMENT_REPEATS = 3;

/**
 * Why a URL looks like a crawler trap, or null: too long, or a path that repeats a segment
 * `MAX_SEGMENT_REPEATS` times (relative links resolved against a wrong base, calendar loops).
 * Segments of digits alone are not counted: dates repeat them (`/12/12/12/`, a real article at
 * `/2012/09/2012/09/09/`), and a loop repeats its words too; one of digits only ends at the length.
 */
export function trapReason(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return `URL longer than ${MAX_URL_LENGTH} characters`;
  const counts = new Map<string, number>();
  for (const segment of new URL(url).pathname.split('/')) {
    if (segment === '' || /^\d+$/.test(segment)) continue;
    const count = (counts.get(segment) ?? 0) + 1;
    if (count >= MAX_SEGMENT_REPEATS) return `its path repeats the segment "${segment}" ${count} times`;
    counts.set(segment, count);
  }
  return null;
}

/**
 * True when a URL matches one of the site's allowed globs (Crawlee's `enqueueLinks` glob syntax,
 * case-insensitive, `.` paths included), in time linear in the URL (see `UrlGlob`).
 */
export function isAllowedUrl(url: string, globs: readonly string[]): boolean {
  return globs.some((glob) => urlGlob(glob).matches(url));
}

/** The host key politeness is counted by: host and port, so two sites on one machine are two hosts only if their ports differ. */
export function hostKey(url: string): string {
  return new URL(url).host;
}
