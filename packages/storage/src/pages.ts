import type { Queryable } from './db.js';
import { contentHash, insertRawPage } from './rawPages.js';

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
  /** The URL the page names as canonical (`<link rel="canonical">`), if any. */
  canonicalUrl?: string | null;
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

const UPSERT_PAGE = `INSERT INTO pages (site_id, url, crawl_id, status, headers, content_type, content_hash, fetch_error, canonical_url, fetched_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
     ON CONFLICT (site_id, url) DO UPDATE SET crawl_id = excluded.crawl_id, status = excluded.status, headers = excluded.headers,
       content_type = excluded.content_type, content_hash = excluded.content_hash, fetch_error = excluded.fetch_error,
       canonical_url = excluded.canonical_url, gone_at = NULL, fetched_at = now()
     RETURNING id`;

function pageParams(fetch: FetchRecord): unknown[] {
  return [
    fetch.siteId,
    fetch.url,
    fetch.crawlId,
    fetch.status,
    JSON.stringify(fetch.headers),
    fetch.contentType,
    fetch.contentHash,
    fetch.fetchError,
    fetch.canonicalUrl ?? null,
  ];
}

/** Records a URL's latest fetch; returns the page id (stable per site and URL). */
export async function upsertFetchedPage(db: Queryable, fetch: FetchRecord): Promise<number> {
  const rows = await db.query<{ id: number }>(UPSERT_PAGE, pageParams(fetch));
  return (rows[0] as { id: number }).id;
}

/**
 * Records a fetch whose body is stored: the body (once, by its hash) and the page in one
 * statement, one round trip where a crawl spends most of its database time.
 */
export async function storeFetchedPage(
  db: Queryable,
  fetch: Omit<FetchRecord, 'contentHash' | 'fetchError'>,
  body: Uint8Array,
): Promise<{ pageId: number; contentHash: string }> {
  const hash = contentHash(body);
  const rows = await db.query<{ id: number }>(`WITH raw AS (${insertRawPage('$7', '$10', '$11')}) ${UPSERT_PAGE}`, [
    ...pageParams({ ...fetch, contentHash: hash, fetchError: null }),
    Buffer.from(body),
    body.byteLength,
  ]);
  return { pageId: (rows[0] as { id: number }).id, contentHash: hash };
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

/** What a new fetch of a URL needs to know of the last one: its validators and whether its body was extracted. */
export interface PreviousFetch {
  pageId: number;
  contentHash: string | null;
  /** True when the current body has an extraction (so an unchanged body needs nothing more). */
  extracted: boolean;
  etag: string | null;
  lastModified: string | null;
}

export async function previousFetch(db: Queryable, siteId: number, url: string): Promise<PreviousFetch | undefined> {
  const rows = await db.query<{ id: number; content_hash: string | null; extracted: boolean; etag: string | null; last_modified: string | null }>(
    `SELECT p.id, p.content_hash, e.content_hash IS NOT DISTINCT FROM p.content_hash AND e.page_id IS NOT NULL AS extracted,
            p.headers->>'etag' AS etag, p.headers->>'last-modified' AS last_modified
       FROM pages p LEFT JOIN extractions e ON e.page_id = p.id
      WHERE p.site_id = $1 AND p.url = $2`,
    [siteId, url],
  );
  const row = rows[0];
  return row && { pageId: row.id, contentHash: row.content_hash, extracted: row.extracted, etag: row.etag, lastModified: row.last_modified };
}

/**
 * The page at `url` as this crawl stored it (or found it unchanged), with its body: what a process
 * that takes over a dead one's lapsed URL answers from, instead of fetching the page again.
 */
export async function storedInCrawl(
  db: Queryable,
  siteId: number,
  url: string,
  crawlId: number,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer } | undefined> {
  const rows = await db.query<{ status: number; headers: Record<string, string>; body: Uint8Array }>(
    `SELECT p.status, p.headers, r.body FROM pages p JOIN raw_pages r ON r.content_hash = p.content_hash
      WHERE p.site_id = $1 AND p.url = $2 AND p.crawl_id = $3`,
    [siteId, url, crawlId],
  );
  const row = rows[0];
  return row && { status: row.status, headers: row.headers, body: Buffer.from(row.body) };
}

/** A fetch that found the page unchanged (304, or the same body): only its time moves. */
export async function touchPage(db: Queryable, pageId: number, crawlId: number): Promise<void> {
  await db.query('UPDATE pages SET fetched_at = now(), crawl_id = $2 WHERE id = $1', [pageId, crawlId]);
}

/**
 * A page that had a body and now answers 404 or 410 (or moved elsewhere): its body and extraction
 * are dropped and `gone_at` says when, so the indexer removes its document and status counts it.
 */
export async function markPageGone(db: Queryable, pageId: number, crawlId: number, status: number, reason: string): Promise<void> {
  await db.query(`UPDATE pages SET content_hash = NULL, status = $3, fetch_error = $4, gone_at = now(), fetched_at = now(), crawl_id = $2 WHERE id = $1`, [
    pageId,
    crawlId,
    status,
    reason,
  ]);
  await db.query('DELETE FROM extractions WHERE page_id = $1', [pageId]);
}

/**
 * Which of the given pages still exist, and which of those have a body. Page ids are never reused
 * and a page is deleted only with its site, so an id missing here belongs to a removed site for
 * good; a page without a body was withdrawn by its site (404, 410, moved, noindex).
 */
export async function pagePresence(db: Queryable, ids: readonly number[]): Promise<{ existing: Set<number>; withBody: Set<number> }> {
  const rows = await db.query<{ id: number; has_body: boolean }>('SELECT id, content_hash IS NOT NULL AS has_body FROM pages WHERE id = ANY($1::int[])', [ids]);
  return { existing: new Set(rows.map((row) => row.id)), withBody: new Set(rows.filter((row) => row.has_body).map((row) => row.id)) };
}
