import { createHash } from 'node:crypto';
import type { IndexablePage } from '@winnow/storage';
import type { ParsedQuery } from './query.js';

/** What the index stores per page (its main text in document order, one block per line), under an id stable per site and URL. */
export interface IndexDocument extends IndexablePage {
  docId: string;
}

export interface SearchRequest {
  query: ParsedQuery;
  /**
   * Only documents of these sites answer: the site asked for, or every site that exists. The
   * caller knows which sites exist, so a removed site's documents never answer, even while they
   * are being removed. No sites, no hits.
   */
  sites: readonly string[];
  offset: number;
  limit: number;
}

export interface SearchHit {
  docId: string;
  url: string;
  site: string;
  /** The article's headline (the page's `<title>` when none was found). */
  title: string;
  /** The page's `<title>`. */
  pageTitle: string;
  score: number;
  /** Fragments of the main text, HTML-escaped, matches in `<mark>`. */
  highlights: string[];
}

export interface SearchResponse {
  /** How many documents match, counted up to `MAX_RESULT_WINDOW` (`totalRelation` says whether more do). */
  total: number;
  /**
   * `eq`: `total` is exact; `gte`: at least `total` documents match. Counting stops at the paging
   * depth, as web search engines' "about N results" do: an exact count of a common word's matches
   * was the costliest part of a search (half of Elasticsearch's throughput; docs/capacity.md), and
   * no page past the window can be asked for anyway.
   */
  totalRelation: 'eq' | 'gte';
  hits: SearchHit[];
}

/**
 * How deep results can be paged (offset + limit), in either index: Elasticsearch's
 * `index.max_result_window`, so that paging behaves the same whichever index answers.
 */
export const MAX_RESULT_WINDOW = 10_000;

/**
 * The index failed to answer. Its message is Winnow's, never the engine's (the engine's error is
 * the `cause`), and it carries no HTTP status, so callers answer it as an internal error.
 */
export class SearchIndexError extends Error {
  override readonly name = 'SearchIndexError';
  /** True when the engine could not be reached (refused, timed out, overloaded): worth waiting for, and a 503 in the API, not a 500. */
  readonly unavailable: boolean;
  constructor(message: string, options: ErrorOptions & { unavailable?: boolean } = {}) {
    super(message, options);
    this.unavailable = options.unavailable ?? false;
  }
}

/** The search index the indexer writes and the API reads; Postgres full-text or Elasticsearch. */
export interface SearchIndex {
  readonly kind: 'postgres' | 'elasticsearch';
  /** Creates what the index needs, or brings an index of an older document scheme up to date (idempotent). */
  ensureReady(): Promise<void>;
  /** Inserts or replaces documents by id: running it twice leaves the same index. */
  upsert(documents: readonly IndexDocument[]): Promise<void>;
  /** Removes every document of a site, including every write acknowledged before the call. */
  removeSite(site: string): Promise<void>;
  /** Removes the documents of these pages (page ids are never reused), including every write acknowledged before the call. */
  removePages(pageIds: readonly number[]): Promise<void>;
  search(request: SearchRequest): Promise<SearchResponse>;
  count(site?: string): Promise<number>;
  /**
   * Every document's page id with the extraction time (ms since the epoch) it was written from,
   * each write acknowledged before the call included: what the index holds, to be compared with
   * what it should hold when queued jobs may have been lost.
   */
  documentVersions(): Promise<Map<number, number>>;
  close(): Promise<void>;
}

/**
 * A page's document id: stable per site and URL, so re-indexing a page replaces its document and
 * two sites that crawl the same URL keep one document each. A newline separates the two: a site
 * name is a slug and a parsed URL holds no raw newline, so no other pair gives the same input.
 * Migration 0002 computes the same id in SQL.
 */
export function documentIdFor(site: string, url: string): string {
  return createHash('sha256').update(`${site}\n${url}`).digest('hex').slice(0, 32);
}
