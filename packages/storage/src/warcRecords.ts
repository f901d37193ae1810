import type { Db, Queryable } from './db.js';
import { releaseArchivedBodies } from './rawPages.js';

/**
 * The `warc_records` and `warc_files` tables: fetches written as WARC records to an object store
 * (`@winnow/archive`). A fetch is staged here in the statement that stores its page (its body
 * stays in `raw_pages`); an archiver claims staged rows, writes their records into a WARC file,
 * uploads it, and then — in one transaction — records the file, where each row's records are, and
 * drops the bodies the file now holds from `raw_pages`. Until that commit nothing has left
 * Postgres, so a process that dies at any point loses nothing: its claims lapse and another
 * archiver writes the rows again (an upload whose commit never came is an unreferenced object).
 */

/** What a crawl found when it fetched a page with a stored body. */
export type FetchKind = 'stored' | 'unchanged' | 'not-modified';
export type WarcRecordType = 'response' | 'resource' | 'revisit';

/** A fetch to archive, as the crawler describes it; its page, URL and body come from the page's row. */
export interface FetchToArchive {
  kind: FetchKind;
  status: number;
  /** Lower-case names, as the fetcher returns them. */
  responseHeaders: Record<string, string>;
  /** What the crawler sent; null for a page rendered in Chromium (its body is the rendered document). */
  requestHeaders: Record<string, string> | null;
  /** Written as the fetch's `metadata` record (application/warc-fields). */
  metadata: Record<string, string>;
}

/** A staged (or, for export, any) row with what writing its records needs. */
export interface WarcRecordRow {
  /** bigint, as text. */
  id: string;
  url: string;
  fetchedAt: Date;
  kind: FetchKind;
  status: number;
  responseHeaders: Record<string, string>;
  requestHeaders: Record<string, string> | null;
  contentHash: string;
  metadata: Record<string, string>;
  recordId: string;
}

/** Where a written record is. */
export interface RecordLocation {
  objectKey: string;
  recordType: WarcRecordType;
  offset: number;
  /** The payload's record alone. */
  length: number;
  /** With the request and metadata records that follow it. */
  groupLength: number;
}

interface RowColumns {
  id: string;
  url: string;
  fetched_at: Date;
  fetch_kind: FetchKind;
  status: number;
  response_headers: Record<string, string>;
  request_headers: Record<string, string> | null;
  content_hash: string;
  metadata: Record<string, string>;
  record_id: string;
}

const ROW = (w: string) =>
  `${w}.id::text AS id, ${w}.url, ${w}.fetched_at, ${w}.fetch_kind, ${w}.status, ${w}.response_headers, ${w}.request_headers, ${w}.content_hash, ${w}.metadata, ${w}.record_id::text AS record_id`;

function toRow(row: RowColumns): WarcRecordRow {
  return {
    id: row.id,
    url: row.url,
    fetchedAt: row.fetched_at,
    kind: row.fetch_kind,
    status: row.status,
    responseHeaders: row.response_headers,
    requestHeaders: row.request_headers,
    contentHash: row.content_hash,
    metadata: row.metadata,
    recordId: row.record_id,
  };
}

/**
 * The parameters `stageFetchSql` reads after the caller's own, in order: kind, status, response
 * headers, request headers, metadata.
 */
export function stageFetchParams(fetch: FetchToArchive): unknown[] {
  return [
    fetch.kind,
    fetch.status,
    JSON.stringify(fetch.responseHeaders),
    fetch.requestHeaders && JSON.stringify(fetch.requestHeaders),
    JSON.stringify(fetch.metadata),
  ];
}

/**
 * A CTE's statement staging one fetch of each page `source` returns (with its `id`, `site_id`,
 * `url` and `content_hash`): written in the statement that stores or touches the page, so a page
 * is never stored without its fetch staged. `first` is the position of `stageFetchParams`' first.
 */
export function stageFetchSql(source: string, first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO warc_records (site_id, page_id, url, fetch_kind, status, response_headers, request_headers, content_hash, metadata)
          SELECT s.site_id, s.id, s.url, ${p(0)}, ${p(1)}, ${p(2)}::jsonb, ${p(3)}::jsonb, s.content_hash, ${p(4)}::jsonb FROM ${source} s WHERE s.content_hash IS NOT NULL`;
}

/** When the oldest staged fetch nobody holds was fetched; null when none waits. */
export async function oldestStagedFetch(db: Queryable): Promise<Date | null> {
  const [row] = await db.query<{ fetched_at: Date }>(
    `SELECT fetched_at FROM warc_records WHERE warc_file_id IS NULL AND (claimed_until IS NULL OR claimed_until < now()) ORDER BY id LIMIT 1`,
  );
  return row?.fetched_at ?? null;
}

/** Staged rows, oldest first, nobody else holds: claimed by `owner` for `leaseMs`. */
export async function claimStagedRecords(db: Queryable, owner: string, limit: number, leaseMs: number): Promise<WarcRecordRow[]> {
  const rows = await db.query<RowColumns>(
    `UPDATE warc_records w SET claimed_by = $1, claimed_until = now() + $3 * interval '1 millisecond'
      WHERE w.id IN (SELECT id FROM warc_records WHERE warc_file_id IS NULL AND (claimed_until IS NULL OR claimed_until < now())
                      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING ${ROW('w')}`,
    [owner, limit, leaseMs],
  );
  return rows.map(toRow).sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
}

/** Keeps `owner`'s claims for another `leaseMs` while it writes and uploads. */
export async function renewClaims(db: Queryable, owner: string, leaseMs: number): Promise<void> {
  await db.query(`UPDATE warc_records SET claimed_until = now() + $2 * interval '1 millisecond' WHERE claimed_by = $1 AND warc_file_id IS NULL`, [
    owner,
    leaseMs,
  ]);
}

/** Gives `owner`'s unwritten claims back (an upload failed): any archiver may take them at once. */
export async function releaseClaims(db: Queryable, owner: string): Promise<void> {
  await db.query('UPDATE warc_records SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1 AND warc_file_id IS NULL', [owner]);
}

/** An uploaded record that holds a payload (`response` or `resource`), what a revisit record refers to. */
export interface PayloadRecord extends RecordLocation {
  url: string;
  fetchedAt: Date;
  recordId: string;
}

/** For each hash, the first uploaded record holding its payload; hashes without one are absent. */
export async function payloadRecords(db: Queryable, hashes: readonly string[]): Promise<Map<string, PayloadRecord>> {
  if (hashes.length === 0) return new Map();
  const rows = await db.query<{
    content_hash: string;
    object_key: string;
    record_type: WarcRecordType;
    record_offset: number;
    record_length: number;
    group_length: number;
    url: string;
    fetched_at: Date;
    record_id: string;
  }>(
    `SELECT DISTINCT ON (w.content_hash) w.content_hash, f.object_key, w.record_type, w.record_offset, w.record_length, w.group_length, w.url,
            w.fetched_at, w.record_id::text AS record_id
       FROM warc_records w JOIN warc_files f ON f.id = w.warc_file_id
      WHERE w.content_hash = ANY($1) AND w.record_type IN ('response', 'resource')
      ORDER BY w.content_hash, w.id`,
    [hashes],
  );
  return new Map(
    rows.map((row) => [
      row.content_hash,
      {
        objectKey: row.object_key,
        recordType: row.record_type,
        offset: row.record_offset,
        length: row.record_length,
        groupLength: row.group_length,
        url: row.url,
        fetchedAt: row.fetched_at,
        recordId: row.record_id,
      },
    ]),
  );
}

/** A row's records as written into a file. */
export interface WrittenRecord {
  id: string;
  recordType: WarcRecordType;
  offset: number;
  length: number;
  groupLength: number;
}

export interface UploadedFile {
  objectKey: string;
  byteLength: number;
  recordCount: number;
}

/**
 * Records an uploaded WARC file and where `owner`'s rows' records are in it, then drops from
 * `raw_pages` the bodies whose payload an uploaded record now holds: one transaction, so a body
 * leaves Postgres only once the object store has it and Postgres can find it. A row whose claim
 * another archiver took over meanwhile (this one was too slow) keeps that one's location.
 * Returns the file's id.
 */
export async function recordUploadedFile(db: Db, owner: string, file: UploadedFile, written: readonly WrittenRecord[]): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>('INSERT INTO warc_files (object_key, byte_length, record_count) VALUES ($1, $2, $3) RETURNING id', [
      file.objectKey,
      file.byteLength,
      file.recordCount,
    ]);
    const fileId = (row as { id: number }).id;
    const located = await tx.query<{ content_hash: string }>(
      `UPDATE warc_records w SET warc_file_id = $2, record_type = x.record_type, record_offset = x.record_offset, record_length = x.record_length,
              group_length = x.group_length, claimed_by = NULL, claimed_until = NULL
         FROM unnest($3::bigint[], $4::text[], $5::int[], $6::int[], $7::int[]) AS x(id, record_type, record_offset, record_length, group_length)
        WHERE w.id = x.id AND w.claimed_by = $1 AND w.warc_file_id IS NULL
        RETURNING w.content_hash`,
      [
        owner,
        fileId,
        written.map((record) => record.id),
        written.map((record) => record.recordType),
        written.map((record) => record.offset),
        written.map((record) => record.length),
        written.map((record) => record.groupLength),
      ],
    );
    await releaseArchivedBodies(tx, [...new Set(located.map((record) => record.content_hash))]);
    return fileId;
  });
}

/** A site's fetch for export: its row, and where its records are once uploaded. */
export interface SiteWarcRecord extends WarcRecordRow {
  location: RecordLocation | null;
}

/** A site's fetches in the order they were staged, `limit` after the row `afterId` (bigint as text, '0' for the first). */
export async function siteWarcRecords(db: Queryable, siteId: number, afterId: string, limit: number): Promise<SiteWarcRecord[]> {
  const rows = await db.query<
    RowColumns & { object_key: string | null; record_type: WarcRecordType | null; record_offset: number | null; record_length: number; group_length: number }
  >(
    `SELECT ${ROW('w')}, f.object_key, w.record_type, w.record_offset, w.record_length, w.group_length
       FROM warc_records w LEFT JOIN warc_files f ON f.id = w.warc_file_id
      WHERE w.site_id = $1 AND w.id > $2::bigint ORDER BY w.id LIMIT $3`,
    [siteId, afterId, limit],
  );
  return rows.map((row) => ({
    ...toRow(row),
    location:
      row.object_key === null || row.record_type === null || row.record_offset === null
        ? null
        : { objectKey: row.object_key, recordType: row.record_type, offset: row.record_offset, length: row.record_length, groupLength: row.group_length },
  }));
}

/** What the object store holds, and what waits for it, for status: read from the files' rows and the staged rows' index, not every record's row. */
export interface ArchiveTotals {
  files: number;
  bytes: number;
  /** WARC records in the files (warcinfo, and each fetch's two or three). */
  records: number;
  /** Fetches staged in Postgres, not yet in a file. */
  staged: number;
}

export async function archiveTotals(db: Queryable): Promise<ArchiveTotals> {
  const [row] = await db.query<ArchiveTotals>(
    `SELECT count(*)::int AS files, coalesce(sum(byte_length), 0)::float8 AS bytes, coalesce(sum(record_count), 0)::float8 AS records,
            (SELECT count(*)::int FROM warc_records WHERE warc_file_id IS NULL) AS staged
       FROM warc_files`,
  );
  return row as ArchiveTotals;
}

/** A page's latest fetch as the `pages` row keeps it, for a WARC record built from it. */
export interface PageFetch {
  pageId: number;
  url: string;
  status: number;
  headers: Record<string, string>;
  contentHash: string;
  fetchedAt: Date;
}

/**
 * A site's pages with a body that no `warc_records` row stages or locates (every page, with
 * Postgres bodies; pages stored before an object store was configured, with one), by page id,
 * `limit` after `afterId`.
 */
export async function pagesWithoutWarcRecords(db: Queryable, siteId: number, afterId: number, limit: number): Promise<PageFetch[]> {
  const rows = await db.query<{ id: number; url: string; status: number | null; headers: Record<string, string>; content_hash: string; fetched_at: Date }>(
    `SELECT p.id, p.url, p.status, p.headers, p.content_hash, p.fetched_at FROM pages p
      WHERE p.site_id = $1 AND p.id > $2 AND p.content_hash IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM warc_records w WHERE w.page_id = p.id)
      ORDER BY p.id LIMIT $3`,
    [siteId, afterId, limit],
  );
  return rows.map((row) => ({
    pageId: row.id,
    url: row.url,
    status: row.status ?? 200,
    headers: row.headers,
    contentHash: row.content_hash,
    fetchedAt: row.fetched_at,
  }));
}
