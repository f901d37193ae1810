/**
 * The reason class of a visit's outcome, as the crawler's metrics and activity lines count it: a
 * few dozen values at most, where the crawl log keeps each URL's reason in full (`HTTP 404`,
 * `not HTML: application/pdf`, `robots.txt line 2: Disallow: /private/`). Read from the reason's
 * words, which visit.ts and fetcher.ts write: a reason this does not know is `other`, so a new one
 * is counted, only less precisely, until it is given a class here.
 */
export function reasonClass(outcome: string, reason: string | null | undefined): string {
  if (!reason) return 'none';
  if (outcome === 'disallowed') return 'robots-disallowed';
  const status = /^HTTP (\d{3})\b/.exec(reason)?.[1];
  if (outcome === 'moved') return 'redirect';
  if (status) return ['403', '404', '410', '429', '503'].includes(status) ? `http-${status}` : `http-${status[0]}xx`;
  for (const [pattern, name] of REASONS) if (pattern.test(reason)) return name;
  return 'other';
}

/** Reason texts and their class, first match wins; most specific first. */
const REASONS: readonly [RegExp, string][] = [
  [/\(fetching robots\.txt\)|^robots\.txt answered/, 'robots-unavailable'],
  [/^robots\.txt line \d+/, 'robots-disallowed'],
  [/^redirect to .* refused/, 'redirect-refused'],
  [/outside the site's allowed URLs/, 'outside-allowed'],
  [/^not HTML\b/, 'not-html'],
  [/^empty body$/, 'empty-body'],
  [/robots noindex/, 'noindex'],
  [/body larger than the limit/, 'too-large'],
  [/no complete response within/, 'timeout'],
  [/^refused: .*(private|loopback|metadata|may not reach|address)/, 'address-refused'],
  [/^refused: /, 'refused-url'],
  [/^sitemap answered|^unreadable sitemap|^a sitemap index listed by a sitemap index/, 'sitemap'],
  [/content-encoding|could not be decompressed|bad HTTP response/, 'bad-response'],
  [/could not be recorded/, 'not-recorded'],
  [/^fetch failed: /, 'unreachable'],
];

/** A response status as the fetch latency histogram labels it: `2xx`, `3xx`, `4xx`, `5xx`. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
