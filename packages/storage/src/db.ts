import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { failureReason } from '@winnow/config/errors';
import { hasEmptyDatabase } from './emptyDatabase.js';
import type pg from 'pg';
import type { PgliteOpen, PgliteReply, PgliteRequest, PgliteThreadData, PgliteThreadEarly } from './pgliteThread.js';

/** What a query runs on: the database, or one transaction of it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs several `;`-separated statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/**
 * A Postgres database: a real server through a `pg` pool, or PGlite in a thread of this process.
 * Both speak the same SQL, so every table module and migration runs unchanged on either.
 */
export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** A `postgres://` URL; without one, PGlite opens `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite's data directory; `memory` keeps the database in memory. */
  dataDir?: string;
  /** Connections in the `pg` pool. */
  poolSize?: number;
  /**
   * Hears what fails outside any query: an idle connection's error (a server restart; the pool
   * reconnects on the next query), or the embedded database's maintenance.
   */
  onError?: (error: Error) => void;
  /**
   * PGlite only: run the planner statistics and dead-row maintenance a server's autovacuum would
   * (`pgliteThread.ts`). On by default; off for a command that reads or writes a little and ends,
   * which would otherwise spend its time there (and race it with its close), and which also starts
   * PGlite as such a command should (small shared buffers, no optimizing compiler: `pgliteThread.ts`).
   */
  maintenance?: boolean;
  /**
   * PGlite only: a new database starts from the build's migrated copy (`emptyDatabase.ts`). Off
   * for a database that must start without any migration (a test of one migration's work).
   */
  fromEmptyCopy?: boolean;
}

/**
 * Opens the embedded database, or a pool on `databaseUrl` after one query has gone through: a
 * server that cannot be used fails here, named, rather than at the first query of some worker.
 * It is not waited for (unlike Redis, see `waitForRedis`): pg connects per query, so nothing hangs.
 */
export async function openDb(options: DbOptions): Promise<Db> {
  if (!options.databaseUrl) {
    const dataDir = options.dataDir ?? 'memory';
    // Creating a database by initdb (when the empty database's copy is missing or stale:
    // `emptyDatabase.ts`) grows PGlite's WebAssembly memory to some 800 MB, which it never gives
    // back: `winnow up` on a new data directory held 940 MB where a restart holds 430. The thread
    // that created it ends (its memory with it), and a new one opens what it made.
    const fromEmptyCopy = options.fromEmptyCopy ?? true;
    if (dataDir !== 'memory' && !existsSync(join(dataDir, 'PG_VERSION')) && !(fromEmptyCopy && (await hasEmptyDatabase()))) {
      await (await openPglite({ dataDir, maintain: false, fromEmptyCopy })).close();
    }
    return openPglite({ dataDir, maintain: options.maintenance ?? true, fromEmptyCopy }, options.onError);
  }
  // Loaded here: the embedded database's commands never need the Postgres client.
  const { default: pgClient } = await import('pg');
  const db = openPostgres(pgClient, options.databaseUrl, options.poolSize ?? 10, options.onError);
  try {
    await db.query('SELECT 1');
  } catch (error) {
    await db.close().catch(() => undefined);
    const server = new URL(options.databaseUrl);
    throw new DatabaseUnavailableError(`Postgres at ${server.host}${server.pathname} (DATABASE_URL) cannot be used: ${failureReason(error)}`, { cause: error });
  }
  return db;
}

export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

function openPostgres(pgClient: typeof pg, url: string, poolSize: number, onError: (error: Error) => void = () => undefined): Db {
  // A server that drops packets fails a connection after 10 s instead of the system's TCP timeout.
  const pool = new pgClient.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', onError);
  const onClient = (client: pg.PoolClient | pg.Pool): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...onClient(pool),
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client has no pool listener: a server that ends the connection between two of
      // the transaction's statements (a shutdown) would emit an unheard 'error' and crash the
      // process. Heard here, the error fails the transaction's next statement instead, and the
      // broken client is discarded rather than given back.
      let lost: Error | undefined;
      const onLost = (error: Error) => {
        lost = error;
        onError(error);
      };
      client.on('error', onLost);
      try {
        await client.query('BEGIN');
        const result = await work(onClient(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onLost);
        client.release(lost);
      }
    },
    close: () => pool.end(),
  };
}

/** An error the database thread replied with, as the caller's own (name, message and Postgres code kept). */
class PgliteError extends Error {
  readonly code: string | undefined;
  readonly detail: string | undefined;
  constructor(reply: { message: string; name: string; code?: string; detail?: string }) {
    super(reply.message);
    this.name = reply.name;
    this.code = reply.code;
    this.detail = reply.detail;
  }
}

const PGLITE_THREAD = new URL('./pgliteThread.js', import.meta.url);

/** A database thread started before its data directory was known, for the next `openDb` of an embedded database. */
let prestarted: { worker: Worker; maintain: boolean; ended: boolean; ignore: (error: Error) => void } | undefined;

/**
 * Starts the embedded database's thread now, before the configuration that names its directory is
 * read: it loads and compiles PGlite while this thread loads the rest, and the next `openDb` of an
 * embedded database opens its directory there. A one-shot command's start is mostly that thread's
 * work (`pnpm bench cli`). `maintenance` is what that `openDb` will be given. Unused, it keeps
 * nothing alive.
 */
export function prestartEmbeddedDatabase(maintenance: boolean): void {
  if (prestarted) return;
  const worker = new Worker(PGLITE_THREAD, { workerData: { early: { maintain: maintenance } } satisfies PgliteThreadEarly });
  worker.unref();
  // A thread that fails before it is used is not used: `openPglite` starts another, which reports.
  const thread = { worker, maintain: maintenance, ended: false, ignore: () => undefined };
  worker.on('error', thread.ignore).once('exit', () => {
    thread.ended = true;
  });
  prestarted = thread;
}

/** PGlite in a thread of its own (`pgliteThread.ts`): the same SQL, off the event loop. */
async function openPglite(data: PgliteThreadData, onError: (error: Error) => void = () => undefined): Promise<Db> {
  const ready = prestarted && !prestarted.ended && prestarted.maintain === data.maintain ? prestarted : undefined;
  if (prestarted && !ready) void prestarted.worker.terminate();
  prestarted = undefined;
  const worker = ready?.worker ?? new Worker(PGLITE_THREAD, { workerData: data });
  if (ready) {
    worker.off('error', ready.ignore).ref();
    worker.postMessage({ open: data } satisfies PgliteOpen);
  }
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: PgliteReply) => {
    if ('background' in reply) return onError(new Error(reply.background));
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new PgliteError(reply.error));
    else waiting?.resolve(reply.result);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the embedded database's thread ended (exit code ${code})`)));
  type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;
  const call = <T>(request: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = nextId++;
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  const on = (tx?: number): Queryable => ({
    query: <Row>(sql: string, params: readonly unknown[] = []) => call<Row[]>({ op: 'query', sql, params: [...params], ...(tx ? { tx } : {}) }),
    exec: (sql: string) => call<void>({ op: 'exec', sql, ...(tx ? { tx } : {}) }),
  });
  try {
    await call({ op: 'query', sql: 'SELECT 1', params: [] });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    kind: 'pglite',
    ...on(),
    async transaction(work) {
      const tx = await call<number>({ op: 'begin' });
      const result = await work(on(tx)).catch(async (error: unknown) => {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      });
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async close() {
      if (!failure) await call({ op: 'close' }).catch(() => undefined);
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
