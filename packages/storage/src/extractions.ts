import type { ExtractedBlock } from '@winnow/extract';
import type { Queryable } from './db.js';

export interface Extraction {
  pageId: number;
  contentHash: string;
  method: string;
  templateId: number | null;
  templateVersion: number | null;
  title: string | null;
  blocks: ExtractedBlock[];
  mainText: string;
  warnings: string[];
  needsReextract: boolean;
  /** The pipeline's self-check did not trust the template's reading of this page (see `readAlone`). */
  readAlone: boolean;
  /** Words of the main text, for a template's health. */
  wordCount: number;
  extractedAt: Date;
}

interface ExtractionRow {
  page_id: number;
  content_hash: string;
  method: string;
  template_id: number | null;
  template_version: number | null;
  title: string | null;
  blocks: ExtractedBlock[];
  main_text: string;
  warnings: string[];
  needs_reextract: boolean;
  read_alone: boolean;
  word_count: number;
  extracted_at: Date;
}

const COLUMNS =
  'page_id, content_hash, method, template_id, template_version, title, blocks, main_text, warnings, needs_reextract, read_alone, word_count, extracted_at';

function toExtraction(row: ExtractionRow): Extraction {
  return {
    pageId: row.page_id,
    contentHash: row.content_hash,
    method: row.method,
    templateId: row.template_id,
    templateVersion: row.template_version,
    title: row.title,
    blocks: row.blocks,
    mainText: row.main_text,
    warnings: row.warnings,
    needsReextract: row.needs_reextract,
    readAlone: row.read_alone,
    wordCount: row.word_count,
    extractedAt: row.extracted_at,
  };
}

/** Replaces a page's extraction and clears its extraction failure, if any. */
export async function saveExtraction(db: Queryable, extraction: Omit<Extraction, 'extractedAt'>): Promise<Extraction> {
  const rows = await db.query<ExtractionRow>(
    `INSERT INTO extractions (page_id, content_hash, method, template_id, template_version, title, blocks, main_text, warnings, needs_reextract,
                              read_alone, word_count, extracted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
     ON CONFLICT (page_id) DO UPDATE SET content_hash = excluded.content_hash, method = excluded.method, template_id = excluded.template_id,
       template_version = excluded.template_version, title = excluded.title, blocks = excluded.blocks, main_text = excluded.main_text,
       warnings = excluded.warnings, needs_reextract = excluded.needs_reextract, read_alone = excluded.read_alone,
       word_count = excluded.word_count, extracted_at = now(), runs = extractions.runs + 1
     RETURNING ${COLUMNS}`,
    [
      extraction.pageId,
      extraction.contentHash,
      extraction.method,
      extraction.templateId,
      extraction.templateVersion,
      extraction.title,
      JSON.stringify(extraction.blocks),
      extraction.mainText,
      JSON.stringify(extraction.warnings),
      extraction.needsReextract,
      extraction.readAlone,
      extraction.wordCount,
    ],
  );
  await db.query(`DELETE FROM page_failures WHERE page_id = $1 AND stage = 'extract'`, [extraction.pageId]);
  return toExtraction(rows[0] as ExtractionRow);
}

export async function findExtraction(db: Queryable, pageId: number): Promise<Extraction | undefined> {
  const rows = await db.query<ExtractionRow>(`SELECT ${COLUMNS} FROM extractions WHERE page_id = $1`, [pageId]);
  return rows[0] && toExtraction(rows[0]);
}

/**
 * A site's stored pages whose extraction is missing, stale (the body changed), marked for
 * re-extraction, or made with an older template version than the current one, with their bodies' hashes.
 */
export async function pagesToExtract(db: Queryable, siteId: number): Promise<{ pageId: number; contentHash: string }[]> {
  const rows = await db.query<{ id: number; content_hash: string }>(
    `SELECT p.id, p.content_hash FROM pages p JOIN sites s ON s.id = p.site_id LEFT JOIN extractions e ON e.page_id = p.id
      WHERE p.site_id = $1 AND p.content_hash IS NOT NULL
        AND (e.page_id IS NULL OR e.content_hash <> p.content_hash OR e.needs_reextract
             OR coalesce(e.template_version, 0) < s.template_version)
      ORDER BY p.id`,
    [siteId],
  );
  return rows.map((row) => ({ pageId: row.id, contentHash: row.content_hash }));
}

/**
 * Whether a page's extraction is of its current body, with the site's current template version,
 * and not marked for re-extraction: then extracting it again would change nothing.
 */
export async function extractionIsCurrent(db: Queryable, pageId: number): Promise<boolean> {
  const rows = await db.query<{ current: boolean }>(
    `SELECT (e.content_hash = p.content_hash AND NOT e.needs_reextract
             AND e.template_version IS NOT DISTINCT FROM nullif(s.template_version, 0)) AS current
       FROM extractions e JOIN pages p ON p.id = e.page_id JOIN sites s ON s.id = p.site_id WHERE e.page_id = $1`,
    [pageId],
  );
  return rows[0]?.current === true;
}

/**
 * A site's stored pages whose current body has no extraction: the end of a crawl queues them, so
 * that extraction jobs lost with a Redis that kept nothing are made good.
 */
export async function unextractedPages(db: Queryable, siteId: number): Promise<{ pageId: number; contentHash: string }[]> {
  const rows = await db.query<{ id: number; content_hash: string }>(
    `SELECT p.id, p.content_hash FROM pages p LEFT JOIN extractions e ON e.page_id = p.id
      WHERE p.site_id = $1 AND p.content_hash IS NOT NULL AND (e.page_id IS NULL OR e.content_hash <> p.content_hash)
      ORDER BY p.id`,
    [siteId],
  );
  return rows.map((row) => ({ pageId: row.id, contentHash: row.content_hash }));
}

export interface IndexablePage {
  pageId: number;
  site: string;
  url: string;
  title: string;
  mainText: string;
  templateVersion: number | null;
  extractedAt: Date;
}

/** What the indexer needs of the given pages' current extractions (pages without one are absent). */
export async function indexablePages(db: Queryable, pageIds: readonly number[]): Promise<IndexablePage[]> {
  const rows = await db.query<{
    page_id: number;
    site: string;
    url: string;
    title: string | null;
    main_text: string;
    template_version: number | null;
    extracted_at: Date;
  }>(
    `SELECT e.page_id, s.name AS site, p.url, e.title, e.main_text, e.template_version, e.extracted_at
       FROM extractions e JOIN pages p ON p.id = e.page_id JOIN sites s ON s.id = p.site_id
      WHERE e.page_id = ANY($1::int[])`,
    [pageIds],
  );
  return rows.map((row) => ({
    pageId: row.page_id,
    site: row.site,
    url: row.url,
    title: row.title ?? '',
    mainText: row.main_text,
    templateVersion: row.template_version,
    extractedAt: row.extracted_at,
  }));
}
