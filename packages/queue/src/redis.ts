import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { ConnectionOptions } from 'bullmq';
import { failureReason } from '@winnow/config';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisWatch } from './redisWatch.js';

/** ioredis options for a `redis://` or `rediss://` URL; workers need `maxRetriesPerRequest: null`. */
export function redisOptionsFromUrl(url: string): ConnectionOptions {
  return { ...serverOf(url), maxRetriesPerRequest: null };
}

/** A client of either kind Winnow talks to: one server, or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * The connection BullMQ and the crawler use for `REDIS_URL`: a single server's options, or, with
 * `cluster`, one ioredis `Cluster` client seeded by that node (it learns the others and follows
 * slot moves). BullMQ shares a client instance given to it and never closes it: whoever calls this
 * closes the cluster client (`closeRedisConnection`).
 */
export function redisConnection(url: string, { cluster }: { cluster: boolean }): ConnectionOptions {
  if (!cluster) return redisOptionsFromUrl(url);
  const { host, port, db, ...login } = serverOf(url);
  if (db !== 0) throw new RangeError(`REDIS_URL: a Redis Cluster has only database 0, not ${db}`);
  return new Cluster([{ host, port }], { redisOptions: { ...login, maxRetriesPerRequest: null } });
}

/**
 * A client of its own on `connection` (a cluster client is duplicated: same seeds and options),
 * heard by `watch` when given (its lost connection logged once, not printed at every retry).
 */
export function openRedisClient(connection: ConnectionOptions, watch?: RedisWatch): RedisClient {
  const client =
    connection instanceof Cluster || connection instanceof Redis
      ? connection.duplicate()
      : new Redis({ ...(connection as RedisOptions), maxRetriesPerRequest: null });
  return watch ? watch.watch(client) : client;
}

/** Closes a client instance `redisConnection` made; plain options hold nothing open. */
export async function closeRedisConnection(connection: ConnectionOptions): Promise<void> {
  if (connection instanceof Cluster || connection instanceof Redis) await connection.quit().catch(() => connection.disconnect());
}

/**
 * The prefix of keys that carry their own hash tag, such as a host's politeness state
 * (`<prefix>:host:{<host>}`): the queue prefix without its braces. Redis hashes only the first
 * `{…}` of a key, so the queue prefix's tag would put every host on one node of a cluster; with
 * it removed, each host's keys stay together in the host's own slot and hosts spread over all.
 */
export function untaggedPrefix(prefix: string): string {
  return prefix.replace(/[{}]/g, '');
}

/** Where a `redis://` or `rediss://` URL points, and how to log in. */
function serverOf(url: string) {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new RangeError(`REDIS_URL: "${parsed.pathname}" is not a database number`);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), // an IPv6 address without its URL brackets
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db,
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/**
 * Waits until the Redis server at `url` answers a PING, trying again about every second for up to
 * `waitMs` (a server started alongside may still be coming up); then fails with an error naming
 * it. A server that answers with an error (a wrong password) fails at once: waiting cannot fix it.
 * Without this, BullMQ's connections retry forever and a one-shot command hangs, printing every
 * failed attempt.
 */
export async function waitForRedis(url: string, waitMs: number, onRetry: (reason: string) => void = () => undefined): Promise<void> {
  const deadline = Date.now() + waitMs;
  const where = `Redis at ${withoutCredentials(url)} (REDIS_URL)`;
  for (let attempt = 1; ; attempt++) {
    const failure = await ping(serverOf(url), Math.max(1_000, Math.min(5_000, deadline - Date.now())));
    if (failure === undefined) return;
    const reason = failureReason(failure);
    if (failure.name === 'ReplyError') throw new RedisUnavailableError(`${where} refused the connection: ${reason}`, { cause: failure });
    if (Date.now() >= deadline) {
      throw new RedisUnavailableError(`${where} cannot be reached: ${reason}${attempt > 1 ? ` (${attempt} attempts)` : ''}`, { cause: failure });
    }
    if (attempt === 1) onRetry(reason);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** One connection to `server` (host and port, or a Unix socket's path) and a PING; the error that stopped it, if any. */
async function ping(server: RedisOptions, timeoutMs: number): Promise<Error | undefined> {
  const client = new Redis({ ...server, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs });
  let socketError: Error | undefined; // ioredis rejects with "Connection is closed."; the socket's error says why
  client.on('error', (error: Error) => {
    socketError ??= error;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return socketError ?? (error instanceof Error ? error : new Error(String(error)));
  } finally {
    // A client whose connect failed has ended already; disconnecting it again arms ioredis's 2 s
    // timer for a socket that never closes again, which kept every embedded command alive 2 s.
    if (client.status !== 'end') client.disconnect();
  }
}

/** The URL without its credentials: a lone user part (`redis://secret@host`) is often the password. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  if (parsed.username && !parsed.password) parsed.username = '***';
  return parsed.toString();
}

export interface PrivateRedis {
  readonly options: ConnectionOptions;
  stop(): Promise<void>;
}

/**
 * Starts a `redis-server` child that only this process uses: it listens on a Unix socket in a
 * fresh temporary directory (no TCP port to collide with), keeps nothing on disk, and is stopped
 * on `stop()` or when this process exits. On Linux it is started through util-linux's `setpriv`
 * with a parent-death signal, so that it ends with this process even when this process is killed
 * (SIGKILL, the OOM killer), which no exit handler sees; without `setpriv` it would outlive such
 * a death, holding its memory until someone kills it. (The signal follows the thread that started
 * it: start it from the main thread, not a worker thread that may end first.)
 */
export async function startPrivateRedis(binary = 'redis-server'): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'winnow-redis-'));
  const socket = join(dir, 'redis.sock');
  const args = ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir];
  const setpriv = process.platform === 'linux' ? onPath('setpriv') : undefined;
  const child = setpriv
    ? spawn(setpriv, ['--pdeathsig', 'TERM', '--', binary, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const stopChild = () => child.kill('SIGTERM');
  process.once('exit', stopChild);
  try {
    await waitUntilReady(child, socket, binary);
  } catch (error) {
    process.off('exit', stopChild);
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    options: { path: socket, maxRetriesPerRequest: null },
    async stop() {
      process.off('exit', stopChild);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitUntilReady(child: ChildProcess, socket: string, binary: string): Promise<void> {
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new RedisUnavailableError(error.code === 'ENOENT' ? notFound(binary) : `could not start ${binary}: ${error.message}`)),
    );
    child.once('exit', (code) =>
      reject(new RedisUnavailableError(code === NOT_FOUND_EXIT ? notFound(binary) : `${binary} exited with code ${code} before it was ready`)),
    );
  });
  failed.catch(() => undefined); // it rejects again when the server stops later; only the race below reads it
  const ready = (async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if ((await ping({ path: socket }, 10_000)) === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new RedisUnavailableError(`${binary} did not answer on ${socket} within 5 s`);
  })();
  await Promise.race([ready, failed]);
}

/** The exit status of a launcher (`setpriv`) that could not find the program it was to run. */
const NOT_FOUND_EXIT = 127;

function notFound(binary: string): string {
  return `"${binary}" was not found: install Redis (Debian: apt-get install redis-server) or set REDIS_URL to a running server`;
}

/** The first executable file called `name` in a folder of PATH. */
function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(folder, name);
    if (folder !== '' && existsSync(candidate)) return candidate;
  }
  return undefined;
}
