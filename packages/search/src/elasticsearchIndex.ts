import { Client, errors } from '@elastic/elasticsearch';
import { highlight } from './highlight.js';
import type { IndexDocument, SearchIndex, SearchRequest, SearchResponse } from './searchIndex.js';

export interface ElasticsearchIndexOptions {
  url: string;
  /** The alias every read and write goes through. */
  alias?: string;
  /** Replicas of the index: 0 for a single node (a replica could never be placed there). */
  replicas?: number;
  /** The bulk helper sends a request once this many bytes of actions wait. */
  flushBytes?: number;
  /** Writes that fail for a reason that can pass (429, connection lost) are retried for this long. */
  retryForMs?: number;
}

/** Fields as stored; `main_text` is the page's main text in document order, one block per line. */
interface StoredDocument {
  doc_id: string;
  page_id: number;
  site: string;
  url: string;
  title: string;
  main_text: string;
  template_version: number | null;
  extracted_at: string;
}

/**
 * The index mapping. Only the server's built-in analysers exist on every node Winnow meets (the
 * Maven Central node has no analysis-common), so `main_text` is `standard`-analysed with
 * `index_phrases` (word pairs indexed, so phrase queries are fast) and `main_text.exact` uses a
 * fixed `standard`-tokenizer + `lowercase` analyser that quoted queries go to: if the main field
 * is ever given a stemming analyser, quoted phrases stay exact. The main text is one field in
 * document order, so a phrase across two consecutive blocks matches.
 */
export const INDEX_BODY = (replicas: number) => ({
  settings: {
    number_of_shards: 1,
    number_of_replicas: replicas,
    analysis: { analyzer: { winnow_exact: { type: 'custom', tokenizer: 'standard', filter: ['lowercase'] } } },
  },
  mappings: {
    dynamic: 'strict' as const,
    properties: {
      doc_id: { type: 'keyword' as const },
      page_id: { type: 'integer' as const },
      site: { type: 'keyword' as const },
      url: { type: 'keyword' as const },
      title: { type: 'text' as const, analyzer: 'standard' },
      main_text: {
        type: 'text' as const,
        analyzer: 'standard',
        index_phrases: true,
        fields: { exact: { type: 'text' as const, analyzer: 'winnow_exact', index_phrases: true } },
      },
      template_version: { type: 'keyword' as const },
      extracted_at: { type: 'date' as const },
    },
  },
});

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/**
 * The search index in Elasticsearch (`ELASTICSEARCH_URL`).
 *
 * Re-indexing without an empty window — the choice: versioned in-place updates. Each document's
 * id is stable per URL and its external version is the extraction time (`version_type:
 * external_gte`), so when a site's template changes, each page's new text replaces the old one
 * in one write, the old text stays searchable until then, a late write of an older extraction
 * cannot overwrite a newer one, and writing the same extraction twice is a no-op. An alias swap to
 * a rebuilt index would also avoid the window, but would re-copy every site's documents whenever
 * one site changed; it stays the way to change the mapping: reads and writes go through the alias.
 *
 * Writes use the client's bulk helper; a write refused with 429/502/503/504 or lost with the
 * connection is retried with exponential backoff (capped at 10 s) for `retryForMs`.
 */
export class ElasticsearchIndex implements SearchIndex {
  readonly kind = 'elasticsearch';
  readonly alias: string;
  readonly #client: Client;
  readonly #replicas: number;
  readonly #flushBytes: number;
  readonly #retryForMs: number;

  constructor(options: ElasticsearchIndexOptions) {
    this.#client = new Client({ node: options.url, maxRetries: 2, requestTimeout: 30_000 });
    this.alias = options.alias ?? 'winnow-pages';
    this.#replicas = options.replicas ?? 0;
    this.#flushBytes = options.flushBytes ?? 5_000_000;
    this.#retryForMs = options.retryForMs ?? 300_000;
  }

  /** Creates the first index behind the alias unless it exists; waits up to 30 s for the cluster. */
  async ensureReady(): Promise<void> {
    await this.#withRetries(30_000, async () => {
      if (await this.#client.indices.existsAlias({ name: this.alias })) return;
      try {
        await this.#client.indices.create({ index: `${this.alias}-v1`, ...INDEX_BODY(this.#replicas), aliases: { [this.alias]: { is_write_index: true } } });
      } catch (error) {
        // Another process created it first.
        if (!(error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception')) throw error;
      }
    });
  }

  async upsert(documents: readonly IndexDocument[]): Promise<void> {
    let pending: StoredDocument[] = documents.map(toStored);
    let delay = 250;
    const deadline = Date.now() + this.#retryForMs;
    while (pending.length > 0) {
      const retry: StoredDocument[] = [];
      const refused: string[] = [];
      try {
        await this.#client.helpers.bulk<StoredDocument>({
          datasource: pending,
          onDocument: (doc) => ({ index: { _index: this.alias, _id: doc.doc_id, version: Date.parse(doc.extracted_at), version_type: 'external_gte' } }),
          flushBytes: this.#flushBytes,
          concurrency: 1,
          retries: 3,
          wait: 500,
          onDrop: (dropped) => {
            if (dropped.status === 409) return; // a newer extraction of this page is already indexed
            if (RETRYABLE_STATUS.has(dropped.status)) retry.push(dropped.document);
            else refused.push(`${dropped.document.url}: ${dropped.error?.type ?? dropped.status} ${dropped.error?.reason ?? ''}`);
          },
        });
      } catch (error) {
        if (!isTransient(error)) throw error;
        retry.splice(0, retry.length, ...pending);
      }
      if (refused.length > 0) throw new Error(`Elasticsearch refused ${refused.length} document(s): ${refused.slice(0, 3).join('; ')}`);
      pending = retry;
      if (pending.length === 0) break;
      if (Date.now() + delay > deadline) throw new Error(`Elasticsearch did not take ${pending.length} document(s) within ${this.#retryForMs} ms`);
      await sleep(delay);
      delay = Math.min(delay * 2, 10_000);
    }
  }

  async removeSite(site: string): Promise<void> {
    await this.#withRetries(this.#retryForMs, async () => {
      await this.#client.indices.refresh({ index: this.alias });
      for (;;) {
        const found = await this.#client.search<StoredDocument>({ index: this.alias, size: 1000, query: { term: { site } }, _source: false });
        if (found.hits.hits.length === 0) return;
        await this.#client.bulk({ refresh: true, operations: found.hits.hits.map((hit) => ({ delete: { _index: this.alias, _id: hit._id as string } })) });
      }
    });
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    const { phrases, terms } = request.query;
    const response = await this.#client.search<StoredDocument>({
      index: this.alias,
      from: request.offset,
      size: request.limit,
      track_total_hits: true,
      _source: ['url', 'site', 'title', 'main_text'],
      sort: ['_score', { url: 'asc' }],
      query: {
        bool: {
          must: [
            ...phrases.map((words) => ({ match_phrase: { 'main_text.exact': words.join(' ') } })),
            ...(terms.length > 0 ? [{ match: { main_text: { query: terms.join(' '), operator: 'and' as const } } }] : []),
          ],
          filter: request.site ? [{ term: { site: request.site } }] : [],
        },
      },
    });
    const total = response.hits.total;
    return {
      total: typeof total === 'number' ? total : (total?.value ?? 0),
      hits: response.hits.hits.map((hit) => {
        const doc = hit._source as StoredDocument;
        return { docId: hit._id as string, url: doc.url, site: doc.site, title: doc.title, score: hit._score ?? 0, highlights: highlight(doc.main_text, request.query) };
      }),
    };
  }

  async count(site?: string): Promise<number> {
    const response = await this.#client.count({ index: this.alias, ...(site ? { query: { term: { site } } } : {}) });
    return response.count;
  }

  /** Makes every write so far visible to searches (tests; the index refreshes each second anyway). */
  async refresh(): Promise<void> {
    await this.#client.indices.refresh({ index: this.alias });
  }

  async close(): Promise<void> {
    await this.#client.close();
  }

  async #withRetries<T>(retryForMs: number, work: () => Promise<T>): Promise<T> {
    let delay = 250;
    const deadline = Date.now() + retryForMs;
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (!isTransient(error) || Date.now() + delay > deadline) throw error;
        await sleep(delay);
        delay = Math.min(delay * 2, 10_000);
      }
    }
  }
}

function toStored(doc: IndexDocument): StoredDocument {
  return {
    doc_id: doc.docId,
    page_id: doc.pageId,
    site: doc.site,
    url: doc.url,
    title: doc.title,
    main_text: doc.mainText,
    template_version: doc.templateVersion,
    extracted_at: doc.extractedAt.toISOString(),
  };
}

/** Errors that can pass: the connection is lost or refused, a timeout, or a 429/5xx gateway answer. */
function isTransient(error: unknown): boolean {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError) return true;
  return error instanceof errors.ResponseError && RETRYABLE_STATUS.has(error.statusCode ?? 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
