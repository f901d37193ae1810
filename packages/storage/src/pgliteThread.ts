import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { readEmptyDatabase } from './emptyDatabase.js';

/**
 * The embedded database's own thread: PGlite (Postgres compiled to WebAssembly) spends most of an
 * embedded crawl's CPU in its WebAssembly and its protocol parsing, and on the main thread it held
 * up the crawler, the queues and every other query. `db.ts` talks to it by messages, one reply per
 * request. A transaction stays open here between its requests (PGlite queues other queries behind
 * it, as it does in process) until the caller ends it.
 */
export type PgliteRequest = { id: number } & (
  | { op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
);

/** What a thread started before its data directory was known (`prestartEmbeddedDatabase`) is sent first. */
export interface PgliteOpen {
  open: PgliteThreadData;
}

export type PgliteReply =
  | { id: number; result: unknown }
  | { id: number; error: { message: string; name: string; code?: string; detail?: string } }
  /** A failure of the thread's own maintenance, for the caller's log. */
  | { background: string };

/** Maintenance runs at least this long after the previous run... */
const MAINTENANCE_EVERY_MS = 5000;
/** ...and at least this many times its own duration after it, so that it takes at most 5% of the thread. */
const MAINTENANCE_SPACING = 20;

/**
 * How a command that reads or writes a little and ends starts Postgres: with 16 MB of shared
 * buffers instead of the data directory's 128 MB, which Postgres clears at its start (150-200 ms of
 * CPU of a one-shot command's PGlite start, docs/design.md); such a command reads a few pages.
 */
const ONE_SHOT_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * A one-shot command's process compiles WebAssembly with V8's baseline compiler alone. Otherwise
 * V8 recompiles PGlite's hot functions with its optimizing compiler in background threads, work a
 * process that ends within a second never gets back: it doubled the CPU time of `winnow status`
 * and `winnow sites list` and delayed their exit, where the thread's end waits for those compiles
 * (docs/design.md). A V8 flag is the whole process's; a one-shot command runs no other WebAssembly
 * that matters. A process that stays (`maintain`) keeps the optimizing compiler.
 */
function compileForOneShot(): void {
  setFlagsFromString('--liftoff-only');
}

/** Thrown inside a transaction's callback to roll it back: the caller's work failed. */
class RolledBack extends Error {}

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  done: Promise<unknown>;
}

/**
 * What a thread started early (`prestartEmbeddedDatabase`) is started with: whether the process
 * stays (`PgliteThreadData.maintain`), known before the directory is.
 */
export interface PgliteThreadEarly {
  early: { maintain: boolean };
}

/** PGlite's WebAssembly compiled and its file bundle read, ahead of `PGlite.create` (its `pgliteWasmModule` and `fsBundle`). */
type PgliteAssets = Required<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>>;

/** The global WebAssembly API, which the ES library types this workspace compiles against do not declare. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<PgliteAssets['pgliteWasmModule']> } }).WebAssembly;

/**
 * Compiles PGlite's WebAssembly and reads its file bundle, from the files `PGlite.create` itself
 * reads: what a thread started early does while it waits for its directory, a sixth of PGlite's
 * start. Undefined when they cannot be read (another PGlite build): `create` then reads them itself.
 */
async function loadAssets(): Promise<PgliteAssets | undefined> {
  try {
    const dist = new URL('.', import.meta.resolve('@electric-sql/pglite'));
    const [code, bundle] = await Promise.all([readFile(new URL('pglite.wasm', dist)), readFile(new URL('pglite.data', dist))]);
    return { pgliteWasmModule: await wasm.compile(code), fsBundle: new Blob([bundle]) };
  } catch {
    return undefined;
  }
}

/** What the thread is started with (`workerData`). */
export interface PgliteThreadData {
  dataDir: string;
  /**
   * Run `VACUUM ANALYZE` now and then (`maintain`): for a process that stays. A command that reads
   * and ends runs none, starts with small shared buffers (`ONE_SHOT_START`) and compiles PGlite's
   * WebAssembly with the baseline compiler alone (`compileForOneShot`).
   */
  maintain: boolean;
  /** A new database starts from the build's migrated copy, when there is a current one (`emptyDatabase.ts`). */
  fromEmptyCopy: boolean;
}

/** Opens the database and returns what answers each request. */
async function serve(
  port: NonNullable<typeof parentPort>,
  { dataDir, maintain: maintained, fromEmptyCopy }: PgliteThreadData,
  assets: PgliteAssets | undefined,
): Promise<(request: PgliteRequest) => void> {
  if (!maintained) compileForOneShot();
  const isNew = dataDir === 'memory' || !existsSync(join(dataDir, 'PG_VERSION'));
  const emptyDatabase = isNew && fromEmptyCopy ? await readEmptyDatabase() : undefined;
  const lite = await PGlite.create(dataDir === 'memory' ? undefined : dataDir, {
    ...assets,
    ...(maintained ? {} : { startParams: ONE_SHOT_START }),
    ...(emptyDatabase ? { loadDataDir: emptyDatabase } : {}),
  });
  const maintenance = maintained ? maintain(lite, (message) => port.postMessage({ background: message } satisfies PgliteReply)) : undefined;
  const open = new Map<number, OpenTransaction>();
  let nextTx = 1;
  const target = (tx: number | undefined) => {
    if (tx === undefined) return lite;
    const transaction = open.get(tx);
    if (!transaction) throw new Error(`transaction ${tx} is not open`);
    return transaction.tx;
  };

  const begin = () =>
    new Promise<number>((started, failed) => {
      const id = nextTx++;
      let end: (commit: boolean) => void = () => undefined;
      const ended = new Promise<boolean>((resolve) => {
        end = resolve;
      });
      const done = lite.transaction(async (tx) => {
        open.set(id, { tx, end, done });
        started(id);
        if (!(await ended)) throw new RolledBack();
      });
      done.catch((error: unknown) => {
        if (!open.has(id)) failed(error);
      });
    });

  const run = async (request: PgliteRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return (await target(request.tx).query(request.sql, request.params)).rows;
      case 'exec':
        await target(request.tx).exec(request.sql);
        return null;
      case 'begin':
        return begin();
      case 'end': {
        const transaction = open.get(request.tx);
        if (!transaction) throw new Error(`transaction ${request.tx} is not open`);
        open.delete(request.tx);
        transaction.end(request.commit);
        await transaction.done.catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
        return null;
      }
      case 'close':
        maintenance?.stop();
        await lite.close();
        return null;
    }
  };

  return (request) => {
    run(request).then(
      (result) => port.postMessage({ id: request.id, result } satisfies PgliteReply),
      (error: Error & { code?: string; detail?: string }) =>
        port.postMessage({
          id: request.id,
          error: { message: error.message, name: error.name, ...(error.code ? { code: error.code } : {}), ...(error.detail ? { detail: error.detail } : {}) },
        } satisfies PgliteReply),
    );
  };
}

/**
 * PGlite runs no autovacuum daemon: without maintenance its planner statistics never change (it
 * chose to read and sort the whole open frontier for every lease, 3 ms each on 1,000 queued URLs,
 * instead of the first row of an index) and dead rows are never reclaimed over a long run. So the
 * thread runs `VACUUM ANALYZE` itself, between requests (PGlite queues it like any statement).
 */
function maintain(lite: PGlite, report: (message: string) => void): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout;
  const run = async () => {
    const started = performance.now();
    try {
      await lite.exec('VACUUM ANALYZE');
    } catch (error) {
      // Closing waits for a run in progress (PGlite queues the close behind it); a run that the
      // close overtook has nothing to report.
      if (!stopped) report(`the embedded database's maintenance (VACUUM ANALYZE) failed: ${(error as Error).message}`);
    }
    if (!stopped) timer = setTimeout(run, Math.max(MAINTENANCE_EVERY_MS, MAINTENANCE_SPACING * (performance.now() - started))).unref();
  };
  timer = setTimeout(run, MAINTENANCE_EVERY_MS).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Requests are answered once the database is open; those sent before wait in order. A thread
 * started with its directory (`PgliteThreadData`) opens it at once; one started early
 * (`PgliteThreadEarly`) prepares PGlite meanwhile and opens what its first message names.
 */
function listen(port: NonNullable<typeof parentPort>, start: PgliteThreadData | PgliteThreadEarly): void {
  const waiting: PgliteRequest[] = [];
  let answer: ((request: PgliteRequest) => void) | undefined;
  let assets: Promise<PgliteAssets | undefined> = Promise.resolve(undefined);
  const open = async (data: PgliteThreadData) => {
    answer = await serve(port, data, await assets);
    for (const request of waiting.splice(0)) answer(request);
  };
  // A database that cannot be opened rejects unheard here: the thread ends, and the caller hears its error.
  port.on('message', (message: PgliteRequest | PgliteOpen) => {
    if ('open' in message) void open(message.open);
    else if (answer) answer(message);
    else waiting.push(message);
  });
  if ('early' in start) {
    // The flag comes before the compile it governs.
    if (!start.early.maintain) compileForOneShot();
    assets = loadAssets();
  } else void open(start);
}

if (parentPort) listen(parentPort, workerData as PgliteThreadData | PgliteThreadEarly);
