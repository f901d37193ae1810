import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { type FetchedResponse, FetchError } from './fetcher.js';

/** robots-parser is CommonJS whose types declare an ES default export: load it as what it is. */
const robotsParser = createRequire(import.meta.url)('robots-parser') as typeof import('robots-parser').default;

/** What a host's robots.txt says to this crawler. */
export interface RobotsRules {
  /** Why nothing of the host may be fetched for now (robots.txt answered 5xx or could not be fetched), or null. */
  unavailable: RobotsUnavailable | null;
  isAllowed(url: string): boolean;
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
  /** Asking again later may work (a timeout, a 503), unlike a refused connection. */
  retriable: boolean;
}

/** What is cached of a robots.txt, shared by every crawler process. */
type CachedRobots = { kind: 'rules'; body: string } | { kind: 'allow-all'; status: number } | ({ kind: 'unavailable' } & RobotsUnavailable);

/** Google's limit: past 500 KiB a robots.txt is read no further. */
const MAX_ROBOTS_BYTES = 500 * 1024;
const MAX_REDIRECTS = 5;
/** A robots.txt that could not be fetched is asked for again this soon, not after the whole period. */
const UNAVAILABLE_TTL_MS = 60_000;

export interface RobotsOptions {
  redis: Redis;
  prefix: string;
  userAgent: string;
  /** How long a fetched robots.txt is trusted before it is fetched again. */
  ttlMs: number;
}

/** Fetches one URL of the host, through the asking site's network policy and the host's politeness. */
export type RobotsFetch = (url: string) => Promise<FetchedResponse>;

/**
 * robots.txt, fetched once per origin per period and shared by every crawler process through
 * Redis (one process fetches while the others wait for its answer), parsed with robots-parser and
 * matched against this crawler's User-Agent. As Google and RFC 9309 say: 2xx is the rules; 4xx
 * means no rules (everything allowed); 5xx, 429 or no answer means nothing may be fetched for now,
 * and the reason is kept so that the pages it blocks say why ("connection refused").
 */
export class RobotsCache {
  readonly #options: RobotsOptions;
  readonly #local = new Map<string, { rules: RobotsRules; expires: number }>();

  constructor(options: RobotsOptions) {
    this.#options = options;
  }

  async rulesFor(origin: string, fetch: RobotsFetch): Promise<RobotsRules> {
    const local = this.#local.get(origin);
    if (local && local.expires > Date.now()) return local.rules;
    const { cached, ttlMs, fetchedNow } = await this.#shared(origin, fetch);
    const rules = this.#rulesOf(origin, cached);
    if (ttlMs > 0) this.#local.set(origin, { rules: { ...rules, fetchedNow: false }, expires: Date.now() + Math.min(ttlMs, 60_000) });
    return { ...rules, fetchedNow };
  }

  async #shared(origin: string, fetch: RobotsFetch): Promise<{ cached: CachedRobots; ttlMs: number; fetchedNow: boolean }> {
    const { redis, prefix } = this.#options;
    const key = `${prefix}:robots:${origin}`;
    const lock = `${key}:fetching`;
    for (let waited = 0; ; waited += 100) {
      const stored = await redis.get(key);
      if (stored) return { cached: JSON.parse(stored) as CachedRobots, ttlMs: Math.max(await redis.pttl(key), 1000), fetchedNow: false };
      if ((await redis.set(lock, '1', 'PX', 30_000, 'NX')) === 'OK' || waited > 30_000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      const { cached, shared } = await this.#fetchRobots(origin, fetch);
      const ttlMs = cached.kind === 'unavailable' ? UNAVAILABLE_TTL_MS : this.#options.ttlMs;
      if (shared) await redis.set(key, JSON.stringify(cached), 'PX', ttlMs);
      return { cached, ttlMs: shared ? ttlMs : 0, fetchedNow: true };
    } finally {
      await redis.del(lock);
    }
  }

  /**
   * Fetches an origin's robots.txt, following up to five redirects. `shared` is false when the
   * asking site's network policy refused the host: that says nothing of the host to other sites.
   */
  async #fetchRobots(origin: string, fetch: RobotsFetch): Promise<{ cached: CachedRobots; shared: boolean }> {
    let url = `${origin}/robots.txt`;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      let response: FetchedResponse;
      try {
        response = await fetch(url);
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        const refused = error.code === 'refused';
        return { cached: { kind: 'unavailable', reason: `${error.message} (fetching robots.txt)`, refused, retriable: error.retriable }, shared: !refused };
      }
      const { status } = response;
      if (status >= 300 && status < 400 && response.headers.location) {
        url = new URL(response.headers.location, url).href;
        continue;
      }
      if (status >= 200 && status < 300) return { cached: { kind: 'rules', body: response.body.subarray(0, MAX_ROBOTS_BYTES).toString('utf8') }, shared: true };
      if (status === 429 || status >= 500) {
        return { cached: { kind: 'unavailable', reason: `robots.txt answered HTTP ${status}`, refused: false, retriable: true }, shared: true };
      }
      return { cached: { kind: 'allow-all', status }, shared: true };
    }
    return { cached: { kind: 'allow-all', status: 310 }, shared: true };
  }

  #rulesOf(origin: string, cached: CachedRobots): Omit<RobotsRules, 'fetchedNow'> {
    const { userAgent } = this.#options;
    switch (cached.kind) {
      case 'unavailable': {
        const { reason, refused, retriable } = cached;
        return { unavailable: { reason, refused, retriable }, isAllowed: () => false, crawlDelayMs: null, sitemaps: [] };
      }
      case 'allow-all':
        return { unavailable: null, isAllowed: () => true, crawlDelayMs: null, sitemaps: [] };
      case 'rules': {
        const parsed = robotsParser(`${origin}/robots.txt`, cached.body);
        const delay = parsed.getCrawlDelay(userAgent);
        return {
          unavailable: null,
          isAllowed: (url) => parsed.isAllowed(url, userAgent) !== false,
          crawlDelayMs: delay === undefined ? null : delay * 1000,
          sitemaps: parsed.getSitemaps(),
        };
      }
    }
  }
}
