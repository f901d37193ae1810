import type { Queryable } from './db.js';

/**
 * Why a URL a crawl found did not join its frontier: refused by the site's rules (outside its
 * allowed globs, a crawler trap, a sitemap on another origin), linked from a page at the site's
 * `maxDepth` (not followed), or left out by a budget of the crawl (`maxPages`,
 * `maxPagesPerPattern`, `maxSitemaps`).
 */
export const NOT_ADMITTED_REASONS = [
  'outside-allowed',
  'trap',
  'sitemap-elsewhere',
  'max-depth',
  'max-pages',
  'max-pages-per-pattern',
  'max-sitemaps',
] as const;
export type NotAdmittedReason = (typeof NOT_ADMITTED_REASONS)[number];

/** Examples kept per crawl and reason: enough to recognise the URLs, never a row per URL. */
export const NOT_ADMITTED_EXAMPLES = 5;
/** An example longer than this (a trap's URL can be any length) is cut, with an ellipsis. */
const EXAMPLE_LENGTH = 300;

/** URLs not admitted for one reason: how many, and the first few. */
export interface NotAdmittedCount {
  reason: NotAdmittedReason;
  urls: number;
  examples: string[];
}

/** What a crawl did not admit for one reason, and since when (for a budget: when the crawl reached it). */
export interface NotAdmitted extends NotAdmittedCount {
  crawlId: number;
  firstAt: Date;
}

/** Counts URLs not admitted by reason, keeping the first `NOT_ADMITTED_EXAMPLES` of each (a crawler's refusals, before they are recorded). */
export function countNotAdmitted(refused: Iterable<{ url: string; reason: NotAdmittedReason }>): NotAdmittedCount[] {
  const counts = new Map<NotAdmittedReason, NotAdmittedCount>();
  for (const { url, reason } of refused) {
    const count = counts.get(reason) ?? { reason, urls: 0, examples: [] };
    count.urls++;
    if (count.examples.length < NOT_ADMITTED_EXAMPLES) count.examples.push(url);
    counts.set(reason, count);
  }
  return [...counts.values()];
}

/**
 * Adds to a crawl's counts of URLs not admitted, in one statement whatever the reasons; examples
 * are kept until there are `NOT_ADMITTED_EXAMPLES` of a reason. Rows are written in reason order,
 * so that crawler processes adding at once never wait on each other in a cycle.
 */
export async function recordNotAdmitted(db: Queryable, crawlId: number, counts: readonly NotAdmittedCount[]): Promise<void> {
  const recorded = counts.filter((count) => count.urls > 0);
  if (recorded.length === 0) return;
  await db.query(
    `INSERT INTO not_admitted (crawl_id, reason, urls, examples)
     SELECT $1, c.reason, c.urls, ARRAY(SELECT CASE WHEN length(e) > $4 THEN left(e, $4 - 1) || '…' ELSE e END FROM unnest(c.examples) e LIMIT $3)
       FROM jsonb_to_recordset($2::jsonb) AS c(reason text, urls int, examples text[])
      ORDER BY c.reason
     ON CONFLICT (crawl_id, reason) DO UPDATE SET urls = not_admitted.urls + excluded.urls,
       examples = ARRAY(SELECT e FROM unnest(not_admitted.examples || excluded.examples) WITH ORDINALITY AS x(e, n) GROUP BY e ORDER BY min(n) LIMIT $3)`,
    [crawlId, JSON.stringify(recorded), NOT_ADMITTED_EXAMPLES, EXAMPLE_LENGTH],
  );
}

/** What a crawl did not admit, by reason, in the order of `NOT_ADMITTED_REASONS`. */
export async function notAdmitted(db: Queryable, crawlId: number): Promise<NotAdmitted[]> {
  const rows = await db.query<{ crawl_id: number; reason: NotAdmittedReason; urls: number; examples: string[]; first_at: Date }>(
    'SELECT crawl_id, reason, urls, examples, first_at FROM not_admitted WHERE crawl_id = $1 ORDER BY array_position($2::text[], reason)',
    [crawlId, NOT_ADMITTED_REASONS],
  );
  return rows.map((row) => ({ crawlId: row.crawl_id, reason: row.reason, urls: row.urls, examples: row.examples, firstAt: row.first_at }));
}
