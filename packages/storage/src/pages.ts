import type { Db, Queryable } from './db.js';
import { copyDuplicateDecision } from './frontier.js';
import { contentHash, insertRawPage } from './rawPages.js';
import { type FetchToArchive, stageFetchParams, stageFetchSql } from './warcRecords.js';

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
  /** The URL the page names as canonical (`<link rel="canonical">`), normalised; null when it names none. */
  canonicalUrl: string | null;
  /** The URL of the page of the site whose document stands for this one (`resolveDuplicates`); null when it is indexed under its own. */
  duplicateOf: string | null;
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
  canonical_url: string | null;
  duplicate_of: string | null;
  fetched_at: Date;
}

const COLUMNS = 'id, site_id, url, status, content_type, content_hash, fetch_error, canonical_url, duplicate_of, fetched_at';

function toPage(row: PageRow): Page {
  return {
    id: row.id,
    siteId: row.site_id,
    url: row.url,
    status: row.status,
    contentType: row.content_type,
    contentHash: row.content_hash,
    fetchError: row.fetch_error,
    canonicalUrl: row.canonical_url,
    duplicateOf: row.duplicate_of,
    fetchedAt: row.fetched_at,
  };
}

const UPSERT_PAGE = `INSERT INTO pages (site_id, url, crawl_id, status, headers, content_type, content_hash, fetch_error, canonical_url, fetched_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
     ON CONFLICT (site_id, url) DO UPDATE SET crawl_id = excluded.crawl_id, status = excluded.status, headers = excluded.headers,
       content_type = excluded.content_type, content_hash = excluded.content_hash, fetch_error = excluded.fetch_error,
       canonical_url = excluded.canonical_url, gone_at = NULL, fetched_at = now()
     RETURNING id, site_id, url, content_hash`;

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
 * statement, one round trip where a crawl spends most of its database time. With `archive` (an
 * object store holds bodies), the fetch is staged for its WARC records in the same statement.
 */
export async function storeFetchedPage(
  db: Queryable,
  fetch: Omit<FetchRecord, 'contentHash' | 'fetchError'>,
  body: Uint8Array,
  archive?: FetchToArchive,
): Promise<{ pageId: number; contentHash: string }> {
  const hash = contentHash(body);
  const params = [...pageParams({ ...fetch, contentHash: hash, fetchError: null }), Buffer.from(body), body.byteLength];
  const sql = archive
    ? `WITH raw AS (${insertRawPage('$7', '$10', '$11')}), page AS (${UPSERT_PAGE}), staged AS (${stageFetchSql('page', 12)}) SELECT id FROM page`
    : `WITH raw AS (${insertRawPage('$7', '$10', '$11')}) ${UPSERT_PAGE}`;
  const rows = await db.query<{ id: number }>(sql, archive ? [...params, ...stageFetchParams(archive)] : params);
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

/** Whether the site has a page with a stored body: without one there is nothing to prepare templates from. */
export async function hasStoredPages(db: Queryable, siteId: number): Promise<boolean> {
  const rows = await db.query<{ stored: boolean }>('SELECT EXISTS (SELECT 1 FROM pages WHERE site_id = $1 AND content_hash IS NOT NULL) AS stored', [siteId]);
  return rows[0]?.stored === true;
}

/** What a new fetch of a URL needs to know of the last one: its validators and whether its body was extracted. */
export interface PreviousFetch {
  pageId: number;
  contentHash: string | null;
  /** True when an earlier crawl found the page removed (404, 410, moved, noindex) and nothing has replaced it since. */
  gone: boolean;
  /** True when the current body has an extraction (so an unchanged body needs nothing more). */
  extracted: boolean;
  etag: string | null;
  lastModified: string | null;
}

export async function previousFetch(db: Queryable, siteId: number, url: string): Promise<PreviousFetch | undefined> {
  const rows = await db.query<{
    id: number;
    content_hash: string | null;
    gone: boolean;
    extracted: boolean;
    etag: string | null;
    last_modified: string | null;
  }>(
    `SELECT p.id, p.content_hash, p.gone_at IS NOT NULL AS gone, e.content_hash IS NOT DISTINCT FROM p.content_hash AND e.page_id IS NOT NULL AS extracted,
            p.headers->>'etag' AS etag, p.headers->>'last-modified' AS last_modified
       FROM pages p LEFT JOIN extractions e ON e.page_id = p.id
      WHERE p.site_id = $1 AND p.url = $2`,
    [siteId, url],
  );
  const row = rows[0];
  return row && { pageId: row.id, contentHash: row.content_hash, gone: row.gone, extracted: row.extracted, etag: row.etag, lastModified: row.last_modified };
}

/**
 * The page at `url` as this crawl stored it (or found it unchanged), with its body's hash: what a process
 * that takes over a dead one's lapsed URL answers from, instead of fetching the page again.
 * `hadBefore` says whether an earlier crawl of the site stored it (or found it unchanged): only
 * then is the stored page compared as an earlier fetch, else it counts as new.
 */
export async function storedInCrawl(
  db: Queryable,
  siteId: number,
  url: string,
  crawlId: number,
): Promise<{ status: number; headers: Record<string, string>; contentHash: string; hadBefore: boolean } | undefined> {
  const rows = await db.query<{ status: number; headers: Record<string, string>; content_hash: string; had_before: boolean }>(
    `SELECT p.status, p.headers, p.content_hash,
            EXISTS (SELECT 1 FROM frontier f WHERE f.site_id = $1 AND f.url = $2 AND f.crawl_id < $3 AND f.outcome IN ('stored', 'unchanged')) AS had_before
       FROM pages p
      WHERE p.site_id = $1 AND p.url = $2 AND p.crawl_id = $3 AND p.content_hash IS NOT NULL`,
    [siteId, url, crawlId],
  );
  const row = rows[0];
  return row && { status: row.status, headers: row.headers, contentHash: row.content_hash, hadBefore: row.had_before };
}

/**
 * A page's stored answer (status, headers and its body's hash) when it has a body: what a 304
 * stands for, so that the links of an unchanged page are followed as a changed one's are.
 */
export async function storedAnswer(
  db: Queryable,
  pageId: number,
): Promise<{ status: number; headers: Record<string, string>; contentHash: string } | undefined> {
  const rows = await db.query<{ status: number; headers: Record<string, string>; content_hash: string }>(
    'SELECT status, headers, content_hash FROM pages WHERE id = $1 AND content_hash IS NOT NULL',
    [pageId],
  );
  const row = rows[0];
  return row && { status: row.status, headers: row.headers, contentHash: row.content_hash };
}

/**
 * A fetch that found the page unchanged (304, or the same body): only its time moves. Nothing is
 * decided of it anew, so this crawl's fetch of it is a duplicate if the page is one
 * (`copyDuplicateDecision`), in the same statement: a decision recorded meanwhile waits for it, or
 * is seen by it. With `archive` (an object store holds bodies), the fetch is staged for its WARC
 * revisit record in the same statement.
 */
export async function touchPage(db: Queryable, pageId: number, crawlId: number, archive?: FetchToArchive): Promise<void> {
  const touched =
    'UPDATE pages SET fetched_at = now(), crawl_id = $2 WHERE id = $1 RETURNING id, site_id, url, content_hash, crawl_id, duplicate_of, duplicate_by';
  await db.query(
    archive
      ? `WITH touched AS (${touched}), staged AS (${stageFetchSql('touched', 3)}) ${copyDuplicateDecision('touched')}`
      : `WITH touched AS (${touched}) ${copyDuplicateDecision('touched')}`,
    archive ? [pageId, crawlId, ...stageFetchParams(archive)] : [pageId, crawlId],
  );
}

/**
 * A page that had a body and now answers 404 or 410 (or moved elsewhere): its body and extraction
 * are dropped and `gone_at` says when, so the indexer removes its document and status counts it.
 * A page found gone again keeps the time it went.
 */
export async function markPageGone(db: Queryable, pageId: number, crawlId: number, status: number | null, reason: string): Promise<void> {
  await db.query(
    `UPDATE pages SET content_hash = NULL, status = $3, fetch_error = $4, gone_at = COALESCE(gone_at, now()), fetched_at = now(), crawl_id = $2 WHERE id = $1`,
    [pageId, crawlId, status, reason],
  );
  await db.query('DELETE FROM extractions WHERE page_id = $1', [pageId]);
}

/**
 * Which of the given pages still exist, which of those have a body, and which of those are
 * duplicates (with the URL of the page that stands for each). Page ids are never reused and a page
 * is deleted only with its site, so an id missing here belongs to a removed site for good; a page
 * without a body was withdrawn by its site (404, 410, moved, noindex).
 */
export async function pagePresence(
  db: Queryable,
  ids: readonly number[],
): Promise<{ existing: Set<number>; withBody: Set<number>; duplicateOf: Map<number, string> }> {
  const rows = await db.query<{ id: number; has_body: boolean; duplicate_of: string | null }>(
    'SELECT id, content_hash IS NOT NULL AS has_body, duplicate_of FROM pages WHERE id = ANY($1::int[])',
    [ids],
  );
  const withBody = rows.filter((row) => row.has_body);
  return {
    existing: new Set(rows.map((row) => row.id)),
    withBody: new Set(withBody.map((row) => row.id)),
    duplicateOf: new Map(withBody.flatMap((row) => (row.duplicate_of === null ? [] : [[row.id, row.duplicate_of] as const]))),
  };
}

/** The other URLs of a site that a page's document stands for, as a search hit lists them. */
export interface StoodFor {
  /** The first `limit` of them, in code-point order. */
  urls: string[];
  total: number;
}

/**
 * For each of these pages (site name and URL), the pages of its site recorded as its duplicates
 * (`resolveDuplicates`): a search finds the page that stands for them, and whoever looks for one of
 * them by its URL should see it there. Keyed by `stoodForKey`; pages standing for none are absent.
 */
export async function pagesStoodFor(db: Queryable, pages: readonly { site: string; url: string }[], limit: number): Promise<Map<string, StoodFor>> {
  if (pages.length === 0) return new Map();
  const rows = await db.query<{ site: string; url: string; urls: string[]; total: number }>(
    `SELECT s.name AS site, p.duplicate_of AS url, (array_agg(p.url ORDER BY p.url COLLATE "C"))[1:$3] AS urls, count(*)::int AS total
       FROM unnest($1::text[], $2::text[]) AS h(site, url)
       JOIN sites s ON s.name = h.site
       JOIN pages p ON p.site_id = s.id AND p.duplicate_of = h.url AND p.content_hash IS NOT NULL
      GROUP BY s.name, p.duplicate_of`,
    [pages.map((page) => page.site), pages.map((page) => page.url), limit],
  );
  return new Map(rows.map((row) => [stoodForKey(row), { urls: row.urls, total: row.total }]));
}

export function stoodForKey(page: { site: string; url: string }): string {
  return `${page.site}\n${page.url}`;
}

/** What `resolveDuplicates` decided of a page. */
export interface DuplicateDecision {
  pageId: number;
  /** The URL of the page whose document stands for this one; null when its own stands (or it has no body). */
  duplicateOf: string | null;
  /** What was recorded before: a change tells the indexer to write or remove the page's document. */
  previous: string | null;
  hasBody: boolean;
}

/** A page that can have a document: it has a body and an extraction to index. */
const INDEXABLE = (p: string) => `(${p}.content_hash IS NOT NULL AND EXISTS (SELECT 1 FROM extractions e WHERE e.page_id = ${p}.id))`;

/**
 * The page `c` a page `p` of the same site names as canonical, when it stands for `p`: another
 * URL, indexable, naming no other page as canonical itself (a chain or a loop of canonicals is not
 * followed). A canonical outside the site's allowed URLs was never admitted, so it is no page here.
 */
const CANONICAL_OF = (p: string, c: string) =>
  `SELECT ${c}.url FROM pages ${c} WHERE ${c}.site_id = ${p}.site_id AND ${c}.url = ${p}.canonical_url AND ${c}.url <> ${p}.url
     AND ${INDEXABLE(c)} AND (${c}.canonical_url IS NULL OR ${c}.canonical_url = ${c}.url)`;

/**
 * Each page's duplicate, decided from the pages' state alone (so any order of decisions ends the
 * same): a page naming as canonical another page of its site that stands (`CANONICAL_OF`) is its
 * duplicate; else, among the indexable pages of its site with the same body that name no such
 * canonical, the one that names itself canonical, else the one with the shortest URL (then the
 * first in code-point order) stands for the others.
 */
const DECIDE = `
  WITH decided AS (
    SELECT t.id, t.duplicate_of AS previous, t.content_hash IS NOT NULL AS has_body,
           CASE WHEN t.content_hash IS NULL THEN NULL
                WHEN canonical.url IS NOT NULL THEN canonical.url
                WHEN original.url <> t.url THEN original.url END AS duplicate_of,
           CASE WHEN t.content_hash IS NULL THEN NULL
                WHEN canonical.url IS NOT NULL THEN 'canonical'
                WHEN original.url <> t.url THEN 'same-body' END AS duplicate_by
      FROM pages t
      LEFT JOIN LATERAL (${CANONICAL_OF('t', 'c')}) canonical ON true
      LEFT JOIN LATERAL (
        SELECT g.url FROM pages g
         WHERE g.site_id = t.site_id AND g.content_hash = t.content_hash AND ${INDEXABLE('g')} AND NOT EXISTS (${CANONICAL_OF('g', 'gc')})
         ORDER BY g.canonical_url IS NOT DISTINCT FROM g.url DESC, length(g.url), g.url COLLATE "C"
         LIMIT 1
      ) original ON true
     WHERE t.id = ANY($1::int[])
  ), recorded AS (
    UPDATE pages p SET duplicate_of = d.duplicate_of, duplicate_by = d.duplicate_by
      FROM decided d WHERE p.id = d.id AND (p.duplicate_of, p.duplicate_by) IS DISTINCT FROM (d.duplicate_of, d.duplicate_by)
  )
  SELECT id, duplicate_of, previous, has_body FROM decided`;

/**
 * The pages whose decision may follow from these pages': the same body, naming one of them as
 * canonical, or recorded as a duplicate of one (its old body's group, a canonical that is gone).
 */
const RELATED = `
  SELECT q.id FROM pages b JOIN pages q ON q.site_id = b.site_id AND q.content_hash = b.content_hash WHERE b.id = ANY($1::int[])
  UNION SELECT q.id FROM pages b JOIN pages q ON q.site_id = b.site_id AND q.canonical_url = b.url WHERE b.id = ANY($1::int[])
  UNION SELECT q.id FROM pages b JOIN pages q ON q.site_id = b.site_id AND q.duplicate_of = b.url WHERE b.id = ANY($1::int[])`;

/**
 * A change reaches at most two steps (a page that starts naming a canonical leaves its body's
 * group, whose original may change); one more is a margin.
 */
const RELATED_STEPS = 3;
/** Serialises deciding duplicates per site between processes (with the site id as the second key). */
const DUPLICATES_LOCK = 7_262_012;

/**
 * Decides and records (`pages.duplicate_of`, and why: `duplicate_by`) which of these pages, and of
 * the pages whose decision depends on theirs (`RELATED`), are duplicates of another page of their
 * site, and returns every decision. Each decision is recorded on the frontier row of the crawl that
 * fetched its page last too, for the crawl log (`copyDuplicateDecision`). One transaction per call; on a Postgres server an advisory lock per site makes
 * decisions of one site follow one another, so the last one recorded saw the latest pages.
 */
export async function resolveDuplicates(db: Db, pageIds: readonly number[]): Promise<DuplicateDecision[]> {
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') {
      await tx.query('SELECT pg_advisory_xact_lock($1, site_id) FROM (SELECT DISTINCT site_id FROM pages WHERE id = ANY($2::int[]) ORDER BY site_id) sites', [
        DUPLICATES_LOCK,
        pageIds,
      ]);
    }
    const all = new Set(pageIds);
    let step = [...all];
    for (let i = 0; i < RELATED_STEPS && step.length > 0; i++) {
      const related = await tx.query<{ id: number }>(RELATED, [step]);
      step = related.map((row) => row.id).filter((id) => !all.has(id));
      for (const id of step) all.add(id);
    }
    const rows = await tx.query<{ id: number; duplicate_of: string | null; previous: string | null; has_body: boolean }>(DECIDE, [[...all]]);
    // A statement of its own, so that it reads the crawl that fetched each page last as it is now.
    await tx.query(copyDuplicateDecision('(SELECT crawl_id, url, duplicate_of, duplicate_by FROM pages WHERE id = ANY($1::int[]))'), [[...all]]);
    return rows.map((row) => ({ pageId: row.id, duplicateOf: row.duplicate_of, previous: row.previous, hasBody: row.has_body }));
  });
}
