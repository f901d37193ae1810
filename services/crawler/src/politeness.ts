import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@winnow/queue';

/** How a host may be visited: at most `maxInFlight` requests at once, their starts `intervalMs` apart. */
export interface HostPace {
  intervalMs: number;
  maxInFlight: number;
}

/** A granted request slot: `started()` resolves when the request may go, `release()` once it is answered. */
export interface HostSlot {
  /** Milliseconds from the grant to the start it reserved. */
  waitMs: number;
  started(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Grants a slot atomically, on Redis's clock so that every process agrees. KEYS: the host's
 * state hash, its in-flight set. ARGV: interval ms, max in flight, slot token, lease ms, longest
 * wait ms the caller accepts. Returns {1, wait} when granted (start after `wait` ms; the next slot
 * starts `interval` later), {0, wait} when the caller should come back in `wait` ms: the host is
 * backing off, full, or its next slot is further away than the caller will wait. A slot whose
 * holder died lapses after the lease.
 */
const ACQUIRE = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local interval, max, lease, longest = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local backoff = tonumber(redis.call('HGET', KEYS[1], 'backoff_until') or '0')
if backoff > now then return {0, backoff - now} end
if redis.call('ZCARD', KEYS[2]) >= max then return {0, 25} end
local start = math.max(now, tonumber(redis.call('HGET', KEYS[1], 'next_at') or '0'))
if start - now > longest then return {0, start - now} end
local guard = 0
if interval > 0 then guard = math.max(25, math.floor(interval / 50)) end
redis.call('HSET', KEYS[1], 'next_at', start + interval + guard, 'last_start', start)
redis.call('ZADD', KEYS[2], start + lease, ARGV[3])
local ttl = math.max(interval, lease) + 60000
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return {1, start - now}
`;

/**
 * Confirms a start at the moment it happens: a process that woke late (a busy machine) may not
 * start within `ARGV[1]` ms of the host's last actual start; returns 0 and records the start, or
 * the ms to wait. The grant's guard absorbs most lateness; this makes the interval hold whatever
 * it is.
 */
const START = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local due = tonumber(redis.call('HGET', KEYS[1], 'started_at') or '0') + tonumber(ARGV[1])
if due > now then return due - now end
redis.call('HSET', KEYS[1], 'started_at', now)
return 0
`;

/**
 * Moves a host's next free start to at least `ARGV[1]` ms after the later of now and the last
 * start granted (a robots.txt `Crawl-delay` just learnt), with the same guard as every slot: a
 * request another process was granted at the pace known before, even one still waiting to start,
 * must be a whole delay from the next one at the server.
 */
const DELAY_NEXT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local delay = tonumber(ARGV[1])
local since = math.max(now, tonumber(redis.call('HGET', KEYS[1], 'last_start') or '0'))
local next_ = since + delay + math.max(25, math.floor(delay / 50))
if next_ > tonumber(redis.call('HGET', KEYS[1], 'next_at') or '0') then
  redis.call('HSET', KEYS[1], 'next_at', next_)
  redis.call('PEXPIRE', KEYS[1], delay + 60000)
end
return next_
`;

/**
 * Reserves the host's next free start for a request that rides on a slot already held (a rendered
 * page's subresources and later navigations): spaced like every start, but not counted in flight,
 * since the page's slot is. ARGV: interval ms. Returns {1, wait} (start in `wait` ms) or {0, wait}
 * while the host is backing off (ask again then).
 */
const PACE = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local interval = tonumber(ARGV[1])
local backoff = tonumber(redis.call('HGET', KEYS[1], 'backoff_until') or '0')
if backoff > now then return {0, backoff - now} end
local start = math.max(now, tonumber(redis.call('HGET', KEYS[1], 'next_at') or '0'))
local guard = 0
if interval > 0 then guard = math.max(25, math.floor(interval / 50)) end
redis.call('HSET', KEYS[1], 'next_at', start + interval + guard, 'last_start', start)
redis.call('PEXPIRE', KEYS[1], interval + 60000)
return {1, start - now}
`;

/** Pushes a host's next slot back to `until` (ms since the epoch on Redis's clock), never earlier than it is. */
const BACK_OFF = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local until_ = now + tonumber(ARGV[1])
if until_ > tonumber(redis.call('HGET', KEYS[1], 'backoff_until') or '0') then
  redis.call('HSET', KEYS[1], 'backoff_until', until_)
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + 60000)
end
return until_
`;

/**
 * Per-host politeness shared by every crawler process through Redis: a maximum of requests in
 * flight per host (a set of slot tokens, each lapsing after a lease so a dead process cannot hold
 * one for ever) and a minimum interval between request starts (the host's next free start time),
 * both granted in one Lua script, so two processes can never take the same start time. Each start
 * is reserved a little more than the interval after the last (2 %, at least 25 ms), so that a
 * process that wakes a few milliseconds late does not bring two requests closer than asked, and
 * confirmed when it happens (`START`), so that one that wakes later still waits. A host
 * that answered 429 or 503 is backed off as a whole until its `Retry-After`.
 */
export class Politeness {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly leaseMs: number,
  ) {}

  /**
   * A slot for one request to `host`, or the time to come back when none starts within
   * `longestWaitMs` (the caller gives the URL back to the frontier rather than sleep on it).
   */
  async acquire(host: string, pace: HostPace, longestWaitMs: number): Promise<HostSlot | { retryInMs: number }> {
    const token = randomUUID();
    const keys = this.#keys(host);
    const [granted, wait] = (await this.redis.eval(
      ACQUIRE,
      2,
      keys.state,
      keys.inFlight,
      pace.intervalMs,
      pace.maxInFlight,
      token,
      this.leaseMs,
      longestWaitMs,
    )) as [number, number];
    if (granted !== 1) return { retryInMs: Math.max(wait, 1) };
    return {
      waitMs: wait,
      started: () => this.#startAfter(keys.state, wait, pace.intervalMs),
      release: async () => void (await this.redis.zrem(keys.inFlight, token)),
    };
  }

  /**
   * Resolves when one more request to `host` may start, `intervalMs` after every other start,
   * for a request that rides on a slot already held (`PACE`): a rendered page's subresources and
   * the navigations of its scripts, which go to the host as much as the page itself does.
   */
  async paceStart(host: string, intervalMs: number): Promise<void> {
    const keys = this.#keys(host);
    for (;;) {
      const [granted, wait] = (await this.redis.eval(PACE, 1, keys.state, intervalMs)) as [number, number];
      if (granted === 1) return this.#startAfter(keys.state, wait, intervalMs);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Waits out a reserved start, then confirms it (`START`), waiting again while it came too early. */
  async #startAfter(stateKey: string, wait: number, intervalMs: number): Promise<void> {
    let waitMs = wait;
    do {
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      waitMs = Number(await this.redis.eval(START, 1, stateKey, intervalMs));
    } while (waitMs > 0);
  }

  /** The host's next request starts no sooner than `ms` after now and after the last start granted, whoever asks. */
  async delayNext(host: string, ms: number): Promise<void> {
    await this.redis.eval(DELAY_NEXT, 1, this.#keys(host).state, Math.max(0, Math.round(ms)));
  }

  /** The host asked every client to wait (`Retry-After` on a 429 or 503): no process starts a request there before then. */
  async backOff(host: string, forMs: number): Promise<void> {
    await this.redis.eval(BACK_OFF, 1, this.#keys(host).state, Math.max(0, Math.round(forMs)));
  }

  /** The host's two keys, which one script reads together: its hash tag keeps them in one slot of a Redis Cluster. */
  #keys(host: string) {
    return { state: `${this.prefix}:host:{${host}}`, inFlight: `${this.prefix}:host:{${host}}:in-flight` };
  }
}

/** `Retry-After` in milliseconds: seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | null {
  if (header === undefined) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
