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

/** Stored bodies by hash, read in chunks of a few hundred (one round trip each, not one per page); missing hashes are absent. */
export async function loadRawPages(db: Queryable, hashes: readonly string[], chunk = 200): Promise<Map<string, Buffer>> {
  const bodies = new Map<string, Buffer>();
  for (let start = 0; start < hashes.length; start += chunk) {
    const rows = await db.query<{ content_hash: string; body: Uint8Array }>('SELECT content_hash, body FROM raw_pages WHERE content_hash = ANY($1)', [
      hashes.slice(start, start + chunk),
    ]);
    for (const row of rows) bodies.set(row.content_hash, Buffer.from(row.body));
  }
  return bodies;
}
