import { WinnowError } from '@winnow/config';
import type { Queryable } from './db.js';
import { IS_DUPLICATE } from './frontier.js';
import { CRAWL_OUTCOMES, type CrawlOutcome } from './outcomes.js';

export type CrawlState = 'queued' | 'running' | 'stopping' | 'stopped' | 'finished' | 'failed';

/**
 * What became of a crawl's page URLs, by the names every view uses — `winnow status`, its
 * `--json`, the API and the crawl log — so that a count and the URLs behind it always agree.
 * Each is a frontier outcome as the crawler records it; the order is the order status lines list
 * them in.
 */

/** What a crawl's frontier rows say about it: every count is computed from them, none kept apart. Sitemaps are not counted. */
export interface CrawlCounts extends Record<CrawlOutcome, number> {
  /** Pages whose body was stored (new or changed). */
  stored: number;
  /** Pages that answered 304 or the same body as before: nothing to extract again. */
  unchanged: number;
  /** Redirects, recorded against the old URL; the target joins the frontier if the site allows it. */
  moved: number;
  /** Pages that had a body and now answer 404 or 410, or ask not to be indexed: removed from the index. */
  gone: number;
  /**
   * Answers the crawler would not store, and URLs it would not fetch: outside the site's allowed
   * URLs (a redirect's target too), a private address, HTTP 4xx, not HTML, larger than the limit,
   * an empty body, robots noindex on a new page.
   */
  refused: number;
  /** URLs robots.txt disallows. */
  disallowed: number;
  /** URLs that could not be fetched after their retries: connection errors, timeouts, HTTP 5xx, 429 and 503. */
  failed: number;
  /** URLs left unfetched because the crawl was stopped (or failed as a whole). */
  cancelled: number;
  /** URLs still to fetch, and being fetched. */
  queued: number;
  inFlight: number;
  /**
   * Of the URLs above, whatever became of them, those the crawl revisited: pages the site had in
   * its index that no link of this crawl reached, admitted at its end outside `maxPages`, so that
   * removed and moved pages are noticed, and the targets that replace those that moved. A revisit
   * is counted under its outcome too (most are `unchanged`; a removed page `gone`); this tells them
   * from the pages links reached.
   */
  revisited: number;
  /**
   * Of the stored and unchanged pages, those the indexer filed under another page of the site (a
   * canonical link, or the same body): they have no document of their own. The crawl log lists
   * them as `duplicate`, with the page each stands under.
   */
  duplicate: number;
}

export interface Crawl {
  id: number;
  siteId: number;
  state: CrawlState;
  counts: CrawlCounts;
  error: string | null;
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

interface CrawlRow {
  id: number;
  site_id: number;
  state: CrawlState;
  error: string | null;
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  counts: Record<CrawlOutcome | 'cancelled' | 'queued' | 'in_flight' | 'revisited' | 'duplicate', number>;
}

/** A crawl's row with its counts, aggregated from its frontier rows (one count per outcome, named as the outcome). */
const SELECT_CRAWL = `
  SELECT c.id, c.site_id, c.state, c.error, c.requested_at, c.started_at, c.finished_at,
         json_build_object(${[...CRAWL_OUTCOMES, 'cancelled', 'queued', 'in_flight', 'revisited', 'duplicate'].map((name) => `'${name}', coalesce(f.${name}, 0)`).join(', ')}) AS counts
    FROM crawls c
    LEFT JOIN LATERAL (
      SELECT ${CRAWL_OUTCOMES.map((outcome) => `count(*) FILTER (WHERE outcome = '${outcome}')::int AS ${outcome}`).join(',\n             ')},
             count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled,
             count(*) FILTER (WHERE state = 'queued')::int AS queued,
             count(*) FILTER (WHERE state = 'leased')::int AS in_flight,
             count(*) FILTER (WHERE revisit)::int AS revisited,
             count(*) FILTER (WHERE ${IS_DUPLICATE('frontier')})::int AS duplicate
        FROM frontier WHERE crawl_id = c.id AND kind = 'page'
    ) f ON true`;

function toCrawl(row: CrawlRow): Crawl {
  const { in_flight: inFlight, ...counted } = row.counts;
  const counts: CrawlCounts = { ...counted, inFlight };
  return {
    id: row.id,
    siteId: row.site_id,
    state: row.state,
    counts,
    error: row.error,
    requestedAt: row.requested_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export class CrawlActiveError extends WinnowError {
  override readonly name = 'CrawlActiveError';
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * Records a requested crawl, `queued` until a crawler process admits its seeds. A site has at most
 * one crawl queued or running at a time; a crawl left with nothing to do (its workers died while
 * it was stopping) is settled first, so it can never block the site for good.
 */
export async function insertCrawl(db: Queryable, siteId: number): Promise<Crawl> {
  const active = await activeCrawl(db, siteId);
  if (active && (await settleCrawl(db, active.id)) === null) throw new CrawlActiveError(`crawl ${active.id} of this site is already ${active.state}`);
  const rows = await db.query<{ id: number }>(`INSERT INTO crawls (site_id, state) VALUES ($1, 'queued') RETURNING id`, [siteId]);
  return (await findCrawl(db, (rows[0] as { id: number }).id)) as Crawl;
}

export async function findCrawl(db: Queryable, id: number): Promise<Crawl | undefined> {
  const rows = await db.query<CrawlRow>(`${SELECT_CRAWL} WHERE c.id = $1`, [id]);
  return rows[0] && toCrawl(rows[0]);
}

export async function activeCrawl(db: Queryable, siteId: number): Promise<Crawl | undefined> {
  const rows = await db.query<CrawlRow>(`${SELECT_CRAWL} WHERE c.site_id = $1 AND c.state IN ('queued', 'running', 'stopping') ORDER BY c.id DESC LIMIT 1`, [
    siteId,
  ]);
  return rows[0] && toCrawl(rows[0]);
}

export async function latestCrawl(db: Queryable, siteId: number): Promise<Crawl | undefined> {
  const rows = await db.query<CrawlRow>(`${SELECT_CRAWL} WHERE c.site_id = $1 ORDER BY c.id DESC LIMIT 1`, [siteId]);
  return rows[0] && toCrawl(rows[0]);
}

/** Ids of the crawls that are queued, running or stopping: what crawler processes look after. */
export async function openCrawlIds(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(`SELECT id FROM crawls WHERE state IN ('queued', 'running', 'stopping') ORDER BY id`);
  return rows.map((row) => row.id);
}

/**
 * Takes the oldest queued crawl for this transaction (other processes skip it) and marks it
 * running; the caller admits its seeds in the same transaction, so a crawl is never running
 * without a frontier.
 */
export async function startQueuedCrawl(tx: Queryable): Promise<{ id: number; siteId: number } | undefined> {
  const rows = await tx.query<{ id: number; site_id: number }>(
    `UPDATE crawls SET state = 'running', started_at = now()
      WHERE id = (SELECT id FROM crawls WHERE state = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, site_id`,
  );
  const row = rows[0];
  return row && { id: row.id, siteId: row.site_id };
}

/**
 * Asks a crawl to stop: its queued URLs are cancelled at once, and the crawl ends (`stopped`) as
 * soon as no URL of it is being fetched — at once when no crawler holds any. Returns the crawl as
 * it now is.
 */
export async function requestCrawlStop(db: Queryable, id: number): Promise<Crawl | undefined> {
  await db.query(`UPDATE crawls SET state = 'stopping' WHERE id = $1 AND state IN ('queued', 'running')`, [id]);
  await settleCrawl(db, id);
  return findCrawl(db, id);
}

/**
 * Brings a crawl to its end when nothing is left of it: a stopping crawl's queued URLs, and URLs
 * whose lease has lapsed (their crawler died), are cancelled; a crawl with no URL queued or leased
 * any more (a running one once its revisits were admitted too: `claimRevisits`) ends — `stopped` if it was stopping, `failed` if nothing at all could be fetched, else
 * `finished`. Safe to call from any process at any time: exactly one caller ends the crawl.
 * Returns the state this call ended it in, or null when it did not end it.
 */
export async function settleCrawl(db: Queryable, id: number): Promise<CrawlState | null> {
  await db.query(
    `UPDATE frontier SET state = 'cancelled', lease_owner = NULL, done_at = now()
      WHERE crawl_id = $1 AND (SELECT state FROM crawls WHERE id = $1) = 'stopping'
        AND (state = 'queued' OR (state = 'leased' AND lease_until < now()))`,
    [id],
  );
  const rows = await db.query<{ state: CrawlState }>(
    `WITH counts AS (
       SELECT count(*) FILTER (WHERE outcome IN ('stored', 'unchanged', 'moved', 'gone', 'read')) AS fetched,
              count(*) FILTER (WHERE outcome IN ('refused', 'failed')) AS errors,
              (array_agg(error || ' (' || url || ')' ORDER BY outcome = 'failed' DESC, id) FILTER (WHERE outcome IN ('failed', 'refused')))[1] AS first_error
         FROM frontier WHERE crawl_id = $1)
     UPDATE crawls c SET
        state = CASE WHEN c.state = 'stopping' THEN 'stopped'
                     WHEN c.state = 'running' AND (SELECT fetched FROM counts) = 0 AND (SELECT errors FROM counts) > 0 THEN 'failed'
                     ELSE 'finished' END,
        error = CASE WHEN c.state = 'running' AND (SELECT fetched FROM counts) = 0 AND (SELECT errors FROM counts) > 0
                     THEN 'nothing could be fetched: ' || coalesce((SELECT first_error FROM counts), 'every response was refused')
                     ELSE c.error END,
        finished_at = now()
      WHERE c.id = $1 AND (c.state = 'stopping' OR (c.state = 'running' AND c.revisits_admitted))
        AND NOT EXISTS (SELECT 1 FROM frontier WHERE crawl_id = $1 AND state IN ('queued', 'leased'))
      RETURNING c.state`,
    [id],
  );
  if (rows[0]) return rows[0].state;
  // A crawl stopped before any crawler admitted its seeds has nothing to wait for.
  const stopped = await db.query<{ state: CrawlState }>(
    `UPDATE crawls SET state = 'stopped', finished_at = now()
      WHERE id = $1 AND state = 'stopping' AND NOT EXISTS (SELECT 1 FROM frontier WHERE crawl_id = $1) RETURNING state`,
    [id],
  );
  return stopped[0]?.state ?? null;
}

/**
 * Claims, for the caller's transaction, the admission of a running crawl's revisits: the pages
 * its site has in its index that no link of the crawl reached (`unreachedPages`). A crawl starts from its
 * seeds and sitemaps alone, so that every link is judged under the site's current settings; once
 * nothing else of it is queued or in flight, whichever crawler claims this first admits them,
 * exactly once per crawl. Returns the crawl's site id, or undefined when there is nothing to claim.
 */
export async function claimRevisits(tx: Queryable, id: number): Promise<number | undefined> {
  const rows = await tx.query<{ site_id: number }>(
    `UPDATE crawls SET revisits_admitted = true
      WHERE id = $1 AND state = 'running' AND NOT revisits_admitted
        AND NOT EXISTS (SELECT 1 FROM frontier WHERE crawl_id = $1 AND state IN ('queued', 'leased'))
      RETURNING site_id`,
    [id],
  );
  return rows[0]?.site_id;
}

/** Ends a crawl at once as failed (a browser crawl without a browser, say), cancelling what it had queued. */
export async function failCrawl(db: Queryable, id: number, error: string): Promise<void> {
  await db.query(`UPDATE frontier SET state = 'cancelled', lease_owner = NULL, done_at = now() WHERE crawl_id = $1 AND state IN ('queued', 'leased')`, [id]);
  await db.query(`UPDATE crawls SET state = 'failed', error = $2, finished_at = now() WHERE id = $1 AND state IN ('queued', 'running', 'stopping')`, [
    id,
    error,
  ]);
}
