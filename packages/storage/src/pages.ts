import type { Queryable } from './db.js';

export interface FetchRecord {
  siteId: number;
  url: string;
  crawlId: number | null;
  status: number | null;
  headers: Record<string, string>;
  contentType: string | null;
  /** Key of the stored body; null when the fetch was refused. */
  contentHash: string | null;
  /** Why the fetch was refused (oversized, not HTML, HTTP error); null when it was stored. */
  fetchError: string | null;
}

export interface Page {
  id: number;
  siteId: number;
  url: string;
  status: number | null;
  contentType: string | null;
  contentHash: string | null;
  fetchError: string | null;
  fetchedAt: Date;
}

interface PageRow {
  id: number;
  site_id: number;
  url: string;
  status: number | null;
  content_type: string | null;
  content_hash: string | null;
  fetch_error: string | null;
  fetched_at: Date;
}

const COLUMNS = 'id, site_id, url, status, content_type, content_hash, fetch_error, fetched_at';

function toPage(row: PageRow): Page {
  return {
    id: row.id,
    siteId: row.site_id,
    url: row.url,
    status: row.status,
    contentType: row.content_type,
    contentHash: row.content_hash,
    fetchError: row.fetch_error,
    fetchedAt: row.fetched_at,
  };
}

/** Records a URL's latest fetch; returns the page id (stable per site and URL). */
export async function upsertFetchedPage(db: Queryable, fetch: FetchRecord): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO pages (site_id, url, crawl_id, status, headers, content_type, content_hash, fetch_error, fetched_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
     ON CONFLICT (site_id, url) DO UPDATE SET crawl_id = excluded.crawl_id, status = excluded.status, headers = excluded.headers,
       content_type = excluded.content_type, content_hash = excluded.content_hash, fetch_error = excluded.fetch_error, fetched_at = now()
     RETURNING id`,
    [fetch.siteId, fetch.url, fetch.crawlId, fetch.status, JSON.stringify(fetch.headers), fetch.contentType, fetch.contentHash, fetch.fetchError],
  );
  return (rows[0] as { id: number }).id;
}

export async function findPage(db: Queryable, id: number): Promise<Page | undefined> {
  const rows = await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE id = $1`, [id]);
  return rows[0] && toPage(rows[0]);
}

export async function findPageByUrl(db: Queryable, siteId: number, url: string): Promise<Page | undefined> {
  const rows = await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE site_id = $1 AND url = $2`, [siteId, url]);
  return rows[0] && toPage(rows[0]);
}

/** A site's pages that have a stored body (the ones extraction and templates can read). */
export async function listStoredPages(db: Queryable, siteId: number): Promise<Page[]> {
  const rows = await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE site_id = $1 AND content_hash IS NOT NULL ORDER BY id`, [siteId]);
  return rows.map(toPage);
}

export async function countStoredPages(db: Queryable, siteId: number): Promise<number> {
  const rows = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM pages WHERE site_id = $1 AND content_hash IS NOT NULL', [siteId]);
  return rows[0]?.count ?? 0;
}
