import type { Queryable } from './db.js';
import { loadRawPages } from './rawPages.js';

/**
 * Where fetched bodies are read from, whatever holds them: every reader of a body (extraction,
 * template preparation, a crawl answering from a stored page, export) goes through this, so the
 * store is the configuration's business alone. Bodies are keyed by their SHA-256 (`contentHash`).
 */
export interface BodyStore {
  /**
   * `postgres`: bodies live in `raw_pages` (the embedded default). `object-store`: fetches are
   * WARC records in an S3-compatible store, each body staged in `raw_pages` until its file is
   * uploaded (`@winnow/archive`).
   */
  readonly kind: 'postgres' | 'object-store';
  /** The bodies of these hashes; a hash whose body is nowhere is absent from the map. */
  load(hashes: readonly string[]): Promise<Map<string, Buffer>>;
  close(): Promise<void>;
}

/** Bodies in Postgres (`raw_pages`), read a few hundred per round trip. */
export function postgresBodies(db: Queryable): BodyStore {
  return {
    kind: 'postgres',
    load: (hashes) => loadRawPages(db, hashes),
    close: async () => undefined,
  };
}

/** One body through a store; undefined when it is nowhere. */
export async function loadBody(bodies: BodyStore, hash: string): Promise<Buffer | undefined> {
  return (await bodies.load([hash])).get(hash);
}
