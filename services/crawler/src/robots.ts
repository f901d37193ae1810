import { createRequire } from 'node:module';
import type { RedisClient } from '@winnow/queue';
import { type FetchedResponse, FetchError } from './fetcher.js';
import { retryAfterMs } from './politeness.js';

/** robots-parser is CommonJS whose types declare an ES default export: load it as what it is. */
const robotsParser = createRequire(import.meta.url)('robots-parser') as typeof import('robots-parser').default;

/** What a host's robots.txt says to this crawler. */
export interface RobotsRules {
  /** Why nothing of the host may be fetched for now (robots.txt answered 5xx or could not be fetched), or null. */
  unavailable: RobotsUnavailable | null;
  /** The rule that disallows `url` (`robots.txt line 2: Disallow: /private/`), for the crawl log; null when it may be fetched. */
  disallowedBy(url: string): string | null;
  /** `Crawl-delay` of the group that matches the User-Agent, in milliseconds. */
  crawlDelayMs: number | null;
  sitemaps: string[];
  /** This call fetched robots.txt (so that request counts towards the host's pace). */
  fetchedNow: boolean;
}

export interface RobotsUnavailable {
  reason: string;
  /** The network policy refused the host itself: a refusal to record, not a failure to retry. */
  refused: boolean;
  /** Asking again later may work (a timeout, a 503), unlike a refused connection: robots.txt is asked again in `retryInMs`. */
  retriable: boolean;
  /** How long until robots.txt is asked again. */
  retryInMs: number;
}

/** What is cached of a robots.txt, shared by every crawler process. */
type CachedRobots = { kind: 'rules'; body: string } | { kind: 'allow-all'; status: number } | ({ kind: 'unavailable' } & Omit<RobotsUnavailable, 'retryInMs'>);

/** Google's limit: past 500 KiB a robots.txt is read no further. */
const MAX_ROBOTS_BYTES = 500 * 1024;
const MAX_REDIRECTS = 5;
/** How long a process keeps rules it read from Redis before asking Redis again. */
const LOCAL_TTL_MS = 60_000;
/** A robots.txt that could not be fetched for good (a refused connection) is asked for again this soon, not after the whole period. */
const UNAVAILABLE_TTL_MS = 60_000;
/**
 * A robots.txt that fails in a way that can pass (5xx, 429, a timeout) is tried this many times
 * before the host's URLs fail; between tries its `Retry-After` (at most `MAX_RETRY_WAIT_MS`), else
 * 5 s, 20 s, 80 s, 320 s: about seven minutes, long enough for a restart or a deploy.
 */
export const ROBOTS_TRIES = 5;
const RETRY_BASE_MS = 5000;
const MAX_RETRY_WAIT_MS = 10 * 60_000;
/** How long the final verdict stands: past the longest wait, so that no URL waiting for a try starts a new round. */
const GAVE_UP_TTL_MS = MAX_RETRY_WAIT_MS + 60_000;

export interface RobotsOptions {
  redis: RedisClient;
  prefix: string;
  userAgent: string;
  /** How long a fetched robots.txt is trusted within a crawl before it is fetched again. */
  ttlMs: number;
}

/** Fetches one URL of the host, through the asking site's network policy and the host's politeness. */
export type RobotsFetch = (url: string) => Promise<FetchedResponse>;

/**
 * robots.txt, fetched once per origin by each crawl (again after `ttlMs` in a longer crawl) and
 * shared by every crawler process of that crawl through Redis (one process fetches while the
 * others wait for its answer), parsed with robots-parser and matched against this crawler's
 * User-Agent. It is kept per crawl, not per origin alone, so that a crawl started after an
 * operator changed robots.txt obeys the new rules, not those an earlier crawl fetched up to
 * `ttlMs` ago. As Google and RFC 9309 say: 2xx is the rules; 4xx means no rules (everything
 * allowed); 5xx, 429 or no answer means nothing may be fetched for now, and the reason is kept so
 * that the pages it blocks say why ("connection refused"). A failure that can pass is tried again
 * with backoff (`ROBOTS_TRIES`, counted in Redis across processes) while the host's URLs wait for
 * it; after the last try they fail with the reason. RFC 9309 lets a crawler assume no rules after
 * 30 days of a 5xx; a crawl does not wait that long.
 */
export class RobotsCache {
  readonly #options: RobotsOptions;
  /** Rules as this process last read them, under their Redis key (crawl and origin), each for at most `LOCAL_TTL_MS`. */
  readonly #local = new Map<string, { rules: RobotsRules; expires: number }>();
  #nextSweep = 0;

  constructor(options: RobotsOptions) {
    this.#options = options;
  }

  /** The rules of `origin` for crawl `crawlId`: fetched by this crawl, never by an earlier one. */
  async rulesFor(crawlId: number, origin: string, fetch: RobotsFetch): Promise<RobotsRules> {
    const key = `${this.#options.prefix}:robots:${crawlId}:${origin}`;
    const now = Date.now();
    const local = this.#local.get(key);
    if (local && local.expires > now) return withRetry(local.rules, local.expires - now);
    const { cached, ttlMs, fetchedNow } = await this.#shared(key, origin, fetch);
    const rules = this.#rulesOf(origin, cached);
    this.#sweep(now);
    if (ttlMs > 0) this.#local.set(key, { rules: { ...rules, fetchedNow: false }, expires: Date.now() + Math.min(ttlMs, LOCAL_TTL_MS) });
    return withRetry({ ...rules, fetchedNow }, ttlMs);
  }

  /** Forgets lapsed rules now and then: every crawl adds its own, and a long-lived process sees many crawls. */
  #sweep(now: number): void {
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + LOCAL_TTL_MS;
    for (const [key, entry] of this.#local) if (entry.expires <= now) this.#local.delete(key);
  }

  async #shared(key: string, origin: string, fetch: RobotsFetch): Promise<{ cached: CachedRobots; ttlMs: number; fetchedNow: boolean }> {
    const { redis } = this.#options;
    const lock = `${key}:fetching`;
    for (let waited = 0; ; waited += 100) {
      const stored = await redis.get(key);
      if (stored) return { cached: JSON.parse(stored) as CachedRobots, ttlMs: Math.max(await redis.pttl(key), 1000), fetchedNow: false };
      if ((await redis.set(lock, '1', 'PX', 30_000, 'NX')) === 'OK' || waited > 30_000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      const fetched = await this.#fetchRobots(origin, fetch);
      const { shared } = fetched;
      let { cached } = fetched;
      let ttlMs = this.#options.ttlMs;
      if (cached.kind === 'unavailable' && cached.retriable && shared) {
        ({ cached, ttlMs } = await this.#failedTry(`${key}:failures`, cached, fetched.retryAfterMs));
      } else if (cached.kind === 'unavailable') {
        ttlMs = UNAVAILABLE_TTL_MS;
      } else {
        await redis.del(`${key}:failures`);
      }
      if (shared) await redis.set(key, JSON.stringify(cached), 'PX', ttlMs);
      return { cached, ttlMs: shared ? ttlMs : 0, fetchedNow: true };
    } finally {
      await redis.del(lock);
    }
  }

  /**
   * Counts a failed try of a robots.txt in `failures` (a Redis hash: tries, time of the first) and
   * says how long the answer stands: until the next try, or, after the last one, a final verdict
   * (not retriable) whose reason says how many tries over how long.
   */
  async #failedTry(
    failures: string,
    cached: Extract<CachedRobots, { kind: 'unavailable' }>,
    retryAfter: number | null,
  ): Promise<{ cached: CachedRobots; ttlMs: number }> {
    const redis = this.#options.redis;
    const [[, tries], , [, first]] = (await redis
      .multi()
      .hincrby(failures, 'tries', 1)
      .hsetnx(failures, 'first', String(Date.now()))
      .hget(failures, 'first')
      .pexpire(failures, GAVE_UP_TTL_MS)
      .exec()) as [[null, number], unknown, [null, string]];
    if (tries < ROBOTS_TRIES) {
      const waitMs = Math.max(1000, Math.min(retryAfter ?? RETRY_BASE_MS * 4 ** (tries - 1), MAX_RETRY_WAIT_MS));
      return { cached, ttlMs: waitMs };
    }
    await redis.del(failures);
    const seconds = Math.round((Date.now() - Number(first)) / 1000);
    return { cached: { ...cached, reason: `${cached.reason}, ${tries} tries over ${seconds} s`, retriable: false }, ttlMs: GAVE_UP_TTL_MS };
  }

  /**
   * Fetches an origin's robots.txt, following up to five redirects. `shared` is false when the
   * asking site's network policy refused the host: that says nothing of the host to other sites.
   */
  async #fetchRobots(origin: string, fetch: RobotsFetch): Promise<{ cached: CachedRobots; shared: boolean; retryAfterMs: number | null }> {
    let url = `${origin}/robots.txt`;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      let response: FetchedResponse;
      try {
        response = await fetch(url);
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        const refused = error.code === 'refused';
        const cached: CachedRobots = { kind: 'unavailable', reason: `${error.message} (fetching robots.txt)`, refused, retriable: error.retriable };
        return { cached, shared: !refused, retryAfterMs: null };
      }
      const { status } = response;
      if (status >= 300 && status < 400 && response.headers.location) {
        // A redirect to nowhere is a robots.txt that is not there, as too many redirects are.
        const target = URL.parse(response.headers.location, url);
        if (target === null) return { cached: { kind: 'allow-all', status }, shared: true, retryAfterMs: null };
        url = target.href;
        continue;
      }
      if (status >= 200 && status < 300) {
        return { cached: { kind: 'rules', body: response.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8') }, shared: true, retryAfterMs: null };
      }
      if (status === 429 || status >= 500) {
        const cached: CachedRobots = { kind: 'unavailable', reason: `robots.txt answered HTTP ${status}`, refused: false, retriable: true };
        return { cached, shared: true, retryAfterMs: retryAfterMs(response.headers['retry-after']) };
      }
      return { cached: { kind: 'allow-all', status }, shared: true, retryAfterMs: null };
    }
    return { cached: { kind: 'allow-all', status: 310 }, shared: true, retryAfterMs: null };
  }

  #rulesOf(origin: string, cached: CachedRobots): Omit<RobotsRules, 'fetchedNow'> {
    const { userAgent } = this.#options;
    switch (cached.kind) {
      case 'unavailable': {
        const { reason, refused, retriable } = cached;
        return { unavailable: { reason, refused, retriable, retryInMs: 0 }, disallowedBy: () => reason, crawlDelayMs: null, sitemaps: [] };
      }
      case 'allow-all':
        return { unavailable: null, disallowedBy: () => null, crawlDelayMs: null, sitemaps: [] };
      case 'rules': {
        const { body } = cached;
        const parsed = robotsParser(`${origin}/robots.txt`, body);
        const delay = parsed.getCrawlDelay(userAgent);
        let lines: string[] | undefined;
        return {
          unavailable: null,
          // robots-parser names the matching rule by its line (1-based, lines split as it splits
          // them); the line is quoted as robots-parser reads it, without its comment.
          disallowedBy: (url) => {
            if (parsed.isAllowed(url, userAgent) !== false) return null;
            const line = parsed.getMatchingLineNumber(url, userAgent);
            lines ??= body.split(/\r\n|\r|\n/);
            return `robots.txt line ${line}: ${(lines[line - 1] ?? '').replace(/#.*/, '').trim()}`;
          },
          crawlDelayMs: delay === undefined ? null : delay * 1000,
          sitemaps: parsed.getSitemaps(),
        };
      }
    }
  }
}

/** Rules whose unavailability, if any, says when robots.txt is asked again: when its cached answer lapses. */
function withRetry(rules: RobotsRules, ttlMs: number): RobotsRules {
  return rules.unavailable ? { ...rules, unavailable: { ...rules.unavailable, retryInMs: Math.max(ttlMs, 1000) } } : rules;
}
