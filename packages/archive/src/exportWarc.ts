import { randomUUID } from 'node:crypto';
import { type BodyStore, type Db, pagesWithoutWarcRecords, payloadRecords, type SiteWarcRecord, siteWarcRecords } from '@winnow/storage';
import type { ObjectStore } from './objectStore.js';
import { fetchRecords, type RefersTo, warcinfoRecord } from './warc.js';
import { coalesce } from './warcBodies.js';

/** Rows read per round trip. */
const BATCH = 200;
/** Bytes of copied records held at once, at most (a single larger group aside). */
const COPY_BYTES = 16 * 1024 * 1024;

export interface WarcExportSite {
  id: number;
  name: string;
  /** Pages of a `render: browser` site are rendered documents: `resource` records. */
  rendered: boolean;
}

/**
 * A site's fetches as one WARC file, streamed as gzip members (a `.warc.gz`), whatever holds the
 * bodies, never more than a batch in memory:
 *
 * - every fetch an object store archived, in the order they were fetched: the records already
 *   uploaded are copied byte for byte from their files (response or revisit, with the request
 *   and metadata records that follow it); those still staged are written as the archiver would;
 * - then each page with a body that no such fetch covers (every page, with Postgres bodies): a
 *   `response` record built from the page's latest fetch as Postgres keeps it (its status, headers
 *   and body), or a `revisit` when an earlier record of the export holds the same body.
 *
 * It opens with a `warcinfo` record. A revisit record refers to its payload's record by URI, date
 * and record id, which may be in another site's fetches: a reader of this file alone gets its digest.
 */
export async function* siteWarc(db: Db, bodies: BodyStore, store: ObjectStore | undefined, site: WarcExportSite): AsyncGenerator<Buffer> {
  yield await warcinfoRecord({ description: `the fetches of Winnow site ${site.name}` });
  /** Payloads this export holds a record of, by hash. */
  const exported = new Map<string, RefersTo>();
  for (let afterId = '0'; ; ) {
    const rows = await siteWarcRecords(db, site.id, afterId, BATCH);
    if (rows.length === 0) break;
    afterId = (rows.at(-1) as SiteWarcRecord).id;
    yield* recordedFetches(db, bodies, store, rows, exported);
  }
  for (let afterId = 0; ; ) {
    const pages = await pagesWithoutWarcRecords(db, site.id, afterId, BATCH);
    if (pages.length === 0) break;
    afterId = pages.at(-1)?.pageId ?? afterId;
    const loaded = await bodies.load(pages.filter((page) => !exported.has(page.contentHash)).map((page) => page.contentHash));
    for (const page of pages) {
      const recordId = randomUUID();
      const fetch = {
        id: String(page.pageId),
        url: page.url,
        fetchedAt: page.fetchedAt,
        kind: 'stored' as const,
        status: page.status,
        responseHeaders: page.headers,
        requestHeaders: null,
        rendered: site.rendered,
        contentHash: page.contentHash,
        metadata: {},
        recordId,
      };
      const group = await fetchRecords(fetch, loaded.get(page.contentHash), exported.get(page.contentHash));
      if (group.recordType !== 'revisit') exported.set(page.contentHash, { url: page.url, date: page.fetchedAt, recordId });
      yield* group.members;
    }
  }
}

/** One batch of recorded fetches, in order: uploaded groups copied (a few MB of ranges at a time), staged ones written. */
async function* recordedFetches(
  db: Db,
  bodies: BodyStore,
  store: ObjectStore | undefined,
  rows: readonly SiteWarcRecord[],
  exported: Map<string, RefersTo>,
): AsyncGenerator<Buffer> {
  for (let start = 0; start < rows.length; ) {
    let end = start;
    let bytes = 0;
    while (end < rows.length && (end === start || bytes + ((rows[end] as SiteWarcRecord).location?.groupLength ?? 0) <= COPY_BYTES)) {
      bytes += (rows[end] as SiteWarcRecord).location?.groupLength ?? 0;
      end++;
    }
    const slice = rows.slice(start, end);
    start = end;
    const copied = await copyGroups(store, slice);
    const staged = slice.filter((row) => row.location === null);
    const hashes = [...new Set(staged.map((row) => row.contentHash))];
    const located = await payloadRecords(db, hashes);
    const loaded = await bodies.load(hashes.filter((hash) => !located.has(hash) && !exported.has(hash)));
    for (const row of slice) {
      const copy = copied.get(row.id);
      if (copy) {
        if (row.location?.recordType !== 'revisit') exported.set(row.contentHash, { url: row.url, date: row.fetchedAt, recordId: row.recordId });
        yield copy;
        continue;
      }
      const earlier = located.get(row.contentHash);
      const refersTo = exported.get(row.contentHash) ?? (earlier && { url: earlier.url, date: earlier.fetchedAt, recordId: earlier.recordId });
      const group = await fetchRecords(row, loaded.get(row.contentHash), refersTo);
      if (group.recordType !== 'revisit') exported.set(row.contentHash, { url: row.url, date: row.fetchedAt, recordId: row.recordId });
      yield* group.members;
    }
  }
}

/** The uploaded groups of these rows, by row id, read in coalesced ranges. */
async function copyGroups(store: ObjectStore | undefined, rows: readonly SiteWarcRecord[]): Promise<Map<string, Buffer>> {
  const uploaded = rows.filter((row) => row.location !== null);
  const copies = new Map<string, Buffer>();
  if (uploaded.length === 0) return copies;
  if (!store) throw new Error('this site has fetches archived in an object store, but no store is configured (WINNOW_S3_BUCKET)');
  const ranges = coalesce(
    uploaded.map((row) => ({
      key: row.id,
      location: { ...(row.location as NonNullable<SiteWarcRecord['location']>), length: row.location?.groupLength ?? 0 },
    })),
  );
  for (const range of ranges) {
    const bytes = await store.getRange(range.objectKey, range.start, range.end - range.start);
    for (const { key: id, location } of range.records)
      copies.set(id, bytes.subarray(location.offset - range.start, location.offset - range.start + location.length));
  }
  return copies;
}
