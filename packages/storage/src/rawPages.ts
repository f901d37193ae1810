import { createHash } from 'node:crypto';
import type { Queryable } from './db.js';

export function contentHash(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Stores a body once, keyed by its SHA-256; returns the key. */
export async function storeRawPage(db: Queryable, body: Uint8Array): Promise<string> {
  const hash = contentHash(body);
  await db.query('INSERT INTO raw_pages (content_hash, body, byte_length) VALUES ($1, $2, $3) ON CONFLICT (content_hash) DO NOTHING', [hash, Buffer.from(body), body.byteLength]);
  return hash;
}

export async function loadRawPage(db: Queryable, hash: string): Promise<Buffer | undefined> {
  const rows = await db.query<{ body: Uint8Array }>('SELECT body FROM raw_pages WHERE content_hash = $1', [hash]);
  return rows[0] && Buffer.from(rows[0].body);
}
