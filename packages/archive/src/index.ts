import type { Env } from '@winnow/config';
import type { Db } from '@winnow/storage';
import { type ArchiveLog, WarcArchiver } from './archiver.js';
import { ObjectStore, type ObjectStoreOptions } from './objectStore.js';
import { WarcBodyStore } from './warcBodies.js';

export { type ArchiveLog, type ArchiveRun, type ArchiverOptions, WarcArchiver } from './archiver.js';
export { siteWarc, type WarcExportSite } from './exportWarc.js';
export { measureWarcBytes, type WarcBytes } from './measure.js';
export { isStoreOutage, ObjectStore, type ObjectStoreOptions, objectStoreOptions, ObjectStoreUnavailableError } from './objectStore.js';
export { type Fetch, type FetchGroup, fetchRecords, recordPayload, type RefersTo, WARC_CONTENT_TYPE, warcinfoRecord } from './warc.js';
export { WarcBodyStore } from './warcBodies.js';

/** Fetched pages as WARC files in the object store of the configuration. */
export interface WarcArchive {
  readonly store: ObjectStore;
  /** The body store every reader goes through. */
  readonly bodies: WarcBodyStore;
  /** An archiver of this configuration, started: what a crawler process runs beside its crawling. */
  startArchiver(log: ArchiveLog): WarcArchiver;
}

/** The WARC archive in the object store of `options` (`objectStoreOptions`), with the archiver settings of `env`. */
export function openWarcArchive(db: Db, env: Env, options: ObjectStoreOptions): WarcArchive {
  const store = new ObjectStore(options);
  return {
    store,
    bodies: new WarcBodyStore(db, store),
    startArchiver: (log) =>
      new WarcArchiver(db, store, {
        fileBytes: env.WINNOW_WARC_FILE_BYTES,
        flushMs: env.WINNOW_WARC_FLUSH_MS,
        leaseMs: env.WINNOW_JOB_LOCK_MS,
        prefix: env.WINNOW_S3_PREFIX,
        userAgent: env.WINNOW_USER_AGENT,
        log,
      }).start(),
  };
}
