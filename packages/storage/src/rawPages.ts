import { createHash } from 'node:crypto';
import type { Queryable } from './db.js';

export function contentHash(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** The statement that stores a body once, with its parameters' positions (so that another statement can carry it). */
export function insertRawPage(hash: string, body: string, length: string): string {
  return `INSERT INTO raw_pages (content_hash, body, byte_length) VALUES (${hash}, ${body}, ${length}) ON CONFLICT (content_hash) DO NOTHING`;
}

/** Stores a body once, keyed by its SHA-256; returns the key. */
export async function storeRawPage(db: Queryable, body: Uint8Array): Promise<string> {
  const hash = contentHash(body);
  await db.query(insertRawPage('$1', '$2', '$3'), [hash, Buffer.from(body), body.byteLength]);
  return hash;
}

/**
 * Bodies held in Postgres by hash, read in chunks of a few hundred (one round trip each, not one
 * per page); missing hashes are absent, and so are bodies an object store holds now (`body` NULL:
 * read them through the runtime's `BodyStore`).
 */
export async function loadRawPages(db: Queryable, hashes: readonly string[], chunk = 200): Promise<Map<string, Buffer>> {
  const bodies = new Map<string, Buffer>();
  for (let start = 0; start < hashes.length; start += chunk) {
    const rows = await db.query<{ content_hash: string; body: Uint8Array }>(
      'SELECT content_hash, body FROM raw_pages WHERE content_hash = ANY($1) AND body IS NOT NULL',
      [hashes.slice(start, start + chunk)],
    );
    for (const row of rows) bodies.set(row.content_hash, Buffer.from(row.body));
  }
  return bodies;
}

/**
 * Drops from Postgres the bodies of these hashes that an uploaded WARC record holds (a `response`
 * or `resource` located in `warc_records`): the object store serves them from now on. The row
 * stays, keyed by the hash, so pages keep their reference and an identical body fetched later is
 * still stored once.
 */
export async function releaseArchivedBodies(db: Queryable, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await db.query(
    `UPDATE raw_pages r SET body = NULL
      WHERE r.content_hash = ANY($1) AND r.body IS NOT NULL
        AND EXISTS (SELECT 1 FROM warc_records w WHERE w.content_hash = r.content_hash AND w.record_type IN ('response', 'resource'))`,
    [hashes],
  );
}
