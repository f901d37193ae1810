import type { EventEmitter } from 'node:events';
import { Worker } from 'bullmq';

/** What `RedisWatch` writes to: the runtime's pino logger, or anything with these methods. */
export interface RedisWatchLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/**
 * A connection to Redis: an ioredis client (`'error'`, `'ready'`, `'end'`), or a BullMQ `Queue` or
 * `Worker`, whose connections' `'ready'` only its backend (`getBackend()`) tells.
 */
export type WatchedRedis = EventEmitter & { getBackend?: () => unknown; disconnect?: () => unknown };

/** Socket errors of a connection that cannot reach its server (as opposed to a command's error). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ENOENT']);
const CLUSTER_UNREACHABLE = /Failed to refresh slots cache|None of startup nodes is available/i;
const CUT_OFF = /Connection is closed|Stream isn't writeable|Connection in subscriber mode|max retries per request/i;

/**
 * One account, for the whole process, of whether Redis answers, kept from the events of every
 * connection given to `watch`. Without it, each connection's failed reconnect (ioredis retries
 * every ~2 s) printed a stack trace on stderr: ioredis's "Unhandled error event", or BullMQ's
 * `console.error` for a queue with no `'error'` listener. With it the log holds one warning when
 * Redis becomes unreachable, naming the reason, and one line when every connection that lost it
 * is ready again; the attempts in between are at debug level, without stacks. ioredis and BullMQ
 * still reconnect and retry as before: this only listens, until a stopping process stops waiting
 * (`stopWaiting`).
 */
export class RedisWatch {
  readonly #watched = new Set<WatchedRedis>();
  readonly #lost = new Set<WatchedRedis>();
  #announced = false;
  #waiting = true;
  /** Connections dropped by `stopWaiting` end without Redis being back. */
  #dropped = false;
  /** Settles when the connections are dropped (`#disconnectAll`). */
  #markDropped: () => void = () => {};
  readonly #droppedSignal = new Promise<void>((resolve) => {
    this.#markDropped = resolve;
  });

  /** `where`: how the log names the server ("Redis at 127.0.0.1:6379"). */
  constructor(
    readonly where: string,
    readonly log: RedisWatchLog,
  ) {}

  /** True while Redis is reported unreachable. */
  get down(): boolean {
    return this.#announced;
  }

  /**
   * For a process that is stopping: while Redis is unreachable, now or later, every watched
   * connection is disconnected instead of reconnecting. BullMQ closes a queue or a worker by
   * quitting its connections, and ioredis holds a quit until the server answers, so a SIGTERM
   * during an outage waited for Redis to return (or for the pod to be killed). Nothing is lost by
   * not waiting: a job a worker held goes back to its queue when its lock lapses, and the
   * reconciler queues again whatever Postgres says is missing.
   */
  stopWaiting(): void {
    this.#waiting = false;
    if (this.#announced) this.#disconnectAll();
  }

  /**
   * A close of watched connections, over once they are dropped if not before. A BullMQ queue
   * disconnected while ioredis waits to reconnect is parked for good (no `close` event, no retry
   * timer: BullMQ #4585), so its `close()` waits for an answer that never comes; once the process
   * stopped waiting for Redis there is nothing left to wait for.
   */
  async closing(close: Promise<unknown>): Promise<void> {
    await Promise.race([close, this.#droppedSignal]);
  }

  /** Listens to one connection (an ioredis client, or a BullMQ queue or worker); returns it. */
  watch<Source extends object>(watched: Source): Source {
    // BullMQ types `on` with its own events' names only; it is an EventEmitter all the same.
    const source = watched as unknown as WatchedRedis;
    this.#watched.add(source);
    source.on('error', (error: unknown) => this.#failed(source, error));
    const backend = source.getBackend?.() as EventEmitter | undefined;
    const readyFrom: EventEmitter = backend && typeof backend.on === 'function' ? backend : source;
    readyFrom.on('ready', () => this.#ready(source));
    // A client closed for good (`quit`) will not be ready again: it no longer holds "back" off.
    source.on('end', () => this.#ready(source));
    source.on('closed', () => this.#ready(source));
    return watched;
  }

  #failed(source: WatchedRedis, error: unknown): void {
    const reason = redisFailure(error);
    const kind = failureKind(error);
    if (kind === 'command') {
      this.log.warn({ reason }, `${this.where}: a command failed (${reason})`);
      return;
    }
    // Only the socket's own errors, which every connection meets on each attempt while the server is
    // away, say it is down; a command cut off by the lost connection ("Connection is closed.") may
    // come after its connection is back, and must not announce an outage nobody will see end.
    if (kind === 'cut-off') {
      this.log.debug({ reason }, `${this.where}: a command was cut off by a lost connection`);
      return;
    }
    this.#lost.add(source);
    if (this.#announced) {
      this.log.debug({ reason }, `${this.where} still unreachable`);
      return;
    }
    this.#announced = true;
    if (!this.#waiting) {
      this.#disconnectAll();
      return;
    }
    this.log.warn({ reason }, `${this.where} unreachable: ${reason}; retrying`);
  }

  #disconnectAll(): void {
    if (this.#dropped) return; // once: a second `stopWaiting` (the signal's, then the runtime's close) finds them dropped
    this.#dropped = true;
    this.#markDropped();
    this.log.warn({}, `${this.where} unreachable while stopping: its connections are dropped; held jobs return to their queues when their locks lapse`);
    for (const source of this.#watched) {
      // A worker is closed without waiting for its jobs (whose ends it could not record), and its
      // owner's own `close()` then returns that same closing; a queue or a client disconnects.
      // Called now, not in a later tick: an owner's `close()` right after this must find it closing.
      const dropping = source instanceof Worker ? source.close(true) : source.disconnect?.();
      Promise.resolve(dropping).catch((error: unknown) => this.log.debug({ reason: redisFailure(error) }, `${this.where}: a connection could not be dropped`));
    }
  }

  #ready(source: WatchedRedis): void {
    this.#lost.delete(source);
    if (!this.#announced || this.#lost.size > 0 || this.#dropped) return;
    this.#announced = false;
    this.log.info({}, `${this.where} is back`);
  }
}

/** `socket`: the connection cannot reach the server; `cut-off`: a command lost with its connection; `command`: any other. */
function failureKind(error: unknown): 'socket' | 'cut-off' | 'command' {
  if (!(error instanceof Error)) return 'command';
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && UNREACHABLE_CODES.has(code)) return 'socket';
  const nested = (error as { lastNodeError?: unknown }).lastNodeError;
  if (nested !== undefined && failureKind(nested) === 'socket') return 'socket';
  if (CLUSTER_UNREACHABLE.test(error.message)) return 'socket';
  return CUT_OFF.test(error.message) ? 'cut-off' : 'command';
}

/** The reason, without the address the log names already: "connect ECONNREFUSED", "read ECONNRESET". */
function redisFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code && syscall) return `${syscall} ${code}`;
  const nested = (error as { lastNodeError?: unknown }).lastNodeError;
  if (error.message === '' && nested !== undefined) return redisFailure(nested);
  return error.message.split('\n')[0] || code || error.name;
}

/** How logs name the Redis of a `redis://` URL: its host and port, never its credentials; the private one when there is no URL. */
export function redisName(url: string | undefined): string {
  if (!url) return 'the private Redis';
  const parsed = new URL(url);
  return `Redis at ${parsed.hostname}:${parsed.port || 6379}`;
}
