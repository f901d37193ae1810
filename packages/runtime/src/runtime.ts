import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import type { WarcArchive } from '@winnow/archive';
import { objectStoreOptions } from '@winnow/archive/objectStore';
import type { Env } from '@winnow/config';
import type { CpuPool } from './cpu/pool.js';
import type { PipelineQueues, PrivateRedis, QueueSettings } from '@winnow/queue';
import type { PipelineMetrics } from '@winnow/metrics';
import type { SearchIndex } from '@winnow/search';
import type { BodyStore } from '@winnow/storage';
import { openDb, type Db } from '@winnow/storage/db';
import type { Logger } from 'pino';
import lockfile from 'proper-lockfile';

/** What every service works with, opened once per process from the configuration. */
export interface Runtime {
  readonly env: Env;
  readonly db: Db;
  /** The pipeline's queues; reading it throws when they are not open here (`queuesOpen`). */
  readonly queues: PipelineQueues;
  /**
   * False for an embedded command that runs no workers (`RuntimeOptions.queues`): its private Redis
   * would start empty and be thrown away when it ends, so none is started. Its queues are idle, as
   * those of an embedded pipeline that no process runs are, and a site's schedules are registered
   * by the reconciler of the next process that runs workers.
   */
  readonly queuesOpen: boolean;
  readonly queueSettings: QueueSettings;
  readonly search: SearchIndex;
  /** Where fetched bodies are read from, whatever holds them (Postgres, or WARC files in an object store). */
  readonly bodies: BodyStore;
  /** The object store that keeps fetches as WARC files (`WINNOW_S3_BUCKET`); undefined when bodies stay in Postgres. */
  readonly archive: WarcArchive | undefined;
  readonly log: Logger;
  /** This process's metrics, which every service of it counts into (`/metrics`). */
  readonly metrics: PipelineMetrics;
  /** Worker threads for extraction and template preparation (`WINNOW_CPU_THREADS`), started on first use. */
  readonly cpu: CpuPool;
  /**
   * True when Redis is private to this process (no `REDIS_URL`): a child `redis-server`, or none
   * when the queues are not open here. Queued work lives only as long as this process does.
   */
  readonly privateRedis: boolean;
  /** Closes everything opened; during a Redis outage, without waiting for Redis to return. */
  close(): Promise<void>;
}

export class EmbeddedDatabaseBusyError extends Error {
  override readonly name = 'EmbeddedDatabaseBusyError';
  constructor(
    message: string,
    /** The API the process holding the database serves (what `announceApi` recorded), if it serves one. */
    readonly apiUrl?: string,
  ) {
    super(message);
  }
}

/** True when the runtime of this configuration holds an embedded database's directory (locked to one process). */
function holdsDataDir(env: Env): boolean {
  return !env.DATABASE_URL && env.WINNOW_DATA_DIR !== 'memory';
}

/** The URL a client on this machine reaches an API at that listens on `host:port` (all interfaces: loopback). */
export function apiUrlFor(host: string, port: number): string {
  const reachable = ['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Where the process holding an embedded database notes the API it serves: a command that finds
 * the database busy points at that API, whatever `WINNOW_API_PORT` its own environment says
 * (`winnow up` is often started with a port the next shell does not have).
 */
function apiNotePath(dataDir: string): string {
  return `${resolve(dataDir)}.api`;
}

/** Notes the API this process serves beside the embedded database it holds; removed when the runtime closes. Without one, nothing to note. */
export function announceApi(rt: Runtime, url: string): void {
  if (holdsDataDir(rt.env)) writeFileSync(apiNotePath(rt.env.WINNOW_DATA_DIR), `${url}\n`);
}

export interface RuntimeOptions {
  /** The process's logger; by default `createLogger(env, 'winnow')`. */
  log?: Logger;
  /**
   * Modules the caller needs once the runtime is open, loaded while the database opens: started
   * after the embedded database's thread, so that their loading never delays its start.
   */
  loadWhileOpening?: () => Promise<unknown>;
  /**
   * Keep an embedded database's planner statistics as autovacuum would (`openDb`'s `maintenance`):
   * on by default; off for a command that opens it for a moment and ends.
   */
  maintainDatabase?: boolean;
  /**
   * Open the queues (default true). Without `REDIS_URL` they live in a private `redis-server` that
   * dies with this process, so a command that runs no workers passes false: it skips starting that
   * server, loading BullMQ, connecting the queues and stopping the server again (docs/design.md,
   * "The command line's start-up"). With a shared Redis the queues are always opened: other
   * processes use them.
   */
  queues?: boolean;
}

/**
 * Opens the database (Postgres by `DATABASE_URL`, else PGlite in `WINNOW_DATA_DIR`, migrated
 * either way), Redis (by `REDIS_URL`, else a private `redis-server`, unless `options.queues` is false), the search index
 * (Elasticsearch by `ELASTICSEARCH_URL`, else Postgres full-text search) and the body store (WARC
 * files in the object store of `WINNOW_S3_BUCKET`, else Postgres). The object store is not waited
 * for: fetches are staged in Postgres until it answers.
 * PGlite is one process's database: a lock in its directory makes a second process fail with a
 * clear message instead of corrupting it.
 */
export async function openRuntime(env: Env, options: RuntimeOptions = {}): Promise<Runtime> {
  // The default logger loads while the database opens; what fails before it has loaded goes to stderr as it is.
  let log: Logger | undefined = options.log;
  const warn = (error: unknown, message: string) => (log ? log.warn({ err: error }, message) : process.stderr.write(`${message}: ${String(error)}\n`));
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => warn(error, 'cleanup failed'));
  };
  try {
    // The object store's settings are checked before anything is opened.
    const storeOptions = objectStoreOptions(env);
    if (holdsDataDir(env)) cleanups.push(await lockDataDir(env.WINNOW_DATA_DIR));
    const opening = openDb({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.WINNOW_DATA_DIR,
      maintenance: options.maintainDatabase ?? true,
      onError: (error) => warn(error, 'the database failed outside a query (a lost connection is opened again by the next query)'),
    }).then((db) => {
      cleanups.push(() => db.close());
      return db;
    });
    // Everything else loads while the database opens (PGlite in a thread of its own); only this
    // module's own imports come before it, so a one-shot command's start is the longer of the two,
    // not their sum (docs/design.md, "The command line's start-up").
    const [db, { createLogger }, { migrate, postgresBodies }, archiveModule, { PipelineMetrics }, { ElasticsearchIndex, PostgresSearchIndex }, { CpuPool }] =
      await Promise.all([
        opening,
        import('./logger.js'),
        import('@winnow/storage'),
        storeOptions ? import('@winnow/archive') : undefined,
        import('@winnow/metrics'),
        import('@winnow/search'),
        import('./cpu/pool.js'),
        options.loadWhileOpening?.(),
      ]);
    log ??= createLogger(env, 'winnow');
    const metrics = new PipelineMetrics();
    const applied = await migrate(db);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');
    const archive = storeOptions && archiveModule?.openWarcArchive(db, env, storeOptions);
    const bodies = archive?.bodies ?? postgresBodies(db);
    cleanups.push(() => bodies.close());

    const queues = env.REDIS_URL || options.queues !== false ? await openQueues(env, log, metrics, cleanups) : undefined;
    const search: SearchIndex = env.ELASTICSEARCH_URL
      ? new ElasticsearchIndex({
          url: env.ELASTICSEARCH_URL,
          alias: env.WINNOW_ES_ALIAS,
          replicas: env.WINNOW_ES_REPLICAS,
          shards: env.WINNOW_ES_SHARDS,
          retryForMs: env.WINNOW_INDEX_RETRY_MS,
        })
      : new PostgresSearchIndex(db);
    cleanups.push(() => search.close());
    await search.ensureReady();
    const cpu = new CpuPool(env.WINNOW_CPU_THREADS);
    cleanups.push(() => cpu.close());
    const notOpen = () =>
      new Error('the queues are not open in this process: its runtime was opened for a command that runs no workers (RuntimeOptions.queues)');
    return {
      env,
      db,
      get queues(): PipelineQueues {
        if (!queues) throw notOpen();
        return queues;
      },
      get queueSettings(): QueueSettings {
        if (!queues) throw notOpen();
        return queues.settings;
      },
      queuesOpen: queues !== undefined,
      search,
      bodies,
      archive,
      log,
      metrics,
      cpu,
      privateRedis: !env.REDIS_URL,
      // Closing is stopping: the queues' connections are dropped rather than held for a Redis that
      // is down (`RedisWatch.stopWaiting`), whoever closes, not only a served process's signal.
      close: () => {
        queues?.settings.redisWatch?.stopWaiting();
        return closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Redis (by `REDIS_URL`, else a private `redis-server`) and the pipeline's queues on it; closed by `cleanups`. */
async function openQueues(env: Env, log: Logger, metrics: PipelineMetrics, cleanups: (() => Promise<void>)[]): Promise<PipelineQueues> {
  // Loaded here: BullMQ and ioredis are no business of a command that opens no queues.
  const { closeRedisConnection, PipelineQueues, redisConnection, redisName, RedisWatch, startPrivateRedis, waitForRedis } = await import('@winnow/queue');
  let redis: PrivateRedis | undefined;
  if (!env.REDIS_URL) {
    redis = await startPrivateRedis();
    cleanups.push(() => (redis as PrivateRedis).stop());
  } else {
    await waitForRedis(env.REDIS_URL, env.WINNOW_INFRA_RETRY_MS, (reason) =>
      log.warn({ reason, retryForMs: env.WINNOW_INFRA_RETRY_MS }, 'Redis (REDIS_URL) cannot be reached yet; trying again'),
    );
  }
  const connection = redis ? redis.options : redisConnection(env.REDIS_URL as string, { cluster: env.WINNOW_REDIS_MODE === 'cluster' });
  cleanups.push(() => closeRedisConnection(connection));
  const redisWatch = new RedisWatch(redisName(env.REDIS_URL), log);
  // A cluster's client is shared by every queue (`redisConnection`): it is watched, and dropped, with them.
  if (connection instanceof EventEmitter) redisWatch.watch(connection);
  const queues = new PipelineQueues({
    connection,
    prefix: env.WINNOW_QUEUE_PREFIX,
    attempts: env.WINNOW_JOB_ATTEMPTS,
    backoffMs: env.WINNOW_JOB_BACKOFF_MS,
    lockMs: env.WINNOW_JOB_LOCK_MS,
    redisWatch,
    onAttemptEnd: ({ queue, outcome, seconds }) => {
      metrics.jobs.inc({ queue, outcome });
      metrics.jobSeconds.observe({ queue, outcome }, seconds);
    },
  });
  cleanups.push(() => queues.close());
  return queues;
}

/**
 * The embedded database's folder is its owner's alone (0700): PGlite writes its files readable and
 * writable by everyone (0666, whatever the umask), so the folder is what keeps other local users
 * from reading the crawled pages or rewriting a site's configuration (its `allowPrivateAddresses`).
 * A folder made before this rule is tightened on the next start.
 */
function ownerOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * A holder refreshes its lock every half of this; a lock left older by a process that died (killed,
 * the machine lost) is taken over. proper-lockfile's default, stated so the busy message can say it.
 */
const LOCK_STALE_MS = 10_000;

async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = resolve(dataDir);
  ownerOnlyDir(dir);
  const note = apiNotePath(dir);
  try {
    const release = await lockfile.lock(dir, { lockfilePath: `${dir}.lock`, retries: 0, stale: LOCK_STALE_MS });
    // A note left by a holder that died names no API of this process's.
    rmSync(note, { force: true });
    return async () => {
      rmSync(note, { force: true });
      await release();
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new EmbeddedDatabaseBusyError(
        `the embedded database in ${dir} is in use by another winnow process (such as \`winnow up\`): use that process's HTTP API, stop it, or set DATABASE_URL to a Postgres server (a process that was killed holds it for ${LOCK_STALE_MS / 1000} s more)`,
        readNote(note),
      );
    }
    throw error;
  }
}

function readNote(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
