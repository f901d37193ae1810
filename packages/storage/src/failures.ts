import type { Queryable } from './db.js';

export type Stage = 'extract' | 'index';

export interface PageFailure {
  pageId: number;
  url: string;
  site: string;
  stage: Stage;
  error: string;
  attempts: number;
  failedAt: Date;
}

/** Keeps a page's failure visible after its stage's last retry. */
export async function recordPageFailure(db: Queryable, pageId: number, stage: Stage, error: string, attempts: number): Promise<void> {
  await db.query(
    `INSERT INTO page_failures (page_id, stage, error, attempts) VALUES ($1, $2, $3, $4)
     ON CONFLICT (page_id, stage) DO UPDATE SET error = excluded.error, attempts = excluded.attempts, failed_at = now()`,
    [pageId, stage, error, attempts],
  );
}

/** Clears the given pages' failures at one stage, in one statement (a batch's pages succeeded). */
export async function clearPageFailures(db: Queryable, pageIds: readonly number[], stage: Stage): Promise<void> {
  if (pageIds.length === 0) return;
  await db.query('DELETE FROM page_failures WHERE page_id = ANY($1::int[]) AND stage = $2', [pageIds, stage]);
}

/** The pages whose failure at a stage is recorded: the reconciler leaves them to `status` instead of queueing them again and again. */
export async function failedPageIds(db: Queryable, stage: Stage): Promise<Set<number>> {
  const rows = await db.query<{ page_id: number }>('SELECT page_id FROM page_failures WHERE stage = $1', [stage]);
  return new Set(rows.map((row) => row.page_id));
}

export async function listPageFailures(db: Queryable, limit = 100): Promise<PageFailure[]> {
  const rows = await db.query<{ page_id: number; url: string; site: string; stage: Stage; error: string; attempts: number; failed_at: Date }>(
    `SELECT f.page_id, p.url, s.name AS site, f.stage, f.error, f.attempts, f.failed_at
       FROM page_failures f JOIN pages p ON p.id = f.page_id JOIN sites s ON s.id = p.site_id
      ORDER BY f.failed_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    pageId: row.page_id,
    url: row.url,
    site: row.site,
    stage: row.stage,
    error: row.error,
    attempts: row.attempts,
    failedAt: row.failed_at,
  }));
}

export interface SiteCounts {
  site: string;
  /** URLs of the site the crawler has recorded a page for, stored or not. */
  pages: number;
  /** Pages whose body is stored, from every crawl so far (a crawl's own outcomes are in its `counts`). */
  stored: number;
  /** Pages that had a body and were withdrawn by the site (404, 410, moved, noindex): out of the index. */
  gone: number;
  /** Pages filed under another page of the site (the same body, or the canonical URL they name): not indexed under their own URL. */
  duplicates: number;
  extracted: number;
  /** Extracted pages the pipeline's self-check read alone (it did not trust the template's reading). */
  readAlone: number;
  /** Extracted pages whose main text has no words. */
  empty: number;
  failedExtract: number;
  failedIndex: number;
  templateVersion: number;
}

/** Per-site progress through the pipeline, for `status`. */
export async function siteCounts(db: Queryable): Promise<SiteCounts[]> {
  const rows = await db.query<{
    site: string;
    pages: number;
    stored: number;
    gone: number;
    duplicates: number;
    extracted: number;
    read_alone: number;
    empty: number;
    failed_extract: number;
    failed_index: number;
    template_version: number;
  }>(
    `SELECT s.name AS site, s.template_version,
            count(p.id)::int AS pages,
            count(p.content_hash)::int AS stored,
            count(p.gone_at)::int AS gone,
            count(p.duplicate_of)::int AS duplicates,
            count(e.page_id) FILTER (WHERE e.content_hash = p.content_hash)::int AS extracted,
            count(e.page_id) FILTER (WHERE e.content_hash = p.content_hash AND e.read_alone)::int AS read_alone,
            count(e.page_id) FILTER (WHERE e.content_hash = p.content_hash AND e.word_count = 0)::int AS empty,
            (SELECT count(*)::int FROM page_failures f JOIN pages q ON q.id = f.page_id WHERE q.site_id = s.id AND f.stage = 'extract') AS failed_extract,
            (SELECT count(*)::int FROM page_failures f JOIN pages q ON q.id = f.page_id WHERE q.site_id = s.id AND f.stage = 'index') AS failed_index
       FROM sites s LEFT JOIN pages p ON p.site_id = s.id LEFT JOIN extractions e ON e.page_id = p.id
      GROUP BY s.id ORDER BY s.name`,
  );
  return rows.map((row) => ({
    site: row.site,
    pages: row.pages,
    stored: row.stored,
    gone: row.gone,
    duplicates: row.duplicates,
    extracted: row.extracted,
    readAlone: row.read_alone,
    empty: row.empty,
    failedExtract: row.failed_extract,
    failedIndex: row.failed_index,
    templateVersion: row.template_version,
  }));
}
