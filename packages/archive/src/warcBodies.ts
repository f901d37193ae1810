import { contentHash, type BodyStore, type Db, loadRawPages, payloadRecords, type RecordLocation } from '@winnow/storage';
import type { ObjectStore } from './objectStore.js';
import { recordPayload } from './warc.js';

/** Records of one object at most this far apart are read in one request... */
const MAX_GAP = 256 * 1024;
/** ...of at most this many bytes. */
const MAX_RANGE = 16 * 1024 * 1024;
/** Range requests in flight at once per `load`. */
const PARALLEL_READS = 4;

/** A record (or a fetch's group of records) to read, under a key of the caller's. */
export interface Wanted {
  key: string;
  location: RecordLocation;
}

/** Adjacent records of one object, read in one range request. */
interface Range {
  objectKey: string;
  start: number;
  end: number;
  records: Wanted[];
}

/** Groups records by object and merges those close together into ranges (`MAX_GAP`, `MAX_RANGE`). */
export function coalesce(wanted: readonly Wanted[]): Range[] {
  const sorted = [...wanted].sort((a, b) => a.location.objectKey.localeCompare(b.location.objectKey) || a.location.offset - b.location.offset);
  const ranges: Range[] = [];
  for (const record of sorted) {
    const { objectKey, offset, length } = record.location;
    const last = ranges.at(-1);
    if (last && last.objectKey === objectKey && offset - last.end <= MAX_GAP && offset + length - last.start <= MAX_RANGE) {
      last.end = Math.max(last.end, offset + length);
      last.records.push(record);
    } else ranges.push({ objectKey, start: offset, end: offset + length, records: [record] });
  }
  return ranges;
}

/**
 * Bodies kept as WARC records in an object store: a body not yet archived is read from Postgres,
 * where it is staged; an archived one from its `response` or `resource` record (located in
 * `warc_records`), with ranged reads — records close together in one file in one request — and
 * checked against its hash. A read waits out an outage of the store for `WINNOW_INFRA_RETRY_MS`.
 */
export class WarcBodyStore implements BodyStore {
  readonly kind = 'object-store';

  constructor(
    readonly db: Db,
    readonly store: ObjectStore,
  ) {}

  async load(hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const bodies = await loadRawPages(this.db, hashes);
    const missing = hashes.filter((hash) => !bodies.has(hash));
    if (missing.length === 0) return bodies;
    const located = await payloadRecords(this.db, missing);
    const ranges = coalesce([...located].map(([key, location]) => ({ key, location })));
    for (let next = 0; next < ranges.length; next += PARALLEL_READS) {
      await Promise.all(
        ranges.slice(next, next + PARALLEL_READS).map(async (range) => {
          const bytes = await this.store.getRange(range.objectKey, range.start, range.end - range.start);
          for (const { key: hash, location } of range.records) {
            const body = await recordPayload(bytes.subarray(location.offset - range.start, location.offset - range.start + location.length));
            if (contentHash(body) !== hash) {
              throw new Error(`the WARC record of body ${hash} in ${location.objectKey} at ${location.offset} holds another body: the file is damaged`);
            }
            bodies.set(hash, body);
          }
        }),
      );
    }
    return bodies;
  }

  async close(): Promise<void> {
    this.store.close();
  }
}
