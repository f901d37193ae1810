import type { Queryable } from './db.js';

export type CrawlState = 'queued' | 'running' | 'stopping' | 'stopped' | 'finished' | 'failed';

export interface Crawl {
  id: number;
  siteId: number;
  state: CrawlState;
  pagesStored: number;
  pagesRejected: number;
  error: string | null;
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

interface CrawlRow {
  id: number;
  site_id: number;
  state: CrawlState;
  pages_stored: number;
  pages_rejected: number;
  error: string | null;
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = 'id, site_id, state, pages_stored, pages_rejected, error, requested_at, started_at, finished_at';

function toCrawl(row: CrawlRow): Crawl {
  return {
    id: row.id,
    siteId: row.site_id,
    state: row.state,
    pagesStored: row.pages_stored,
    pagesRejected: row.pages_rejected,
    error: row.error,
    requestedAt: row.requested_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export class CrawlActiveError extends Error {
  override readonly name = 'CrawlActiveError';
}

/** Records a requested crawl; a site has at most one crawl queued or running at a time. */
export async function insertCrawl(db: Queryable, siteId: number): Promise<Crawl> {
  const active = await activeCrawl(db, siteId);
  if (active) throw new CrawlActiveError(`crawl ${active.id} of this site is already ${active.state}`);
  const rows = await db.query<CrawlRow>(`INSERT INTO crawls (site_id, state) VALUES ($1, 'queued') RETURNING ${COLUMNS}`, [siteId]);
  return toCrawl(rows[0] as CrawlRow);
}

export async function findCrawl(db: Queryable, id: number): Promise<Crawl | undefined> {
  const rows = await db.query<CrawlRow>(`SELECT ${COLUMNS} FROM crawls WHERE id = $1`, [id]);
  return rows[0] && toCrawl(rows[0]);
}

export async function activeCrawl(db: Queryable, siteId: number): Promise<Crawl | undefined> {
  const rows = await db.query<CrawlRow>(`SELECT ${COLUMNS} FROM crawls WHERE site_id = $1 AND state IN ('queued', 'running', 'stopping') ORDER BY id DESC LIMIT 1`, [siteId]);
  return rows[0] && toCrawl(rows[0]);
}

export async function latestCrawl(db: Queryable, siteId: number): Promise<Crawl | undefined> {
  const rows = await db.query<CrawlRow>(`SELECT ${COLUMNS} FROM crawls WHERE site_id = $1 ORDER BY id DESC LIMIT 1`, [siteId]);
  return rows[0] && toCrawl(rows[0]);
}

export async function markCrawlRunning(db: Queryable, id: number): Promise<void> {
  await db.query(`UPDATE crawls SET state = 'running', started_at = coalesce(started_at, now()) WHERE id = $1 AND state = 'queued'`, [id]);
}

/** Asks a running crawl to stop; the crawler notices between requests. */
export async function requestCrawlStop(db: Queryable, id: number): Promise<void> {
  await db.query(`UPDATE crawls SET state = 'stopping' WHERE id = $1 AND state IN ('queued', 'running')`, [id]);
}

export async function countCrawlPage(db: Queryable, id: number, outcome: 'stored' | 'rejected'): Promise<void> {
  const column = outcome === 'stored' ? 'pages_stored' : 'pages_rejected';
  await db.query(`UPDATE crawls SET ${column} = ${column} + 1 WHERE id = $1`, [id]);
}

/** Ends a crawl: `stopping` becomes `stopped`, anything else the given state. */
export async function finishCrawl(db: Queryable, id: number, state: 'finished' | 'failed', error?: string): Promise<void> {
  await db.query(
    `UPDATE crawls SET state = CASE WHEN state = 'stopping' THEN 'stopped' ELSE $2 END, error = $3, finished_at = now() WHERE id = $1`,
    [id, state, error ?? null],
  );
}
