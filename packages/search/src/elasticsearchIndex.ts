import pRetry from 'p-retry';
import type { Client, estypes } from '@elastic/elasticsearch';
import { highlight } from './highlight.js';
import { indexedWords } from './query.js';
import { bridgesOf } from './readPast.js';
import {
  documentIdFor,
  MAX_RESULT_WINDOW,
  SearchIndexError,
  type IndexDocument,
  type SearchIndex,
  type SearchRequest,
  type SearchResponse,
} from './searchIndex.js';

/**
 * `@elastic/elasticsearch`, loaded when the first index is made: it brings some 300 modules
 * (Arrow, OpenTelemetry), which a process on the Postgres index, or a command that prints its
 * help, never needs.
 */
let elasticsearch: typeof import('@elastic/elasticsearch') | undefined;
const loadElasticsearch = async () => {
  elasticsearch ??= await import('@elastic/elasticsearch');
  return elasticsearch;
};

export interface ElasticsearchIndexOptions {
  /** One node, or several of one cluster: the client spreads requests over them and skips a node that is down. */
  url: string | readonly string[];
  /** The alias every read and write goes through. */
  alias?: string;
  /** Replicas of the index: 0 for a single node (a replica could never be placed there). */
  replicas?: number;
  /** Primary shards of a new index: more spread writes and searches over more nodes (fixed once the index exists). */
  shards?: number;
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
  /** The article's headline; `page_title` is the page's `<title>` (absent in documents of scheme 3 and older). */
  title: string;
  page_title?: string;
  main_text: string;
  /**
   * What phrases and terms match, left out of `_source`: the main text's words as queries read them
   * (`indexedWords`), then its bridges across short interrupting lines (`bridgesOf`), one value each.
   */
  main_words: string[];
  template_version: number | null;
  extracted_at: string;
}

/**
 * The document scheme an index holds, recorded in its mapping's `_meta`
 * (`winnow_document_scheme`): what its ids mean and its mapping. 1 (no `_meta`): ids per URL. 2:
 * ids per site and URL (`documentIdFor`). 3: queries match `main_words`. 4: `title` is the
 * article's headline, `page_title` the page's `<title>`. 5: `main_words` also holds the bridges.
 * `ensureReady` re-indexes an index of an older scheme; raise this whenever a change to
 * `INDEX_BODY` or to the ids needs the documents copied again.
 */
export const DOCUMENT_SCHEME = 5;

/**
 * The index mapping. Queries match `main_words`, the main text's words as the queries read them
 * (`indexedWords`), analysed by a fixed `standard`-tokenizer + `lowercase` analyser with
 * `index_phrases` (word pairs indexed, so phrase queries are fast): the tokenizer alone kept
 * `company's`, `300,000` and `u.s` as one word each, which a query never sends, and a phrase
 * touching one never matched. Only the server's built-in analysers exist on every node Winnow
 * meets (the Maven Central node has no analysis-common, so no character filter could do it). The
 * words are one field in document order, so a phrase across two consecutive blocks matches; they
 * are left out of `_source`, which keeps the main text the hits show. The field's further values
 * are the bridges across a caption or a dateline that interrupts the article (`bridgesOf`), one
 * each: a text field's values stand 100 positions apart, so a phrase matches inside the main
 * text's words or inside one bridge, never across two, and one phrase query asks both (a second
 * field asked beside it held a bare `_search` to 0.60-0.76 of its throughput). `main_text` stays
 * `standard`-analysed: while an index of scheme 2 is copied, queries also name its fields.
 */
export const INDEX_BODY = (replicas: number, shards = 1) => ({
  settings: {
    number_of_shards: shards,
    number_of_replicas: replicas,
    analysis: { analyzer: { winnow_exact: { type: 'custom' as const, tokenizer: 'standard', filter: ['lowercase'] } } },
  },
  mappings: {
    _meta: { winnow_document_scheme: DOCUMENT_SCHEME },
    _source: { excludes: ['main_words'] },
    dynamic: 'strict' as const,
    properties: {
      doc_id: { type: 'keyword' as const },
      page_id: { type: 'integer' as const },
      site: { type: 'keyword' as const },
      url: { type: 'keyword' as const },
      title: { type: 'text' as const, analyzer: 'standard' },
      page_title: { type: 'text' as const, analyzer: 'standard' },
      main_text: { type: 'text' as const, analyzer: 'standard' },
      main_words: { type: 'text' as const, analyzer: 'winnow_exact', index_phrases: true },
      template_version: { type: 'keyword' as const },
      extracted_at: { type: 'date' as const },
    },
  },
});

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/**
 * The search index in Elasticsearch (`ELASTICSEARCH_URL`). Every read and write goes through the
 * alias; documents are keyed by site and URL (`documentIdFor`).
 *
 * Re-indexing a site without an empty window — the choice: versioned in-place updates. Each
 * document's id is stable per site and URL and its external version is the extraction time
 * (`version_type: external_gte`), so when a site's template changes, each page's new text
 * replaces the old one in one write, the old text stays searchable until then, a late write of an
 * older extraction cannot overwrite a newer one, and writing the same extraction twice is a no-op.
 *
 * Re-indexing everything when the document scheme changes (`DOCUMENT_SCHEME`: the ids or the
 * mapping) — an alias swap: `ensureReady` finds the scheme of the index behind the alias in its
 * `_meta`, and when it is older, copies the documents into the next index under their new ids,
 * moves the alias there atomically and deletes the old index (see `#reindex`).
 *
 * Writes use the client's bulk helper; a write refused with 429/502/503/504, refused because the
 * index is being re-indexed, or lost with the connection is retried with exponential backoff
 * (capped at 10 s) for `retryForMs`. Errors of reads and removals are `SearchIndexError`s, whose
 * messages never carry the engine's text.
 */
export class ElasticsearchIndex implements SearchIndex {
  readonly kind = 'elasticsearch';
  readonly alias: string;
  /** The client, once `loadElasticsearch` has loaded it. */
  readonly #client: Promise<Client>;
  readonly #replicas: number;
  readonly #shards: number;
  readonly #flushBytes: number;
  readonly #retryForMs: number;
  /**
   * The index behind the alias is of the current scheme, as `ensureReady` found or made it: a
   * search then asks the current fields alone. Until then (a process that searches without having
   * started the index, such as one reading while another re-indexes) each clause also asks the
   * fields of scheme 2, which the index being copied answers with: twice the matching work, which
   * halved the throughput of every search.
   */
  #current = false;

  constructor(options: ElasticsearchIndexOptions) {
    this.#client = loadElasticsearch().then(
      ({ Client }) => new Client({ nodes: typeof options.url === 'string' ? [options.url] : [...options.url], maxRetries: 2, requestTimeout: 30_000 }),
    );
    this.alias = options.alias ?? 'winnow-pages';
    this.#replicas = options.replicas ?? 0;
    this.#shards = options.shards ?? 1;
    this.#flushBytes = options.flushBytes ?? 5_000_000;
    this.#retryForMs = options.retryForMs ?? 300_000;
  }

  /**
   * Creates the first index behind the alias unless the alias exists, and re-indexes an index of
   * an older document scheme; waits up to 30 s for the cluster.
   */
  async ensureReady(): Promise<void> {
    // A round that finds no alias creates it (or loses that race to another process) and looks again.
    for (let round = 0; round < 3; round++) {
      const current = await this.#withRetries(30_000, () => this.#indexBehindAlias());
      if (!current) {
        await this.#withRetries(30_000, () => this.#createIndex(`${this.alias}-v1`, { withAlias: true }));
        continue;
      }
      if (current.scheme >= DOCUMENT_SCHEME) {
        this.#current = true;
        return;
      }
      try {
        await this.#reindex(current.index);
        this.#current = true;
        return;
      } catch (error) {
        // Another process starting at the same time may have finished the same re-index first, and deleted the old index under this one.
        const now = await this.#indexBehindAlias().catch(() => undefined);
        if (now && now.scheme >= DOCUMENT_SCHEME) {
          this.#current = true;
          return;
        }
        throw error;
      }
    }
    throw new Error(
      `the Elasticsearch alias ${this.alias} is missing and an index named ${this.alias}-v1 exists without it: add the alias or delete the index`,
    );
  }

  async upsert(documents: readonly IndexDocument[]): Promise<void> {
    await this.#write(this.alias, documents.map(toStored));
  }

  async removeSite(site: string): Promise<void> {
    await this.#deleteMatching({ term: { site } }, `the removal of site ${site}`);
  }

  async removePages(pageIds: readonly number[]): Promise<void> {
    if (pageIds.length === 0) return;
    await this.#deleteMatching({ terms: { page_id: [...pageIds] } }, `the removal of ${pageIds.length} page(s)`);
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    if (request.sites.length === 0) return { total: 0, totalRelation: 'eq', hits: [] };
    const { phrases, terms } = request.query;
    const client = await this.#client;
    const response = await this.#answering('the search', () =>
      client.search<StoredDocument>({
        index: this.alias,
        from: request.offset,
        size: request.limit,
        track_total_hits: MAX_RESULT_WINDOW,
        _source: ['url', 'site', 'title', 'page_title', 'main_text'],
        sort: ['_score', { url: 'asc' }],
        query: {
          bool: {
            must: [
              ...phrases.map((words) =>
                this.#matching({ match_phrase: { main_words: words.join(' ') } }, { match_phrase: { 'main_text.exact': words.join(' ') } }),
              ),
              ...(terms.length > 0
                ? [
                    this.#matching(
                      { match: { main_words: { query: terms.join(' '), operator: 'and' as const } } },
                      { match: { main_text: { query: terms.join(' '), operator: 'and' as const } } },
                    ),
                  ]
                : []),
            ],
            filter: [{ terms: { site: [...request.sites] } }],
          },
        },
      }),
    );
    const total = response.hits.total;
    return {
      total: typeof total === 'number' ? total : (total?.value ?? 0),
      totalRelation: typeof total === 'object' && total.relation === 'gte' ? 'gte' : 'eq',
      hits: response.hits.hits.map((hit) => {
        const doc = hit._source as StoredDocument;
        return {
          docId: hit._id as string,
          url: doc.url,
          site: doc.site,
          title: doc.title,
          pageTitle: doc.page_title ?? doc.title,
          score: hit._score ?? 0,
          highlights: highlight(doc.main_text, request.query),
        };
      }),
    };
  }

  /** A clause on the current fields, or also on scheme 2's while the index may not be current yet (`#current`). */
  #matching(current: estypes.QueryDslQueryContainer, schemeTwo: estypes.QueryDslQueryContainer): estypes.QueryDslQueryContainer {
    return this.#current ? current : { bool: { should: [current, schemeTwo] } };
  }

  async count(site?: string): Promise<number> {
    const client = await this.#client;
    const response = await this.#answering('the count', () => client.count({ index: this.alias, ...(site ? { query: { term: { site } } } : {}) }));
    return response.count;
  }

  async documentVersions(): Promise<Map<number, number>> {
    return this.#answering('the listing of documents', async () => {
      await (await this.#client).indices.refresh({ index: this.alias });
      const versions = new Map<number, number>();
      let after: (string | number)[] | undefined;
      for (;;) {
        const found = await (await this.#client).search<Pick<StoredDocument, 'page_id' | 'extracted_at'>>({
          index: this.alias,
          size: 5000,
          _source: ['page_id', 'extracted_at'],
          sort: [{ page_id: 'asc' }],
          ...(after ? { search_after: after } : {}),
        });
        const hits = found.hits.hits;
        for (const hit of hits) if (hit._source) versions.set(hit._source.page_id, Date.parse(hit._source.extracted_at));
        const last = hits.at(-1);
        if (!last?.sort) return versions;
        after = last.sort as (string | number)[];
      }
    });
  }

  /** Makes every write so far visible to searches (tests; the index refreshes each second anyway). */
  async refresh(): Promise<void> {
    await (await this.#client).indices.refresh({ index: this.alias });
  }

  async close(): Promise<void> {
    await (await this.#client).close();
  }

  /** The one index behind the alias and the document scheme its `_meta` records (1 when it records none); undefined without the alias. */
  async #indexBehindAlias(): Promise<{ index: string; scheme: number } | undefined> {
    if (!(await (await this.#client).indices.existsAlias({ name: this.alias }))) return undefined;
    const indices = Object.keys(await (await this.#client).indices.getAlias({ name: this.alias }));
    const [index] = indices;
    if (indices.length !== 1 || index === undefined) {
      throw new Error(`the Elasticsearch alias ${this.alias} points to ${indices.length} indexes (${indices.join(', ')}); Winnow reads and writes through one`);
    }
    const mapping = await (await this.#client).indices.getMapping({ index });
    const scheme = mapping[index]?.mappings._meta?.winnow_document_scheme;
    return { index, scheme: typeof scheme === 'number' ? scheme : 1 };
  }

  /** Creates an index of the current scheme; false when it exists already (another process created it, or an interrupted re-index did). */
  async #createIndex(index: string, { withAlias }: { withAlias: boolean }): Promise<boolean> {
    try {
      await (await this.#client).indices.create({
        index,
        ...INDEX_BODY(this.#replicas, this.#shards),
        ...(withAlias ? { aliases: { [this.alias]: { is_write_index: true } } } : {}),
      });
      return true;
    } catch (error) {
      const { errors } = await loadElasticsearch();
      if (error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception') return false;
      throw error;
    }
  }

  /**
   * Moves the alias from `old`, an index of an older document scheme, to the next index holding
   * the same documents under the current scheme's ids:
   *
   * 1. create the next index (`<alias>-v<n+1>`), unless an interrupted run already did;
   * 2. block writes to `old` and refresh it, so the copy sees every acknowledged write and none is
   *    lost after it (writers are refused and retry; see `#write`);
   * 3. copy every document (a scroll over `old`), its id recomputed, its version kept;
   * 4. refresh the next index and check it holds at least as many documents;
   * 5. in one alias update, remove the alias from `old` and add it to the next index;
   * 6. delete `old`.
   *
   * Searches read `old` until step 5 and the complete, refreshed next index from then on: there is
   * no moment when a search finds nothing. Every step can run again, so an interrupted run is
   * finished by the next start, and processes that start together may all run it: they copy the
   * same documents at the same versions, one alias update wins, and the others stop copying once
   * the alias has moved, or fail their alias update and find it moved (`ensureReady`).
   */
  async #reindex(old: string): Promise<void> {
    const next = nextIndexName(old, this.alias);
    await this.#withRetries(this.#retryForMs, async () => {
      await this.#createIndex(next, { withAlias: false });
      await (await this.#client).indices.addBlock({ index: old, block: 'write' });
      await (await this.#client).indices.refresh({ index: old });
    });
    for await (const batch of (await this.#client).helpers.scrollSearch<StoredDocument>({ index: old, size: 1000, sort: ['_doc'] })) {
      // Another process has finished first and writes go to its copy now: copying more could only bring back what was removed since.
      if ((await this.#indexBehindAlias())?.index !== old) return;
      await this.#write(
        next,
        batch.documents.map((doc) => ({
          ...doc,
          doc_id: documentIdFor(doc.site, doc.url),
          page_title: doc.page_title ?? doc.title,
          main_words: matchedWords(doc.main_text),
        })),
      );
    }
    await (await this.#client).indices.refresh({ index: next });
    const [inOld, inNext] = await Promise.all([(await this.#client).count({ index: old }), (await this.#client).count({ index: next })]);
    if (inNext.count < inOld.count) {
      throw new Error(`re-indexing ${old} into ${next} copied ${inNext.count} of ${inOld.count} documents; the alias ${this.alias} still points to ${old}`);
    }
    await (await this.#client).indices.updateAliases({
      actions: [{ remove: { index: old, alias: this.alias } }, { add: { index: next, alias: this.alias, is_write_index: true } }],
    });
    await (await this.#client).indices.delete({ index: old }, { ignore: [404] });
  }

  /**
   * Writes documents to `index` (the alias, or the next index of a re-index) at their extraction
   * time's version; the documents Elasticsearch could not take yet (429, a blocked index being
   * re-indexed, a lost connection) are written again, with the same retries as every other call.
   */
  async #write(index: string, documents: readonly StoredDocument[]): Promise<void> {
    let pending: StoredDocument[] = [...documents];
    try {
      await this.#withRetries(this.#retryForMs, async () => {
        pending = await this.#bulk(index, pending);
        if (pending.length > 0) throw new NotTakenYet(pending.length);
      });
    } catch (error) {
      if (error instanceof NotTakenYet)
        throw new SearchIndexError(`Elasticsearch did not take ${error.count} document(s) within ${this.#retryForMs} ms`, { unavailable: true });
      if (isTransient(error))
        throw new SearchIndexError(`Elasticsearch did not answer the write (${(error as Error).name})`, { cause: error, unavailable: true });
      throw error;
    }
  }

  /** One bulk write; returns the documents to write again, throws for those Elasticsearch refused for good. */
  async #bulk(index: string, documents: StoredDocument[]): Promise<StoredDocument[]> {
    const retry: StoredDocument[] = [];
    const refused: string[] = [];
    try {
      await (await this.#client).helpers.bulk<StoredDocument>({
        datasource: documents,
        onDocument: (doc) => ({ index: { _index: index, _id: doc.doc_id, version: Date.parse(doc.extracted_at), version_type: 'external_gte' } }),
        flushBytes: this.#flushBytes,
        concurrency: 1,
        retries: 3,
        wait: 500,
        onDrop: (dropped) => {
          if (dropped.status === 409) return; // a newer extraction of this page is already indexed
          // A blocked index is being re-indexed: once the alias has moved, the write goes to the next index.
          if (RETRYABLE_STATUS.has(dropped.status) || dropped.error?.type === 'cluster_block_exception') retry.push(dropped.document);
          else refused.push(`${dropped.document.url}: ${dropped.error?.type ?? dropped.status} ${dropped.error?.reason ?? ''}`);
        },
      });
    } catch (error) {
      if (!isTransient(error)) throw error;
      return documents;
    }
    if (refused.length > 0) throw new Error(`Elasticsearch refused ${refused.length} document(s): ${refused.slice(0, 3).join('; ')}`);
    return retry;
  }

  /** Deletes every document the query matches, after a refresh so that every acknowledged write is among them. */
  async #deleteMatching(query: Record<string, unknown>, what: string): Promise<void> {
    await this.#answering(what, () =>
      this.#withRetries(this.#retryForMs, async () => {
        await (await this.#client).indices.refresh({ index: this.alias });
        for (;;) {
          const found = await (await this.#client).search({ index: this.alias, size: 1000, query, _source: false });
          if (found.hits.hits.length === 0) return;
          const deleted = await (await this.#client).bulk({
            refresh: true,
            operations: found.hits.hits.map((hit) => ({ delete: { _index: this.alias, _id: hit._id as string } })),
          });
          const failed = deleted.items.filter((item) => item.delete?.error && item.delete.status !== 404);
          if (failed.length > 0) throw new Error(`Elasticsearch refused to delete ${failed.length} document(s): ${failed[0]?.delete?.error?.type}`);
        }
      }),
    );
  }

  /** Runs a read or a removal; an error of the client becomes a `SearchIndexError` that says what failed without the engine's text. */
  async #answering<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const unavailable = isTransient(error);
      const { errors } = await loadElasticsearch();
      if (error instanceof errors.ResponseError)
        throw new SearchIndexError(`Elasticsearch answered HTTP ${error.statusCode ?? '?'} to ${what}`, { cause: error, unavailable });
      if (error instanceof errors.ElasticsearchClientError)
        throw new SearchIndexError(`Elasticsearch did not answer ${what} (${error.name})`, { cause: error, unavailable });
      throw new SearchIndexError(`${what} failed`, { cause: error });
    }
  }

  /** Runs `work` again while it fails for a reason that can pass (`isTransient`), backing off from 250 ms to 10 s, for up to `retryForMs`. */
  #withRetries<T>(retryForMs: number, work: () => Promise<T>): Promise<T> {
    return pRetry(work, {
      retries: Number.POSITIVE_INFINITY,
      minTimeout: 250,
      maxTimeout: 10_000,
      maxRetryTime: retryForMs,
      shouldRetry: ({ error }) => isTransient(error),
    });
  }
}

/** Documents a bulk write has still to place: worth another try. */
class NotTakenYet extends Error {
  constructor(readonly count: number) {
    super(`${count} document(s) not taken yet`);
  }
}

/** The index a re-index of `old` creates: `<alias>-v<n>` becomes `<alias>-v<n+1>`. */
function nextIndexName(old: string, alias: string): string {
  const generation = /^(.*)-v(\d+)$/.exec(old);
  return generation ? `${generation[1]}-v${Number(generation[2]) + 1}` : `${alias}-v${DOCUMENT_SCHEME}`;
}

function toStored(doc: IndexDocument): StoredDocument {
  return {
    doc_id: doc.docId,
    page_id: doc.pageId,
    site: doc.site,
    url: doc.url,
    title: doc.title,
    page_title: doc.pageTitle,
    main_text: doc.mainText,
    main_words: matchedWords(doc.mainText),
    template_version: doc.templateVersion,
    extracted_at: doc.extractedAt.toISOString(),
  };
}

/** `main_words`: the main text's words, then each of its bridges. */
function matchedWords(mainText: string): string[] {
  return [indexedWords(mainText), ...bridgesOf(mainText)];
}

/** Errors that can pass: the connection is lost or refused, a timeout, or a 429/5xx gateway answer. */
function isTransient(error: unknown): boolean {
  if (error instanceof NotTakenYet) return true;
  // Only the client's calls fail with its errors, so it is loaded whenever one is seen here.
  if (!elasticsearch) return false;
  const { errors } = elasticsearch;
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || error instanceof errors.NoLivingConnectionsError) return true;
  return error instanceof errors.ResponseError && RETRYABLE_STATUS.has(error.statusCode ?? 0);
}
