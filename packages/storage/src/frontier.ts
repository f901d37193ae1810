import { SITE_DEFAULTS } from '@winnow/config';
import type { Queryable } from './db.js';
import type { CrawlLogOutcome, FrontierOutcome } from './outcomes.js';
import { NOT_ADMITTED_EXAMPLES, type NotAdmittedCount } from './notAdmitted.js';

export type FrontierKind = 'page' | 'sitemap';

/** A URL to admit to a crawl's frontier, already normalised by the crawler. */
export interface FrontierEntry {
  url: string;
  host: string;
  kind: FrontierKind;
  depth: number;
  pattern: string;
  /**
   * A page the site has in its index that no link of this crawl reached, admitted once nothing else
   * was left (`unreachedPages`): revisited for changes, removals and moves, its links not followed;
   * or the URL such a page now redirects to, which replaces it. Revisits are outside the crawl's
   * budgets (`admitUrls`). (Every page the site has is fetched with its validators, revisit or not.)
   */
  revisit?: boolean;
}

/** A frontier row a crawler process holds a lease on. */
export interface LeasedUrl extends FrontierEntry {
  id: number;
  crawlId: number;
  siteId: number;
  /** Fetches tried before this one. */
  attempts: number;
  /** Another process held this URL and its lease lapsed (it died): it may have stored the page already. */
  lapsed: boolean;
  /**
   * The site has a page row for this URL (stored, refused or gone before): only then is there an
   * earlier fetch to read (`previousFetch`), which a site's first crawl need not ask the database
   * for, page after page.
   */
  known: boolean;
}

export interface AdmissionLimits {
  /** Pages a crawl admits at most through links and sitemaps (the site's `maxPages`); sitemaps and revisits do not count. */
  maxPages: number;
  /** Pages of one URL pattern a crawl admits at most through links and sitemaps (revisits aside); 0 for no cap. */
  maxPerPattern: number;
  /** Sitemap files a crawl admits at most (the site's `maxSitemaps`). */
  maxSitemaps: number;
}

/**
 * Adds URLs to a running crawl's frontier, each once (a URL already there is skipped), within the
 * crawl's page budget and per-pattern cap, and its sitemaps within their own budget (counted from
 * the frontier's sitemap rows). The crawl's row is locked while its budgets are counted,
 * so crawler processes admitting links at once never exceed it. Revisits (`revisit`: pages the
 * site already has in its index, that no link of the crawl reached) are admitted whatever the
 * budgets and count against none of them: the budgets bound what a crawl adds through links and
 * sitemaps, and the revisits are bounded by the pages the site holds, which earlier crawls'
 * budgets bounded; leaving some out would leave removed pages in the index for ever. Returns how
 * many were admitted, and the URLs a budget left out, counted by budget (for `recordNotAdmitted`).
 */
export async function admitUrls(
  db: Queryable,
  crawlId: number,
  siteId: number,
  entries: readonly FrontierEntry[],
  limits: AdmissionLimits,
): Promise<{ admitted: number; overBudget: NotAdmittedCount[] }> {
  if (entries.length === 0) return { admitted: 0, overBudget: [] };
  const rows = await db.query<{ admitted: number; over_budget: NotAdmittedCount[] }>(
    `WITH budget AS (
       SELECT $7::int - urls_admitted AS room FROM crawls WHERE id = $1 AND state = 'running' FOR UPDATE),
     candidates AS (
       SELECT DISTINCT ON (u.url) u.url, u.host, u.kind, u.depth, u.pattern, u.revisit, u.ord
         FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $9::text[], $10::boolean[]) WITH ORDINALITY AS u(url, host, kind, depth, pattern, revisit, ord)
        WHERE NOT EXISTS (SELECT 1 FROM frontier f WHERE f.crawl_id = $1 AND f.url = u.url)
        ORDER BY u.url, u.ord),
     ranked AS (
       SELECT c.*,
              count(*) FILTER (WHERE c.kind = 'page' AND NOT c.revisit) OVER (ORDER BY c.ord) AS page_rank,
              count(*) FILTER (WHERE c.kind = 'sitemap') OVER (ORDER BY c.ord) AS sitemap_rank,
              CASE WHEN $8::int = 0 OR c.revisit THEN 0 ELSE count(*) FILTER (WHERE NOT c.revisit) OVER (PARTITION BY c.pattern ORDER BY c.ord)
                + (SELECT count(*) FROM frontier f WHERE f.crawl_id = $1 AND f.pattern = c.pattern AND f.kind = 'page' AND NOT f.revisit) END AS pattern_rank
         FROM candidates c),
     judged AS (
       SELECT r.*, CASE WHEN r.revisit THEN NULL
                     WHEN r.kind = 'sitemap'
                     THEN CASE WHEN r.sitemap_rank + (SELECT count(*) FROM frontier f WHERE f.crawl_id = $1 AND f.kind = 'sitemap') > $11::int THEN 'max-sitemaps' END
                     WHEN r.page_rank > (SELECT room FROM budget) THEN 'max-pages'
                     WHEN $8::int <> 0 AND r.pattern_rank > $8::int THEN 'max-pages-per-pattern' END AS over_budget
         FROM ranked r WHERE (SELECT room FROM budget) IS NOT NULL),
     admitted AS (
       INSERT INTO frontier (crawl_id, site_id, url, host, kind, depth, pattern, revisit)
       SELECT $1, $2, j.url, j.host, j.kind, j.depth, j.pattern, j.revisit FROM judged j WHERE j.over_budget IS NULL
       ON CONFLICT (crawl_id, url) DO NOTHING
       RETURNING kind, revisit),
     left_out AS (
       SELECT j.over_budget AS reason, count(*)::int AS urls, (array_agg(j.url ORDER BY j.ord))[1:$12::int] AS examples
         FROM judged j WHERE j.over_budget IS NOT NULL GROUP BY j.over_budget)
     UPDATE crawls SET urls_admitted = urls_admitted + (SELECT count(*) FROM admitted WHERE kind = 'page' AND NOT revisit)
      WHERE id = $1
      RETURNING (SELECT count(*)::int FROM admitted) AS admitted, (SELECT coalesce(json_agg(l), '[]') FROM left_out l) AS over_budget`,
    [
      crawlId,
      siteId,
      entries.map((entry) => entry.url),
      entries.map((entry) => entry.host),
      entries.map((entry) => entry.kind),
      entries.map((entry) => entry.depth),
      limits.maxPages,
      limits.maxPerPattern,
      entries.map((entry) => entry.pattern),
      entries.map((entry) => entry.revisit ?? false),
      limits.maxSitemaps,
      NOT_ADMITTED_EXAMPLES,
    ],
  );
  return { admitted: rows[0]?.admitted ?? 0, overBudget: rows[0]?.over_budget ?? [] };
}

/**
 * Which of `urls` a crawl's frontier has: a link found beyond the site's `maxDepth` is counted as
 * not admitted only when the crawl has not admitted it already (found nearer the seeds).
 */
export async function urlsInFrontier(db: Queryable, crawlId: number, urls: readonly string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const rows = await db.query<{ url: string }>('SELECT url FROM frontier WHERE crawl_id = $1 AND url = ANY($2::text[])', [crawlId, urls]);
  return new Set(rows.map((row) => row.url));
}

interface LeasedRow {
  id: number;
  crawl_id: number;
  site_id: number;
  url: string;
  host: string;
  kind: FrontierKind;
  depth: number;
  pattern: string;
  revisit: boolean;
  attempts: number;
  lapsed: boolean;
  known: boolean;
}

/**
 * How many open URLs, in id order, one lease looks at per URL asked for: a lease takes at most a
 * host's free slots of them, so it reads further than `limit` to reach many hosts (a host's links
 * arrive as consecutive rows).
 */
const LEASE_SCAN_PER_URL = 16;

/**
 * Leases up to `limit` URLs of running crawls to `owner` for `leaseMs`: queued ones whose time has
 * come, and leased ones whose lease lapsed (their process died), oldest first — breadth first, since
 * rows are numbered as they are discovered. Rows another process is leasing at this moment are
 * skipped, not waited for. `skipHosts` are hosts the caller knows must wait.
 *
 * A host gets at most its free slots: its site's `concurrency` less the URLs of the host leased and
 * live now, by any process (what Postgres knows of a host's pace; its interval is kept in Redis).
 * Hosts with none free are passed over, so one lease spreads over many hosts instead of holding
 * the oldest host's URLs, most of which would have to wait for it and go back to the queue.
 * (The running crawls are an array, not a join: a join let the planner sort every open row
 * instead of reading `frontier_open` in id order until the scan is full.)
 */
export async function leaseUrls(db: Queryable, owner: string, limit: number, leaseMs: number, skipHosts: readonly string[] = []): Promise<LeasedUrl[]> {
  const rows = await db.query<LeasedRow>(
    `WITH live AS (
       SELECT f.host, count(*) AS leased, max(coalesce((s.config->>'concurrency')::int, $6::int)) AS slots
         FROM frontier f JOIN sites s ON s.id = f.site_id
        WHERE f.state = 'leased' AND f.lease_until >= now() GROUP BY f.host),
     open AS (
       SELECT q.id, q.host, q.site_id FROM frontier q
        WHERE q.state IN ('queued', 'leased') AND q.crawl_id = ANY(ARRAY(SELECT id FROM crawls WHERE state = 'running'))
          AND (q.state = 'queued' OR q.lease_until < now()) AND q.not_before <= now()
          AND q.host <> ALL($4::text[]) AND q.host NOT IN (SELECT host FROM live WHERE leased >= slots)
        ORDER BY q.id LIMIT $2::int * $5::int),
     spread AS (
       SELECT o.id FROM (
         SELECT o.id, o.host, o.site_id, row_number() OVER (PARTITION BY o.host ORDER BY o.id) AS nth FROM open o) o
         JOIN sites s ON s.id = o.site_id LEFT JOIN live l ON l.host = o.host
        WHERE o.nth + coalesce(l.leased, 0) <= coalesce((s.config->>'concurrency')::int, $6::int)
        ORDER BY o.id LIMIT $2::int),
     picked AS (
       SELECT q.id, q.state = 'leased' AS lapsed FROM frontier q
        WHERE q.id IN (SELECT id FROM spread) AND (q.state = 'queued' OR (q.state = 'leased' AND q.lease_until < now())) AND q.not_before <= now()
        ORDER BY q.id FOR UPDATE OF q SKIP LOCKED)
     UPDATE frontier f SET state = 'leased', lease_owner = $1, lease_until = now() + make_interval(secs => $3::float8 / 1000)
       FROM picked
      WHERE f.id = picked.id
      RETURNING f.id, f.crawl_id, f.site_id, f.url, f.host, f.kind, f.depth, f.pattern, f.revisit, f.attempts, picked.lapsed,
                EXISTS (SELECT 1 FROM pages p WHERE p.site_id = f.site_id AND p.url = f.url) AS known`,
    [owner, limit, leaseMs, skipHosts, LEASE_SCAN_PER_URL, SITE_DEFAULTS.concurrency],
  );
  return rows
    .sort((a, b) => a.id - b.id)
    .map((row) => ({
      id: row.id,
      crawlId: row.crawl_id,
      siteId: row.site_id,
      url: row.url,
      host: row.host,
      kind: row.kind,
      depth: row.depth,
      pattern: row.pattern,
      revisit: row.revisit,
      attempts: row.attempts,
      lapsed: row.lapsed,
      known: row.known,
    }));
}

/** Extends every lease `owner` holds: a process renews while it works, so only a dead one's leases lapse. */
export async function renewLeases(db: Queryable, owner: string, leaseMs: number): Promise<void> {
  await db.query(`UPDATE frontier SET lease_until = now() + make_interval(secs => $2::float8 / 1000) WHERE lease_owner = $1 AND state = 'leased'`, [
    owner,
    leaseMs,
  ]);
}

/** A leased URL's end: its outcome, the reason when it was not stored, the page it produced. */
export interface Completion {
  id: number;
  outcome: FrontierOutcome;
  error?: string | null;
  pageId?: number | null;
}

/**
 * Marks leased URLs done with their outcomes, in one statement however many; a lease that lapsed
 * and went to another process is left to it.
 */
export async function completeUrls(db: Queryable, owner: string, completions: readonly Completion[]): Promise<void> {
  if (completions.length === 0) return;
  await db.query(
    `UPDATE frontier f SET state = 'done', outcome = c.outcome, error = c.error, page_id = c.page_id, attempts = f.attempts + 1,
            lease_owner = NULL, done_by = $1, done_at = now()
       FROM unnest($2::int[], $3::text[], $4::text[], $5::int[]) AS c(id, outcome, error, page_id)
      WHERE f.id = c.id AND f.lease_owner = $1 AND f.state = 'leased'`,
    [
      owner,
      completions.map((completion) => completion.id),
      completions.map((completion) => completion.outcome),
      completions.map((completion) => completion.error ?? null),
      completions.map((completion) => completion.pageId ?? null),
    ],
  );
}

/**
 * Gives a leased URL back to the frontier, not to be fetched before `delayMs` from now:
 * `attempted` when a fetch was tried and failed in a way that can pass (it counts towards the
 * URL's retries), not when the host simply asked to wait.
 */
export async function requeueUrl(db: Queryable, id: number, owner: string, delayMs: number, attempted: boolean): Promise<void> {
  await db.query(
    `UPDATE frontier SET state = 'queued', lease_owner = NULL, lease_until = NULL, attempts = attempts + $4::int,
            not_before = now() + make_interval(secs => $3::float8 / 1000)
      WHERE id = $1 AND lease_owner = $2 AND state = 'leased'`,
    [id, owner, delayMs, attempted ? 1 : 0],
  );
}

/** Every URL `owner` holds goes back to the queue at once (a process that stops cleanly). */
export async function releaseLeases(db: Queryable, owner: string): Promise<void> {
  await db.query(`UPDATE frontier SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND state = 'leased'`, [owner]);
}

/**
 * The site's pages in its index (a body, not gone or withdrawn) that a crawl has not admitted (no
 * link of it reached them), in page order after page `afterId`, at most `limit`: every one of them
 * is revisited at the crawl's end (conditionally), so that changes, removals and moves are seen
 * even of pages nothing links to any more. A page the crawl admits meanwhile drops out, so the
 * caller pages through them by the last id it read.
 */
export async function unreachedPages(db: Queryable, siteId: number, crawlId: number, afterId: number, limit: number): Promise<{ id: number; url: string }[]> {
  return db.query<{ id: number; url: string }>(
    `SELECT p.id, p.url FROM pages p
      WHERE p.site_id = $1 AND p.content_hash IS NOT NULL AND p.id > $3
        AND NOT EXISTS (SELECT 1 FROM frontier f WHERE f.crawl_id = $2 AND f.url = p.url)
      ORDER BY p.id LIMIT $4`,
    [siteId, crawlId, afterId, limit],
  );
}

/**
 * Records on the frontier row of the crawl that fetched a page last what the indexer decided of
 * the page (`resolveDuplicates`): the URL of the page it is indexed under and why, or none. `source`
 * is a relation of pages' `crawl_id, url, duplicate_of, duplicate_by`. A crawl that fetched a page
 * before keeps what was decided of its own fetch.
 */
export function copyDuplicateDecision(source: string): string {
  return `UPDATE frontier f SET duplicate_of = s.duplicate_of, duplicate_by = s.duplicate_by FROM ${source} s
           WHERE f.crawl_id = s.crawl_id AND f.url = s.url AND (f.duplicate_of, f.duplicate_by) IS DISTINCT FROM (s.duplicate_of, s.duplicate_by)`;
}

/**
 * A frontier row (as `alias`) whose URL the crawl fetched, and that the indexer filed under
 * another page of its site: its fetch has no document of its own (the crawl log's `duplicate`).
 */
export const IS_DUPLICATE = (alias: string) => `(${alias}.duplicate_of IS NOT NULL AND ${alias}.outcome IN ('stored', 'unchanged'))`;

/** Why a page is a duplicate: it names the page that stands for it as canonical, or has the same body. */
export type DuplicateBy = 'canonical' | 'same-body';

/** One URL a crawl did not store (or did not index on its own), and why. */
export interface CrawlLogEntry {
  crawlId: number;
  url: string;
  /** Sitemaps are listed too (a sitemap that cannot be read hides the URLs it names), though crawl counts are of pages. */
  kind: FrontierKind;
  outcome: CrawlLogOutcome;
  /**
   * The crawler's reason (`HTTP 500`, `not HTML: application/pdf`, `redirect to … refused: …`, the
   * robots.txt rule that disallows a URL), or the indexer's for a duplicate (`same content as …`);
   * null for cancelled URLs and for disallowed ones logged before disallowed URLs had a reason.
   */
  reason: string | null;
  /** For a duplicate, the URL of the page of the site it is indexed under; else null. */
  duplicateOf: string | null;
  /** Fetches tried. */
  attempts: number;
  depth: number;
  /** A revisit: a page the site had in its index that no link of the crawl reached (see `FrontierEntry.revisit`). */
  revisit: boolean;
  doneAt: Date | null;
}

export interface CrawlLogQuery {
  outcomes: readonly CrawlLogOutcome[];
  /** Only this crawl's URLs; every crawl of the site when absent. */
  crawlId?: number | undefined;
  offset: number;
  limit: number;
}

/** A duplicate's reason, as the crawl log gives it. */
function duplicateReason(of: string, by: DuplicateBy): string {
  return by === 'canonical' ? `names ${of} as its canonical URL: indexed under it` : `same content as ${of}: indexed under it`;
}

/**
 * A site's URLs that were not stored, or were and are indexed under another page, newest crawl
 * first and in the order each crawl found them, with how many match in all (for paging). A URL a
 * stop cancelled has no outcome of its own: it is listed as `cancelled`. A move or a removal
 * records its reason on the page (`HTTP 301: moved to …`), which is given when that crawl wrote it.
 */
export async function crawlLog(db: Queryable, siteId: number, query: CrawlLogQuery): Promise<{ total: number; entries: CrawlLogEntry[] }> {
  const where = `f.crawl_id IN (SELECT id FROM crawls WHERE site_id = $1 AND ($2::int IS NULL OR id = $2))
     AND (f.outcome = ANY($3::text[]) OR (f.state = 'cancelled' AND 'cancelled' = ANY($3::text[])) OR (${IS_DUPLICATE('f')} AND 'duplicate' = ANY($3::text[])))`;
  const params = [siteId, query.crawlId ?? null, query.outcomes];
  const [counted] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM frontier f WHERE ${where}`, params);
  const rows = await db.query<{
    crawl_id: number;
    url: string;
    kind: FrontierKind;
    outcome: CrawlLogOutcome;
    error: string | null;
    duplicate_of: string | null;
    duplicate_by: DuplicateBy | null;
    attempts: number;
    depth: number;
    revisit: boolean;
    done_at: Date | null;
  }>(
    `SELECT f.crawl_id, f.url, f.kind, CASE WHEN ${IS_DUPLICATE('f')} THEN 'duplicate' ELSE coalesce(f.outcome, 'cancelled') END AS outcome,
            coalesce(f.error, CASE WHEN p.crawl_id = f.crawl_id THEN p.fetch_error END) AS error,
            CASE WHEN ${IS_DUPLICATE('f')} THEN f.duplicate_of END AS duplicate_of, f.duplicate_by, f.attempts, f.depth, f.revisit, f.done_at
       FROM frontier f LEFT JOIN pages p ON p.id = f.page_id
      WHERE ${where}
      ORDER BY f.crawl_id DESC, f.id LIMIT $4 OFFSET $5`,
    [...params, query.limit, query.offset],
  );
  return {
    total: counted?.total ?? 0,
    entries: rows.map((row) => ({
      crawlId: row.crawl_id,
      url: row.url,
      kind: row.kind,
      outcome: row.outcome,
      reason: row.duplicate_of !== null ? duplicateReason(row.duplicate_of, row.duplicate_by as DuplicateBy) : row.error,
      duplicateOf: row.duplicate_of,
      attempts: row.attempts,
      depth: row.depth,
      revisit: row.revisit,
      doneAt: row.done_at,
    })),
  };
}

/** One host's share of the sites' latest crawls, as the console's hosts screen shows it. */
export interface HostActivity {
  host: string;
  sites: string[];
  /** URLs leased by a crawler now. */
  inFlight: number;
  queued: number;
  /** Queued URLs not to be fetched before a later time: a back-off, a retry, or the host's pace. */
  waiting: number;
  /** The earliest time a queued URL of the host may be fetched; null when none is queued. */
  nextFetchAt: Date | null;
  /** The longest `delayMs` of the sites crawling it: the pause each crawler keeps between two fetches. */
  intervalMs: number;
  fetched: number;
  failed: number;
  /** The last three errors, newest first. */
  lastErrors: string[];
}

/** Every host of the sites' latest crawls, busiest first. */
export async function hostActivity(db: Queryable): Promise<HostActivity[]> {
  const rows = await db.query<{
    host: string;
    sites: string[];
    in_flight: number;
    queued: number;
    waiting: number;
    next_fetch_at: Date | null;
    interval_ms: number | null;
    fetched: number;
    failed: number;
    last_errors: string[] | null;
  }>(
    `SELECT f.host, array_agg(DISTINCT s.name ORDER BY s.name) AS sites,
            count(*) FILTER (WHERE f.state = 'leased')::int AS in_flight,
            count(*) FILTER (WHERE f.state = 'queued')::int AS queued,
            count(*) FILTER (WHERE f.state = 'queued' AND f.not_before > now())::int AS waiting,
            min(f.not_before) FILTER (WHERE f.state = 'queued') AS next_fetch_at,
            max(coalesce((s.config->>'delayMs')::int, 0)) AS interval_ms,
            count(*) FILTER (WHERE f.state = 'done')::int AS fetched,
            count(*) FILTER (WHERE f.outcome = 'failed')::int AS failed,
            (array_agg(f.error ORDER BY f.done_at DESC NULLS LAST) FILTER (WHERE f.error IS NOT NULL))[1:3] AS last_errors
       FROM frontier f JOIN sites s ON s.id = f.site_id
      WHERE f.crawl_id IN (SELECT max(id) FROM crawls GROUP BY site_id)
      GROUP BY f.host
      ORDER BY in_flight DESC, queued DESC, f.host`,
  );
  return rows.map((row) => ({
    host: row.host,
    sites: row.sites,
    inFlight: row.in_flight,
    queued: row.queued,
    waiting: row.waiting,
    nextFetchAt: row.next_fetch_at,
    intervalMs: row.interval_ms ?? 0,
    fetched: row.fetched,
    failed: row.failed,
    lastErrors: row.last_errors ?? [],
  }));
}
