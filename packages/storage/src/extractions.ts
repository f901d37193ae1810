import { readStoredSiteConfig, type SiteConfig } from '@winnow/config';
import type { ExtractedBlock } from '@winnow/extract';
import type { Queryable } from './db.js';

export interface Extraction {
  pageId: number;
  contentHash: string;
  method: string;
  templateId: number | null;
  templateVersion: number | null;
  /** The page's `<title>`. */
  title: string | null;
  /** The article's headline (`articleHeadline`): the search index's title. */
  headline: string | null;
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
  headline: string | null;
  blocks: ExtractedBlock[];
  main_text: string;
  warnings: string[];
  needs_reextract: boolean;
  read_alone: boolean;
  word_count: number;
  extracted_at: Date;
}

const COLUMNS =
  'page_id, content_hash, method, template_id, template_version, title, headline, blocks, main_text, warnings, needs_reextract, read_alone, word_count, extracted_at';

function toExtraction(row: ExtractionRow): Extraction {
  return {
    pageId: row.page_id,
    contentHash: row.content_hash,
    method: row.method,
    templateId: row.template_id,
    templateVersion: row.template_version,
    title: row.title,
    headline: row.headline,
    blocks: row.blocks,
    mainText: row.main_text,
    warnings: row.warnings,
    needsReextract: row.needs_reextract,
    readAlone: row.read_alone,
    wordCount: row.word_count,
    extractedAt: row.extracted_at,
  };
}

/** Replaces a page's extraction and clears its extraction failure, if any, in one statement. */
export async function saveExtraction(db: Queryable, extraction: Omit<Extraction, 'extractedAt'>): Promise<Extraction> {
  const rows = await db.query<ExtractionRow>(
    `WITH cleared AS (DELETE FROM page_failures WHERE page_id = $1 AND stage = 'extract')
     INSERT INTO extractions (page_id, content_hash, method, template_id, template_version, title, headline, blocks, main_text, warnings,
                              needs_reextract, read_alone, word_count, extracted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())
     ON CONFLICT (page_id) DO UPDATE SET content_hash = excluded.content_hash, method = excluded.method, template_id = excluded.template_id,
       template_version = excluded.template_version, title = excluded.title, headline = excluded.headline, blocks = excluded.blocks, main_text = excluded.main_text,
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
      extraction.headline,
      JSON.stringify(extraction.blocks),
      extraction.mainText,
      JSON.stringify(extraction.warnings),
      extraction.needsReextract,
      extraction.readAlone,
      extraction.wordCount,
    ],
  );
  return toExtraction(rows[0] as ExtractionRow);
}

export async function findExtraction(db: Queryable, pageId: number): Promise<Extraction | undefined> {
  const rows = await db.query<ExtractionRow>(`SELECT ${COLUMNS} FROM extractions WHERE page_id = $1`, [pageId]);
  return rows[0] && toExtraction(rows[0]);
}

/**
 * Whether a page's extraction stands (SQL over `e` extractions, `p` pages and `s` sites): it is of
 * the page's current body, nothing marked it for re-extraction, and it is of the site's current
 * template version — or a template of an earlier version read it and the self-check trusted that
 * reading. A new version refines a site's templates as it grows; a page whose reading a template
 * and the single-page reader agreed on has nothing to gain from it, so a new version re-extracts
 * only pages read without a template of their type or read alone, and those an analyst's run marks.
 */
const EXTRACTION_STANDS = `(e.content_hash = p.content_hash AND NOT e.needs_reextract
  AND (e.template_version IS NOT DISTINCT FROM nullif(s.template_version, 0) OR (e.template_id IS NOT NULL AND NOT e.read_alone)))`;

/** A site's stored pages whose extraction does not stand (see `EXTRACTION_STANDS`), with their bodies' hashes. */
export async function pagesToExtract(db: Queryable, siteId: number): Promise<{ pageId: number; contentHash: string }[]> {
  const rows = await db.query<{ id: number; content_hash: string }>(
    `SELECT p.id, p.content_hash FROM pages p JOIN sites s ON s.id = p.site_id LEFT JOIN extractions e ON e.page_id = p.id
      WHERE p.site_id = $1 AND p.content_hash IS NOT NULL AND (e.page_id IS NULL OR NOT ${EXTRACTION_STANDS})
      ORDER BY p.id`,
    [siteId],
  );
  return rows.map((row) => ({ pageId: row.id, contentHash: row.content_hash }));
}

/** Marks every extraction of a site's pages for re-extraction (an analyst asked for new templates: every page gets them). */
export async function markSiteForReextraction(db: Queryable, siteId: number): Promise<void> {
  await db.query('UPDATE extractions e SET needs_reextract = true FROM pages p WHERE p.id = e.page_id AND p.site_id = $1 AND NOT e.needs_reextract', [siteId]);
}

/**
 * Marks for re-extraction the extractions of a site's pages that an earlier version's template
 * read (an analyst asked for templates again and the current version was kept): a reading the
 * self-check trusted stands across versions (`EXTRACTION_STANDS`), so without this a page read by
 * an outgrown template would keep that reading until some later version is stored.
 */
export async function markOlderReadingsForReextraction(db: Queryable, siteId: number): Promise<void> {
  await db.query(
    `UPDATE extractions e SET needs_reextract = true FROM pages p JOIN sites s ON s.id = p.site_id
      WHERE p.id = e.page_id AND p.site_id = $1 AND NOT e.needs_reextract AND e.template_version < s.template_version`,
    [siteId],
  );
}

/** Everything extracting one page needs, read in one round trip. */
export interface ExtractionInput {
  pageId: number;
  siteId: number;
  siteName: string;
  siteConfig: SiteConfig;
  templateVersion: number;
  url: string;
  contentType: string | null;
  /** Null when the page has no stored body (`fetchError` says why). */
  contentHash: string | null;
  fetchError: string | null;
  /** The page's extraction stands (`EXTRACTION_STANDS`): extracting it again would change nothing. */
  current: boolean;
  /** The page's current body was extracted before (this is a re-extraction). */
  extractedBefore: boolean;
}

/**
 * What `extractPage` reads of a page, its site and its extraction, in one round trip; undefined
 * when there is no such page. The body is read through the runtime's `BodyStore`, wherever it is.
 */
export async function extractionInput(db: Queryable, pageId: number): Promise<ExtractionInput | undefined> {
  const rows = await db.query<{
    site_id: number;
    site_name: string;
    site_config: unknown;
    template_version: number;
    url: string;
    content_type: string | null;
    content_hash: string | null;
    fetch_error: string | null;
    current: boolean;
    extracted_before: boolean;
  }>(
    `SELECT p.site_id, s.name AS site_name, s.config AS site_config, s.template_version, p.url, p.content_type, p.content_hash, p.fetch_error,
            coalesce(e.page_id IS NOT NULL AND ${EXTRACTION_STANDS}, false) AS current,
            coalesce(e.content_hash = p.content_hash, false) AS extracted_before
       FROM pages p JOIN sites s ON s.id = p.site_id LEFT JOIN extractions e ON e.page_id = p.id
      WHERE p.id = $1`,
    [pageId],
  );
  const row = rows[0];
  return (
    row && {
      pageId,
      siteId: row.site_id,
      siteName: row.site_name,
      // Extraction reads only the template settings: a problem for crawls is none of its business.
      siteConfig: readStoredSiteConfig(row.site_config).config,
      templateVersion: row.template_version,
      url: row.url,
      contentType: row.content_type,
      contentHash: row.content_hash,
      fetchError: row.fetch_error,
      current: row.current,
      extractedBefore: row.extracted_before,
    }
  );
}

/**
 * Stored pages whose current body has no extraction, of one site or of every site: what is queued
 * again when extraction jobs were lost with a Redis that kept nothing (the end of a crawl, for its
 * site; the start of an embedded pipeline, whose private Redis kept nothing across restarts).
 */
export async function unextractedPages(db: Queryable, siteId?: number): Promise<{ pageId: number; contentHash: string }[]> {
  const rows = await db.query<{ id: number; content_hash: string }>(
    `SELECT p.id, p.content_hash FROM pages p LEFT JOIN extractions e ON e.page_id = p.id
      WHERE ($1::bigint IS NULL OR p.site_id = $1) AND p.content_hash IS NOT NULL AND (e.page_id IS NULL OR e.content_hash <> p.content_hash)
      ORDER BY p.id`,
    [siteId ?? null],
  );
  return rows.map((row) => ({ pageId: row.id, contentHash: row.content_hash }));
}

/**
 * The pages that should have a search document, each with the time of the extraction it would be
 * written from (ms since the epoch, as a document records it): pages with a body and an
 * extraction that no decision filed under another page (`pages.duplicate_of`).
 */
export async function indexableVersions(db: Queryable): Promise<Map<number, number>> {
  const rows = await db.query<{ page_id: number; extracted_at: Date }>(
    `SELECT e.page_id, e.extracted_at FROM extractions e JOIN pages p ON p.id = e.page_id
      WHERE p.content_hash IS NOT NULL AND p.duplicate_of IS NULL`,
  );
  return new Map(rows.map((row) => [row.page_id, row.extracted_at.getTime()]));
}

/**
 * A page's titles as its search document and its export have them, from its extraction's columns:
 * `title` the article's headline (`articleHeadline`, recorded at extraction), or the `<title>` for
 * an extraction made before headlines were recorded; `pageTitle` the `<title>` as the page has it.
 */
function pageTitles(row: { title: string | null; headline: string | null }): { title: string; pageTitle: string } {
  return { title: row.headline ?? row.title ?? '', pageTitle: row.title ?? '' };
}

export interface IndexablePage {
  pageId: number;
  site: string;
  url: string;
  /** The article's headline, or the page's `<title>` when none was found. */
  title: string;
  /** The page's `<title>`, the site's name and section included. */
  pageTitle: string;
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
    headline: string | null;
    main_text: string;
    template_version: number | null;
    extracted_at: Date;
  }>(
    `SELECT e.page_id, s.name AS site, p.url, e.title, e.headline, e.main_text, e.template_version, e.extracted_at
       FROM extractions e JOIN pages p ON p.id = e.page_id JOIN sites s ON s.id = p.site_id
      WHERE e.page_id = ANY($1::int[])`,
    [pageIds],
  );
  return rows.map((row) => ({
    pageId: row.page_id,
    site: row.site,
    url: row.url,
    ...pageTitles(row),
    mainText: row.main_text,
    templateVersion: row.template_version,
    extractedAt: row.extracted_at,
  }));
}

/**
 * What a listing of a site's extractions keeps: each filter given keeps the pages for which it
 * holds (`true`) or does not (`false`); one left undefined keeps every page. Filters combine.
 */
export interface PageExtractionFilters {
  /** The pipeline's self-check read the page alone (it did not trust the template's reading). */
  readAlone?: boolean | undefined;
  /** The main text has no words. */
  empty?: boolean | undefined;
  /** The extraction recorded at least one warning. */
  warnings?: boolean | undefined;
  /** Read by a template of this page type (the template's cluster, as `templates list` names it). */
  pageType?: string | undefined;
}

/** One page of a site's listing of extractions: what an analyst checks at a glance. */
export interface PageExtractionSummary {
  url: string;
  /** The page type of the template that read the page; null when no template did (`reader` while its type had none). */
  pageType: string | null;
  templateVersion: number | null;
  method: string;
  wordCount: number;
  readAlone: boolean;
  warningCount: number;
  firstWarning: string | null;
  /** The URL of the page of the site whose document stands for this one; null when it is indexed under its own. */
  duplicateOf: string | null;
  extractedAt: Date;
}

/** One page's extraction in full. */
export interface PageExtraction extends Omit<PageExtractionSummary, 'warningCount' | 'firstWarning'> {
  site: string;
  title: string | null;
  warnings: string[];
  mainText: string;
}

/**
 * The extraction a page is listed with: of its current body (an extraction of an older body is
 * being replaced; `status` counts the same pages as extracted), with the template that read it (SQL
 * over `p` pages, `e` extractions and `t` templates).
 */
const CURRENT_EXTRACTION = 'JOIN extractions e ON e.page_id = p.id AND e.content_hash = p.content_hash LEFT JOIN templates t ON t.id = e.template_id';

/**
 * A site's pages with the extraction of their current body, in the order of their URLs,
 * narrowed by `filters`, with how many match in all (for paging).
 */
export async function listPageExtractions(
  db: Queryable,
  siteId: number,
  query: PageExtractionFilters & { offset: number; limit: number },
): Promise<{ total: number; entries: PageExtractionSummary[] }> {
  const where = `p.site_id = $1 AND ($2::boolean IS NULL OR e.read_alone = $2) AND ($3::boolean IS NULL OR (e.word_count = 0) = $3)
     AND ($4::boolean IS NULL OR (jsonb_array_length(e.warnings) > 0) = $4) AND ($5::text IS NULL OR t.cluster = $5)`;
  const params = [siteId, query.readAlone ?? null, query.empty ?? null, query.warnings ?? null, query.pageType ?? null];
  const [counted] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM pages p ${CURRENT_EXTRACTION} WHERE ${where}`, params);
  const rows = await db.query<{
    url: string;
    page_type: string | null;
    template_version: number | null;
    method: string;
    word_count: number;
    read_alone: boolean;
    warning_count: number;
    first_warning: string | null;
    duplicate_of: string | null;
    extracted_at: Date;
  }>(
    `SELECT p.url, t.cluster AS page_type, e.template_version, e.method, e.word_count, e.read_alone,
            jsonb_array_length(e.warnings) AS warning_count, e.warnings->>0 AS first_warning, p.duplicate_of, e.extracted_at
       FROM pages p ${CURRENT_EXTRACTION}
      WHERE ${where}
      ORDER BY p.url LIMIT $6 OFFSET $7`,
    [...params, query.limit, query.offset],
  );
  return {
    total: counted?.total ?? 0,
    entries: rows.map((row) => ({
      url: row.url,
      pageType: row.page_type,
      templateVersion: row.template_version,
      method: row.method,
      wordCount: row.word_count,
      readAlone: row.read_alone,
      warningCount: row.warning_count,
      firstWarning: row.first_warning,
      duplicateOf: row.duplicate_of,
      extractedAt: row.extracted_at,
    })),
  };
}

/** A page found by its URL, with its extraction when its current body has one (`PageExtraction`), else why it has none. */
export interface PageByUrl {
  site: string;
  url: string;
  /** Why the page has no stored body (`HTTP 404`, `not HTML: …`, a removal's reason); null when it has one. */
  fetchError: string | null;
  stored: boolean;
  extraction: PageExtraction | null;
}

/**
 * The pages of the given sites (every site when `siteName` is null) at any of `urls` (spellings of
 * one URL), by site name: two sites that crawl the same URL have a page each. Found through each
 * site's (site, url) index, never by reading every page.
 */
export async function findPagesByUrl(db: Queryable, urls: readonly string[], siteName: string | null): Promise<PageByUrl[]> {
  const rows = await db.query<{
    site: string;
    url: string;
    fetch_error: string | null;
    stored: boolean;
    extracted: boolean;
    page_type: string | null;
    template_version: number | null;
    method: string | null;
    word_count: number | null;
    read_alone: boolean | null;
    warnings: string[] | null;
    title: string | null;
    main_text: string | null;
    duplicate_of: string | null;
    extracted_at: Date | null;
  }>(
    `SELECT s.name AS site, p.url, p.fetch_error, p.content_hash IS NOT NULL AS stored, e.page_id IS NOT NULL AS extracted,
            t.cluster AS page_type, e.template_version, e.method, e.word_count, e.read_alone, e.warnings, e.title, e.main_text,
            p.duplicate_of, e.extracted_at
       FROM sites s JOIN pages p ON p.site_id = s.id AND p.url = ANY($1::text[])
       LEFT JOIN extractions e ON e.page_id = p.id AND e.content_hash = p.content_hash LEFT JOIN templates t ON t.id = e.template_id
      WHERE $2::text IS NULL OR s.name = $2
      ORDER BY s.name, p.url`,
    [urls, siteName],
  );
  return rows.map((row) => ({
    site: row.site,
    url: row.url,
    fetchError: row.fetch_error,
    stored: row.stored,
    extraction: row.extracted
      ? {
          site: row.site,
          url: row.url,
          pageType: row.page_type,
          templateVersion: row.template_version,
          method: row.method ?? '',
          wordCount: row.word_count ?? 0,
          readAlone: row.read_alone ?? false,
          warnings: row.warnings ?? [],
          title: row.title,
          mainText: row.main_text ?? '',
          duplicateOf: row.duplicate_of,
          extractedAt: row.extracted_at ?? new Date(0),
        }
      : null,
  }));
}

/** A page's cleaned text as `winnow export` writes it. */
export interface ExportedExtraction {
  pageId: number;
  url: string;
  /** The article's headline, as the page's search document has it (`pageTitles`). */
  title: string;
  /** The page's `<title>`, the site's name and section included (the search document's `page_title`). */
  pageTitle: string;
  mainText: string;
  method: string;
  templateVersion: number | null;
  extractedAt: Date;
  /** The page whose document stands for this one, when the index files it under another. */
  duplicateOf: string | null;
}

/** A site's pages with an extraction of their current body, by page id, `limit` after `afterId`: an export reads them a batch at a time. */
export async function siteExtractions(db: Queryable, siteId: number, afterId: number, limit: number): Promise<ExportedExtraction[]> {
  const rows = await db.query<{
    id: number;
    url: string;
    title: string | null;
    headline: string | null;
    main_text: string;
    method: string;
    template_version: number | null;
    extracted_at: Date;
    duplicate_of: string | null;
  }>(
    `SELECT p.id, p.url, e.title, e.headline, e.main_text, e.method, e.template_version, e.extracted_at, p.duplicate_of
       FROM pages p JOIN extractions e ON e.page_id = p.id AND e.content_hash = p.content_hash
      WHERE p.site_id = $1 AND p.id > $2 ORDER BY p.id LIMIT $3`,
    [siteId, afterId, limit],
  );
  return rows.map((row) => ({
    pageId: row.id,
    url: row.url,
    ...pageTitles(row),
    mainText: row.main_text,
    method: row.method,
    templateVersion: row.template_version,
    extractedAt: row.extracted_at,
    duplicateOf: row.duplicate_of,
  }));
}

/** What re-reading a page's current extraction needs: its body's hash and type, and the template (and site) that read it. */
export interface ExtractionSource {
  siteId: number;
  contentHash: string;
  contentType: string | null;
  method: string;
  templateId: number | null;
  /** The template's page type and version (null when no template read the page). */
  pageType: string | null;
  templateVersion: number | null;
}

/** The source of a site's page's current extraction (the page inspector re-reads it); undefined when the page has none. */
export async function extractionSource(db: Queryable, siteName: string, url: string): Promise<ExtractionSource | undefined> {
  const rows = await db.query<{
    site_id: number;
    content_hash: string;
    content_type: string | null;
    method: string;
    template_id: number | null;
    page_type: string | null;
    template_version: number | null;
  }>(
    `SELECT s.id AS site_id, p.content_hash, p.content_type, e.method, e.template_id, t.cluster AS page_type, t.version AS template_version
       FROM sites s JOIN pages p ON p.site_id = s.id ${CURRENT_EXTRACTION}
      WHERE s.name = $1 AND p.url = $2`,
    [siteName, url],
  );
  const row = rows[0];
  return (
    row && {
      siteId: row.site_id,
      contentHash: row.content_hash,
      contentType: row.content_type,
      method: row.method,
      templateId: row.template_id,
      pageType: row.page_type,
      templateVersion: row.template_version,
    }
  );
}
