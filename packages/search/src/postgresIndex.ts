import type { Queryable } from '@winnow/storage';
import { highlight } from './highlight.js';
import { indexedWords } from './query.js';
import { bridgesOf } from './readPast.js';
import { type IndexDocument, MAX_RESULT_WINDOW, type SearchIndex, type SearchRequest, type SearchResponse } from './searchIndex.js';

/**
 * The embedded default index: Postgres full-text search over `search_documents` (migration
 * 0001). Each document is stored with its title's and main text's words as the queries read them
 * (`indexedWords`; migration 0012), which the tsvector and `norm_text` are made of. The tsquery
 * finds candidates through the GIN index, every word of every phrase and term with `&`, and each
 * phrase is then checked on `norm_text`, the main text's words one space apart, so that a quoted
 * phrase matches exactly its words in order. (Not the phrase operator: a tsvector's positions stop
 * at 16,383, and a phrase further into a long page could never match.) A phrase also matches inside
 * one of the document's bridges (`bridgesOf`, migration 0020): across a caption or a dateline that
 * interrupts the article. Documents are keyed by site and URL (`documentIdFor`; migration 0002
 * re-keyed the rows of the URL-keyed scheme).
 */
export class PostgresSearchIndex implements SearchIndex {
  readonly kind = 'postgres';

  constructor(private readonly db: Queryable) {}

  async ensureReady(): Promise<void> {
    // The table belongs to the migrations; check it is there so a missing migration fails here.
    await this.db.query('SELECT 1 FROM search_documents LIMIT 1');
    await this.#addMissingBridges();
  }

  /**
   * Documents indexed before migration 0020 get their bridges, as Elasticsearch's documents get them
   * by the re-index of a new document scheme; a batch at a time, and never over bridges an upsert
   * wrote meanwhile. Once done, finding none is a lookup in an empty partial index.
   */
  async #addMissingBridges(): Promise<void> {
    for (;;) {
      const rows = await this.db.query<{ doc_id: string; main_text: string }>(
        `SELECT doc_id, main_text FROM search_documents WHERE bridge_words IS NULL LIMIT ${BRIDGES_BATCH}`,
      );
      if (rows.length === 0) return;
      await this.db.query(
        `UPDATE search_documents AS document SET bridge_words = computed.bridge_words
           FROM unnest($1::text[], $2::text[]) AS computed(doc_id, bridge_words)
          WHERE document.doc_id = computed.doc_id AND document.bridge_words IS NULL`,
        [rows.map((row) => row.doc_id), rows.map((row) => storedBridges(row.main_text))],
      );
    }
  }

  async upsert(documents: readonly IndexDocument[]): Promise<void> {
    if (documents.length === 0) return;
    await this.db.query(
      `INSERT INTO search_documents (doc_id, page_id, site, url, title, main_text, template_version, extracted_at, title_words, main_words, page_title, bridge_words)
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::timestamptz[], $9::text[], $10::text[], $11::text[], $12::text[])
       ON CONFLICT (doc_id) DO UPDATE SET page_id = excluded.page_id, site = excluded.site, url = excluded.url, title = excluded.title,
         page_title = excluded.page_title,
         main_text = excluded.main_text, template_version = excluded.template_version, extracted_at = excluded.extracted_at,
         title_words = excluded.title_words, main_words = excluded.main_words, bridge_words = excluded.bridge_words, indexed_at = now()`,
      [
        documents.map((doc) => doc.docId),
        documents.map((doc) => doc.pageId),
        documents.map((doc) => doc.site),
        documents.map((doc) => doc.url),
        documents.map((doc) => doc.title),
        documents.map((doc) => doc.mainText),
        documents.map((doc) => doc.templateVersion),
        documents.map((doc) => doc.extractedAt.toISOString()),
        documents.map((doc) => indexedWords(doc.title)),
        documents.map((doc) => indexedWords(doc.mainText)),
        documents.map((doc) => doc.pageTitle),
        documents.map((doc) => storedBridges(doc.mainText)),
      ],
    );
  }

  async removeSite(site: string): Promise<void> {
    await this.db.query('DELETE FROM search_documents WHERE site = $1', [site]);
  }

  async removePages(pageIds: readonly number[]): Promise<void> {
    if (pageIds.length === 0) return;
    await this.db.query('DELETE FROM search_documents WHERE page_id = ANY($1::int[])', [pageIds]);
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    if (request.sites.length === 0) return { total: 0, totalRelation: 'eq', hits: [] };
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const tsqueries = [
      ...request.query.phrases.map((words) => `plainto_tsquery('simple', ${param(words.join(' '))})`),
      ...request.query.terms.map((term) => `plainto_tsquery('simple', ${param(term)})`),
    ];
    const conditions = [
      `search_vector @@ (${tsqueries.join(' && ')})`,
      ...request.query.phrases.map((words) => {
        const pattern = param(`% ${words.join(' ')} %`);
        return `(norm_text LIKE ${pattern} OR bridge_words LIKE ${pattern})`;
      }),
      `site = ANY(${param(request.sites)}::text[])`,
    ];
    const where = conditions.join(' AND ');
    const [counted] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM (SELECT 1 FROM search_documents WHERE ${where} LIMIT ${MAX_RESULT_WINDOW + 1}) AS matching`,
      params,
    );
    const total = counted?.total ?? 0;
    const rank = `ts_rank(search_vector, ${tsqueries.join(' && ')})`;
    const rows = await this.db.query<{ doc_id: string; url: string; site: string; title: string; page_title: string; main_text: string; score: number }>(
      `SELECT doc_id, url, site, title, page_title, main_text, ${rank}::float8 AS score FROM search_documents WHERE ${where}
        ORDER BY score DESC, url LIMIT ${param(request.limit)} OFFSET ${param(request.offset)}`,
      params,
    );
    return {
      total: Math.min(total, MAX_RESULT_WINDOW),
      totalRelation: total > MAX_RESULT_WINDOW ? 'gte' : 'eq',
      hits: rows.map((row) => ({
        docId: row.doc_id,
        url: row.url,
        site: row.site,
        title: row.title,
        pageTitle: row.page_title,
        score: row.score,
        highlights: highlight(row.main_text, request.query),
      })),
    };
  }

  async count(site?: string): Promise<number> {
    const [row] = await this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM search_documents WHERE $1::text IS NULL OR site = $1', [
      site ?? null,
    ]);
    return row?.count ?? 0;
  }

  async documentVersions(): Promise<Map<number, number>> {
    const rows = await this.db.query<{ page_id: number; extracted_at: Date }>('SELECT page_id, extracted_at FROM search_documents');
    return new Map(rows.map((row) => [row.page_id, row.extracted_at.getTime()]));
  }

  async close(): Promise<void> {
    // The database belongs to whoever opened it.
  }
}

/** Documents given their bridges per statement when an older index is brought up to date. */
const BRIDGES_BATCH = 500;

/** A document's bridges as `bridge_words` stores them (migration 0020): ' | ' between two, a space at each end, '' for none. */
function storedBridges(mainText: string): string {
  const bridges = bridgesOf(mainText);
  return bridges.length === 0 ? '' : ` ${bridges.join(' | ')} `;
}
