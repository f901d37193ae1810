import { createHash } from 'node:crypto';
import type { IndexablePage } from '@winnow/storage';
import type { ParsedQuery } from './query.js';

/** What the index stores per page (its main text in document order, one block per line), under an id stable per URL. */
export interface IndexDocument extends IndexablePage {
  docId: string;
}

export interface SearchRequest {
  query: ParsedQuery;
  site?: string | undefined;
  offset: number;
  limit: number;
}

export interface SearchHit {
  docId: string;
  url: string;
  site: string;
  title: string;
  score: number;
  /** Fragments of the main text, HTML-escaped, matches in `<mark>`. */
  highlights: string[];
}

export interface SearchResponse {
  total: number;
  hits: SearchHit[];
}

/** The search index the indexer writes and the API reads; Postgres full-text or Elasticsearch. */
export interface SearchIndex {
  readonly kind: 'postgres' | 'elasticsearch';
  /** Creates what the index needs (idempotent). */
  ensureReady(): Promise<void>;
  /** Inserts or replaces documents by id: running it twice leaves the same index. */
  upsert(documents: readonly IndexDocument[]): Promise<void>;
  removeSite(site: string): Promise<void>;
  search(request: SearchRequest): Promise<SearchResponse>;
  count(site?: string): Promise<number>;
  close(): Promise<void>;
}

/** A page's document id: stable per URL, so re-indexing replaces instead of adding. */
export function documentIdFor(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 32);
}
