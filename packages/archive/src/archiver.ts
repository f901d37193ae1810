import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  claimStagedRecords,
  type Db,
  loadRawPages,
  payloadRecords,
  recordUploadedFile,
  releaseClaims,
  renewClaims,
  oldestStagedFetch,
  type WarcRecordRow,
  type WrittenRecord,
} from '@winnow/storage';
import type { ObjectStore } from './objectStore.js';
import { fetchRecords, type RefersTo, WARC_CONTENT_TYPE, warcinfoRecord } from './warc.js';

/** Staged fetches claimed per round trip (their bodies are read together). */
const CLAIM_BATCH = 50;
/** How often the archiver looks at what is staged, at most (less often when `flushMs` is shorter). */
const POLL_MS = 1000;
/** Pauses after a failed run: from the first to the last, doubling. */
const FIRST_BACKOFF_MS = 500;
const LAST_BACKOFF_MS = 10_000;

/** The logger's calls the archiver makes (pino's). */
export interface ArchiveLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface ArchiverOptions {
  /** The largest file written, in bytes (`WINNOW_WARC_FILE_BYTES`). */
  fileBytes: number;
  /** The longest a staged fetch waits when files do not fill (`WINNOW_WARC_FLUSH_MS`). */
  flushMs: number;
  /** How long a claim lasts without renewal: a dead archiver's rows are taken over after this. */
  leaseMs: number;
  /** Key prefix of the files (`WINNOW_S3_PREFIX`). */
  prefix: string;
  /** Named in each file's warcinfo record, as robots.txt saw it. */
  userAgent: string;
  log: ArchiveLog;
}

/** What one run wrote. */
export interface ArchiveRun {
  files: number;
  records: number;
  bytes: number;
}

/** A WARC file being written in memory: its gzip members, and the digests the upload needs. */
class FileInProgress {
  readonly members: Buffer[] = [];
  readonly written: WrittenRecord[] = [];
  size = 0;
  readonly #sha256 = createHash('sha256');

  constructor(warcinfo: Buffer) {
    this.#append(warcinfo);
  }

  /** Appends one fetch's records; returns the offset of the first. */
  add(id: string, recordType: WrittenRecord['recordType'], members: readonly Buffer[]): void {
    const offset = this.size;
    for (const member of members) this.#append(member);
    this.written.push({ id, recordType, offset, length: (members[0] as Buffer).length, groupLength: this.size - offset });
  }

  get key(): string {
    return this.#sha256.copy().digest('hex');
  }

  #append(bytes: Buffer): void {
    this.members.push(bytes);
    this.#sha256.update(bytes);
    this.size += bytes.length;
  }
}

/**
 * Writes staged fetches (`warc_records` rows without a file) into WARC files of at most
 * `fileBytes` and uploads them, content-addressed (`<prefix><sha256 of the file>.warc.gz`).
 *
 * Durability: a body stays in Postgres until the file holding its record is uploaded and the
 * upload is recorded (`recordUploadedFile`, one transaction that also drops the body from
 * `raw_pages`). Nothing waits on the object store to acknowledge a fetch: a crawl, extraction and
 * indexing go on from the staged bodies while the store is down, and a process that dies loses
 * nothing — its claims lapse after `leaseMs` and any archiver writes the rows again. The other
 * choice, uploading before a fetch counts as done, would stall every crawler for as long as the
 * store is away and keep unacknowledged pages only in memory; Postgres, which holds the pipeline's
 * state anyway, is the better buffer. The price: while the store is away, its backlog of bodies
 * grows in Postgres.
 *
 * Any number of archivers run at once (one per crawler process): claims (`FOR UPDATE SKIP
 * LOCKED`, leased and renewed) keep them on different rows. A run starts when the oldest staged
 * fetch is `flushMs` old, and writes everything staged: full files, then the rest in a last,
 * smaller file. Identical payloads are stored once: a fetch whose body an uploaded record (or one
 * earlier in the run) holds becomes a revisit record referring to it.
 */
export class WarcArchiver {
  readonly owner = `${hostname()}:${process.pid}:archiver:${randomUUID().slice(0, 8)}`;
  readonly #db: Db;
  readonly #store: ObjectStore;
  readonly #options: ArchiverOptions;
  #closing = false;
  #wake: () => void = () => undefined;
  #loop: Promise<void> | undefined;
  /** Whether the last run failed: an outage is logged when it starts and when it ends, not at every try. */
  #failing = false;

  constructor(db: Db, store: ObjectStore, options: ArchiverOptions) {
    this.#db = db;
    this.#store = store;
    this.#options = options;
  }

  /** Runs the archiver until `close()`. */
  start(): this {
    this.#loop ??= this.#run();
    return this;
  }

  /** Stops the loop, then writes what is staged once (a process that stops leaves nothing waiting if the store is there). */
  async close(): Promise<void> {
    this.#closing = true;
    this.#wake();
    await this.#loop;
    await this.archiveStaged().catch((error: unknown) =>
      this.#options.log.warn({ err: error }, 'staged fetches not archived at shutdown: their bodies stay in Postgres until an archiver writes them'),
    );
  }

  async #run(): Promise<void> {
    const { flushMs, log } = this.#options;
    let backoff = FIRST_BACKOFF_MS;
    while (!this.#closing) {
      let pause = Math.min(POLL_MS, Math.max(50, flushMs));
      try {
        const oldest = await oldestStagedFetch(this.#db);
        if (oldest && Date.now() - oldest.getTime() >= flushMs) {
          const run = await this.archiveStaged();
          if (this.#failing) log.info({ ...run }, 'the object store is reachable again: staged fetches archived');
          this.#failing = false;
          backoff = FIRST_BACKOFF_MS;
        }
      } catch (error) {
        if (!this.#failing) log.warn({ err: error }, 'archiving failed: fetches stay staged in Postgres and are archived once it works again');
        this.#failing = true;
        pause = backoff;
        backoff = Math.min(backoff * 2, LAST_BACKOFF_MS);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /**
   * Writes every staged fetch nobody else holds into WARC files and uploads them; returns what was
   * written. On failure the claims not yet written are given back and the error is thrown.
   */
  async archiveStaged(): Promise<ArchiveRun> {
    const { leaseMs } = this.#options;
    const run: ArchiveRun = { files: 0, records: 0, bytes: 0 };
    const renewal = setInterval(() => void renewClaims(this.#db, this.owner, leaseMs).catch(() => undefined), Math.max(100, Math.floor(leaseMs / 3)));
    /** Payloads written in this run, by hash: later fetches of them are revisits. */
    const written = new Map<string, RefersTo>();
    try {
      let file: FileInProgress | undefined;
      for (;;) {
        const rows = await claimStagedRecords(this.#db, this.owner, CLAIM_BATCH, leaseMs);
        if (rows.length === 0) break;
        const hashes = [...new Set(rows.map((row) => row.contentHash))];
        const located = await payloadRecords(
          this.#db,
          hashes.filter((hash) => !written.has(hash)),
        );
        const refersTo = (row: WarcRecordRow): RefersTo | undefined => {
          const earlier = located.get(row.contentHash);
          return written.get(row.contentHash) ?? (earlier && { url: earlier.url, date: earlier.fetchedAt, recordId: earlier.recordId });
        };
        const bodies = await loadRawPages(
          this.#db,
          hashes.filter((hash) => !written.has(hash) && !located.has(hash)),
        );
        for (const row of rows) {
          const group = await fetchRecords(row, bodies.get(row.contentHash), refersTo(row));
          const size = group.members.reduce((sum, bytes) => sum + bytes.length, 0);
          if (file && file.written.length > 0 && file.size + size > this.#options.fileBytes) {
            this.#count(run, await this.#upload(file));
            file = undefined;
          }
          file ??= new FileInProgress(await warcinfoRecord({ 'http-header-user-agent': this.#options.userAgent, robots: 'obey' }));
          file.add(row.id, group.recordType, group.members);
          if (group.recordType !== 'revisit' && !written.has(row.contentHash)) {
            written.set(row.contentHash, { url: row.url, date: row.fetchedAt, recordId: row.recordId });
          }
        }
      }
      if (file && file.written.length > 0) this.#count(run, await this.#upload(file));
      return run;
    } catch (error) {
      await releaseClaims(this.#db, this.owner).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(renewal);
    }
  }

  #count(run: ArchiveRun, file: FileInProgress): void {
    run.files++;
    run.records += file.written.length;
    run.bytes += file.size;
  }

  /** Uploads a file, then records it and where its records are; returns it. */
  async #upload(file: FileInProgress): Promise<FileInProgress> {
    const objectKey = `${this.#options.prefix}${file.key}.warc.gz`;
    await this.#store.put(objectKey, Buffer.concat(file.members, file.size), WARC_CONTENT_TYPE);
    await recordUploadedFile(this.#db, this.owner, { objectKey, byteLength: file.size, recordCount: file.members.length }, file.written);
    return file;
  }
}
