import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { extractionJobId, openRedisClient, type RedisClient, startWorker, untaggedPrefix, type Worker } from '@winnow/queue';
import { type Runtime, type Service, whileUnavailable } from '@winnow/runtime';
import {
  CrawlActiveError,
  claimRevisits,
  type Completion,
  completeUrls,
  type Crawl,
  failCrawl,
  findCrawl,
  findSiteById,
  insertCrawl,
  type LeasedUrl,
  leaseUrls,
  openCrawlIds,
  releaseLeases,
  renewLeases,
  requeueUrl,
  type Site,
  settleCrawl,
  startQueuedCrawl,
  unextractedPages,
  unreachedPages,
} from '@winnow/storage';
import { admitFound, revisitEntries, startingEntries } from './admission.js';
import { BrowserRenderer, type RenderedPage, type RenderRequest } from './browser.js';
import type { Fetcher, Resolve } from './fetcher.js';
import { reasonClass } from './fetchOutcomes.js';
import { MeasuredFetcher } from './measuredFetcher.js';
import { type HostPace, Politeness } from './politeness.js';
import { RobotsCache } from './robots.js';
import { DEFAULT_TRACKING_PARAMS } from './urls.js';
import { type HeldFetch, type Visit, type VisitContext, visit } from './visit.js';

export interface CrawlerOptions {
  /** Resolves host names; the system resolver unless a test stands in for DNS. */
  resolve?: Resolve;
  /** How long Chromium stays open with no page to render; `BROWSER_IDLE_MS` unless a test waits less. */
  browserIdleMs?: number;
}

/**
 * Chromium is closed once it has rendered nothing this long, and launched again (a second or so)
 * for the next page: left open, its processes held some 600 MB after the last browser crawl ended.
 */
const BROWSER_IDLE_MS = 30_000;

/** How often open crawls are checked for an end, and queued ones for a start, at most. */
const HOUSEKEEPING_MS = 500;
/** Site rows are read again after this long (an operator may have changed the configuration), and at each new crawl of the site. */
const SITE_CACHE_MS = 5000;
/** Completed URLs are written together: at most this many, at most this long after the first. */
const COMPLETION_BATCH = 64;
const COMPLETION_FLUSH_MS = 25;
/** A crawl's revisits are read and admitted this many pages at a time. */
const REVISIT_BATCH = 1000;
/** URLs (and refusals) remembered per crawl as offered, so that links already in the frontier cost no round trip; past this, the database alone decides. */
const ADMITTED_MEMORY = 500_000;

/**
 * A crawler process: it fetches URLs of every running crawl from the frontier shared with every
 * other crawler process (Postgres, `frontier` table), up to `WINNOW_CRAWL_CONCURRENCY` at once,
 * each host paced through Redis (`Politeness`) and robots.txt (`RobotsCache`). Any number of
 * these run on any number of machines: a URL is leased to one of them, leases are renewed while
 * the process lives and lapse when it dies, so a crawl survives the loss of any crawler and
 * refetches only what was in flight. Crawls start here too (their seeds are admitted in the
 * transaction that marks them running) and end here (whichever process sees nothing left).
 * While Postgres or Redis cannot be reached, work waits and retries for `WINNOW_INFRA_RETRY_MS`.
 * When an object store keeps pages as WARC files, each crawler process also runs an archiver
 * (`WarcArchiver`) that writes the fetches staged in Postgres into files and uploads them.
 *
 * Crawlee gave way to this: its request queue lives in one process (a crawl could never use two
 * crawlers, and a killed crawler started over from the seeds), it cannot pace a host across
 * processes, enforce a byte limit while decompressing, or connect only to an address it has
 * judged; and importing its browser crawler opened a proxy on every interface.
 */
export class Crawler implements Service {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly #rt: Runtime;
  readonly #redis: RedisClient;
  readonly #fetcher: Fetcher;
  readonly #context: VisitContext;
  readonly #active = new Map<number, Promise<void>>();
  /** Site rows as last read, each for the crawl it was read for: a new crawl reads its site again. */
  readonly #sites = new Map<number, { site: Site | undefined; crawlId: number; expires: number }>();
  /** Hosts that asked to wait, and until when: their URLs are not leased before then. */
  readonly #hostWaits = new Map<string, number>();
  readonly #admitted = new Map<number, Set<string>>();
  #completions: Completion[] = [];
  #completionTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  readonly #schedules: Worker;
  readonly #archiver: { close(): Promise<void> } | undefined;
  #browser: Promise<BrowserRenderer> | undefined;
  /** Pages being rendered now: Chromium is closed only when none is. */
  #rendering = 0;
  #browserIdle: NodeJS.Timeout | undefined;
  readonly #browserIdleMs: number;
  #closing = false;
  #wake: () => void = () => undefined;
  #lastHousekeeping = 0;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #loop: Promise<void>;

  constructor(rt: Runtime, options: CrawlerOptions = {}) {
    this.#rt = rt;
    this.#browserIdleMs = options.browserIdleMs ?? BROWSER_IDLE_MS;
    const { env } = rt;
    this.#redis = openRedisClient(rt.queueSettings.connection, rt.queueSettings.redisWatch);
    if (!rt.queueSettings.redisWatch) this.#redis.on('error', () => undefined); // ioredis retries
    this.#fetcher = new MeasuredFetcher(
      {
        userAgent: env.WINNOW_USER_AGENT,
        maxBytes: env.WINNOW_MAX_PAGE_BYTES,
        timeoutMs: env.WINNOW_FETCH_TIMEOUT_MS,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      },
      rt.metrics,
    );
    // Each host's (and origin's) keys carry their own hash tag: on a Redis Cluster they spread over every node.
    const prefix = `${untaggedPrefix(env.WINNOW_QUEUE_PREFIX)}:crawl`;
    const politeness = new Politeness(this.#redis, prefix, this.#leaseMs);
    const robots = new RobotsCache({ redis: this.#redis, prefix, userAgent: env.WINNOW_USER_AGENT, ttlMs: env.WINNOW_ROBOTS_TTL_MS });
    this.#context = {
      rt,
      fetcher: this.#fetcher,
      politeness,
      robots,
      render: (request) => this.#render(request),
      trackingParams: env.WINNOW_TRACKING_PARAMS.length > 0 ? env.WINNOW_TRACKING_PARAMS : DEFAULT_TRACKING_PARAMS,
      politeFetch: (url, pace, allowPrivate) => this.#politeFetch(politeness, url, pace, allowPrivate),
      admitted: (crawlId) => this.#admittedSet(crawlId),
    };
    this.#schedules = startWorker(rt.queueSettings, 'crawl', async ({ siteId }) => this.#startScheduledCrawl(siteId));
    this.#archiver = rt.archive?.startArchiver(rt.log);
    this.#heartbeat = setInterval(() => void this.#renew(), Math.max(250, Math.floor(this.#leaseMs / 3)));
    this.#loop = this.#run();
  }

  get #leaseMs(): number {
    return this.#rt.env.WINNOW_JOB_LOCK_MS;
  }

  /** Stops taking URLs, lets the ones in flight finish, and gives back anything still leased. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#wake();
    await this.#loop;
    await Promise.allSettled(this.#active.values());
    await this.#flushCompletions();
    clearInterval(this.#heartbeat);
    await this.#schedules.close();
    await releaseLeases(this.#rt.db, this.owner).catch((error: unknown) => this.#rt.log.warn({ err: error }, 'could not give leases back'));
    // After the last fetch is recorded: what this process staged is archived before it stops.
    await this.#archiver?.close();
    await this.#closeBrowser();
    await this.#fetcher.close();
    this.#redis.disconnect();
  }

  async #run(): Promise<void> {
    const { env, db, log } = this.#rt;
    let idleMs = 25;
    while (!this.#closing) {
      try {
        if (Date.now() - this.#lastHousekeeping > HOUSEKEEPING_MS) await this.#housekeeping();
        const free = env.WINNOW_CRAWL_CONCURRENCY - this.#active.size;
        const leased = free > 0 ? await leaseUrls(db, this.owner, free, this.#leaseMs, this.#waitingHosts()) : [];
        // A URL whose lease lapsed while this process could not renew it (Postgres down) comes back
        // to it: its visit, still here holding what it fetched, records it.
        for (const url of leased) if (!this.#active.has(url.id)) this.#spawn(url);
        if (leased.length > 0) {
          idleMs = 25;
          if (this.#active.size >= env.WINNOW_CRAWL_CONCURRENCY) await this.#nextWake(60_000);
          continue;
        }
        if (this.#active.size === 0) await this.#housekeeping();
        await this.#nextWake(idleMs);
        idleMs = Math.min(idleMs * 2, 1000);
      } catch (error) {
        log.warn({ err: error }, 'crawler loop: retrying');
        await this.#nextWake(1000);
      }
    }
  }

  /** Waits until a visit ends, `close()` is called, or `ms` pass. */
  #nextWake(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  #spawn(leased: LeasedUrl): void {
    const task = this.#visitAndRecord(leased)
      .catch((error: unknown) => this.#rt.log.error({ err: error, url: leased.url }, 'a URL could not be recorded; its lease will lapse'))
      .finally(() => {
        this.#active.delete(leased.id);
        this.#wake();
      });
    this.#active.set(leased.id, task);
  }

  async #visitAndRecord(leased: LeasedUrl): Promise<void> {
    const { db, env, log } = this.#rt;
    const site = await this.#site(leased.siteId, leased.crawlId);
    if (!site) return; // the site was removed: its frontier went with it
    let result: Visit;
    const held: HeldFetch = {};
    try {
      result = await whileUnavailable(
        () => visit(this.#context, leased, site, held),
        env.WINNOW_INFRA_RETRY_MS,
        (error) => log.warn({ err: error, url: leased.url }, 'database or Redis unavailable: retrying'),
      );
    } catch (error) {
      result = { outcome: 'failed', error: `could not be recorded: ${(error as Error).message}` };
    }
    // Back to the frontier: `retry` after a failure that may pass, `deferred` unfetched (the host's slot, or its robots.txt, is not ready).
    if ('retryInMs' in result)
      this.#rt.metrics.fetches.inc(result.attempted ? { outcome: 'retry', reason: 'retriable-failure' } : { outcome: 'deferred', reason: 'host-busy' });
    else this.#rt.metrics.fetches.inc({ outcome: result.outcome, reason: reasonClass(result.outcome, result.error) });
    if ('retryInMs' in result) {
      await whileUnavailable(() => requeueUrl(db, leased.id, this.owner, result.retryInMs, result.attempted), env.WINNOW_INFRA_RETRY_MS);
      if (!result.attempted) this.#hostWaits.set(leased.host, Date.now() + result.retryInMs);
      return;
    }
    this.#completions.push({ id: leased.id, outcome: result.outcome, error: result.error ?? null, pageId: result.pageId ?? null });
    if (this.#completions.length >= COMPLETION_BATCH) void this.#flushCompletions();
    else this.#completionTimer ??= setTimeout(() => void this.#flushCompletions(), COMPLETION_FLUSH_MS);
  }

  /**
   * Writes the completed URLs in one statement. Until it is written a URL stays leased (and its
   * lease renewed), so a crawl can never look finished while a completion waits here.
   */
  #flushCompletions(): Promise<void> {
    clearTimeout(this.#completionTimer);
    this.#completionTimer = undefined;
    const batch = this.#completions;
    this.#completions = [];
    this.#flushing = this.#flushing.then(async () => {
      if (batch.length === 0) return;
      await whileUnavailable(() => completeUrls(this.#rt.db, this.owner, batch), this.#rt.env.WINNOW_INFRA_RETRY_MS).catch((error: unknown) =>
        this.#rt.log.error({ err: error, urls: batch.length }, 'completed URLs could not be recorded; their leases will lapse'),
      );
    });
    return this.#flushing;
  }

  #admittedSet(crawlId: number): Set<string> {
    let set = this.#admitted.get(crawlId);
    if (!set || set.size > ADMITTED_MEMORY) {
      set = new Set();
      this.#admitted.set(crawlId, set);
    }
    return set;
  }

  #waitingHosts(): string[] {
    const now = Date.now();
    for (const [host, until] of this.#hostWaits) if (until <= now) this.#hostWaits.delete(host);
    return [...this.#hostWaits.keys()];
  }

  /**
   * A site's row, cached for `SITE_CACHE_MS` within one crawl: the first URL of a new crawl reads it
   * again, so that settings changed just before a crawl (a larger `maxPages`, wider globs) apply to
   * all of it, not only once the cache of a long-running crawler expires.
   */
  async #site(siteId: number, crawlId: number): Promise<Site | undefined> {
    const cached = this.#sites.get(siteId);
    if (cached && cached.crawlId === crawlId && cached.expires > Date.now()) return cached.site;
    const site = await findSiteById(this.#rt.db, siteId);
    this.#sites.set(siteId, { site, crawlId, expires: Date.now() + SITE_CACHE_MS });
    return site;
  }

  /** Starts queued crawls, and ends the open ones that have nothing left. */
  async #housekeeping(): Promise<void> {
    this.#lastHousekeeping = Date.now();
    while (await this.#startQueuedCrawl()) {}
    const open = await openCrawlIds(this.#rt.db);
    for (const crawlId of open) {
      await this.#admitRevisits(crawlId);
      const ended = await settleCrawl(this.#rt.db, crawlId);
      if (ended) await this.#onCrawlEnded(crawlId, ended);
    }
    for (const crawlId of this.#admitted.keys()) if (!open.includes(crawlId)) this.#admitted.delete(crawlId);
  }

  /**
   * Once nothing else of a running crawl is queued or in flight, admits every page its site has in
   * its index that no link of it reached (revisited, their links not followed), whatever the crawl's
   * `maxPages` (revisits count against no budget: `admitUrls`), once per crawl, whichever crawler
   * process comes first; the crawl cannot end before (`settleCrawl`). They are read and admitted
   * `REVISIT_BATCH` at a time, in the claiming transaction, so a large site's are never all in
   * memory at once.
   */
  async #admitRevisits(crawlId: number): Promise<void> {
    const { db } = this.#rt;
    await db.transaction(async (tx) => {
      const siteId = await claimRevisits(tx, crawlId);
      const site = siteId === undefined ? undefined : await findSiteById(tx, siteId);
      if (!site) return;
      for (let afterId = 0; ; ) {
        const unreached = await unreachedPages(tx, site.id, crawlId, afterId, REVISIT_BATCH);
        const urls = unreached.map((page) => page.url);
        await admitFound(tx, crawlId, site, { entries: revisitEntries(site.config, urls), refused: [] });
        if (unreached.length < REVISIT_BATCH) return;
        afterId = (unreached.at(-1) as { id: number }).id;
      }
    });
  }

  /**
   * Takes one queued crawl and admits what it starts from, in one transaction: its seeds and
   * sitemaps, whether it is the site's first crawl or a recrawl. A browser crawl without a Chromium fails at once, saying so.
   */
  async #startQueuedCrawl(): Promise<boolean> {
    const { db, env, log, metrics } = this.#rt;
    const started = await db.transaction(async (tx) => {
      const crawl = await startQueuedCrawl(tx);
      if (!crawl) return undefined;
      const site = await findSiteById(tx, crawl.siteId);
      if (!site) return { crawl };
      if (site.configProblem) {
        await failCrawl(
          tx,
          crawl.id,
          `site "${site.name}" has settings this version refuses (${site.configProblem}): fix them with \`winnow sites update\` or PATCH /sites/${site.name}`,
        );
        return { crawl, site };
      }
      if (site.config.render === 'browser' && !existsSync(env.WINNOW_CHROMIUM_PATH)) {
        await failCrawl(
          tx,
          crawl.id,
          `site "${site.name}" is rendered in a browser, but there is no Chromium at ${env.WINNOW_CHROMIUM_PATH}: install it (Debian: apt-get install chromium) or set WINNOW_CHROMIUM_PATH`,
        );
        return { crawl, site };
      }
      const entries = startingEntries(site.config, this.#context.trackingParams);
      await admitFound(tx, crawl.id, site, { entries, refused: [] });
      return { crawl, site, entries: entries.length };
    });
    if (started?.site) {
      const { crawl, site, entries } = started;
      metrics.crawlsStarted.inc({ site: site.name });
      if (entries !== undefined)
        log.info(
          { site: site.name, crawl: crawl.id, seeds: entries },
          `crawl ${crawl.id} of ${site.name} started from ${entries} URL${entries === 1 ? '' : 's'}`,
        );
    }
    return started !== undefined;
  }

  /**
   * A crawl ended here: its site's templates are brought up to date, and pages whose body has no
   * extraction are queued again (their jobs may have been lost with a Redis that kept nothing).
   */
  async #onCrawlEnded(crawlId: number, state: string): Promise<void> {
    const { db, queues } = this.#rt;
    const crawl = await findCrawl(db, crawlId);
    if (!crawl) return;
    await this.#logCrawlEnd(crawl);
    if (state === 'failed') return;
    await queues.add('template', { siteId: crawl.siteId, reason: 'crawl-finished' });
    const missing = await unextractedPages(db, crawl.siteId);
    const hashes = new Map(missing.map((page) => [page.pageId, page.contentHash]));
    await queues.addBulk(
      'extract',
      missing.map(({ pageId }) => ({ pageId })),
      ({ pageId }) => extractionJobId(pageId, hashes.get(pageId) as string),
    );
  }

  /**
   * One line per crawl that ended: the site by name, how it ended and after how long, and its
   * counts by outcome (what `winnow status` shows); a failed crawl's line is a warning with its
   * reason, and one with URLs not stored points to the crawl log that says why for each.
   */
  async #logCrawlEnd(crawl: Crawl): Promise<void> {
    const { db, log, metrics } = this.#rt;
    const site = (await findSiteById(db, crawl.siteId))?.name ?? `site ${crawl.siteId}`;
    metrics.crawlsEnded.inc({ site, state: crawl.state });
    const seconds = crawl.startedAt && crawl.finishedAt ? Math.round((crawl.finishedAt.getTime() - crawl.startedAt.getTime()) / 1000) : null;
    const { counts } = crawl;
    const said = Object.entries(counts)
      .filter(([name, count]) => count > 0 && name !== 'queued' && name !== 'inFlight')
      .map(([name, count]) => `${count} ${name}`);
    const unstored = counts.refused + counts.failed + counts.disallowed;
    const message = `crawl ${crawl.id} of ${site} ${crawl.state}${seconds === null ? '' : ` after ${seconds} s`}: ${said.join(', ') || 'no URLs'}${crawl.error ? ` (${crawl.error})` : ''}${unstored > 0 ? ` (why: winnow crawl-log ${site} --crawl ${crawl.id})` : ''}`;
    const fields = { site, crawl: crawl.id, state: crawl.state, seconds, counts };
    if (crawl.state === 'failed') log.warn({ ...fields, error: crawl.error }, message);
    else log.info(fields, message);
  }

  async #startScheduledCrawl(siteId: number): Promise<unknown> {
    if (!(await findSiteById(this.#rt.db, siteId))) return { skipped: `site ${siteId} no longer exists` };
    try {
      const crawl = await insertCrawl(this.#rt.db, siteId);
      return { crawl: crawl.id };
    } catch (error) {
      if (error instanceof CrawlActiveError) return { skipped: error.message };
      throw error;
    }
  }

  /** robots.txt is fetched like a page: through the host's politeness slot, however long that takes. */
  async #politeFetch(politeness: Politeness, url: string, pace: HostPace, allowPrivate: boolean) {
    const host = new URL(url).host;
    for (;;) {
      const slot = await politeness.acquire(host, pace, 60_000);
      if ('retryInMs' in slot) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(slot.retryInMs, 1000)));
        continue;
      }
      await slot.started();
      try {
        return await this.#fetcher.fetch({ url, allowPrivate, headers: { accept: 'text/plain,*/*;q=0.5' } });
      } finally {
        await slot.release();
      }
    }
  }

  /** Renders a page in this process's Chromium, launched on first use and closed once idle (`BROWSER_IDLE_MS`). */
  async #render(request: RenderRequest): Promise<RenderedPage> {
    clearTimeout(this.#browserIdle);
    this.#rendering++;
    try {
      this.#browser ??= BrowserRenderer.launch(this.#rt.env.WINNOW_CHROMIUM_PATH, this.#rt.env.WINNOW_BROWSER_PROXY, this.#rt.env.WINNOW_BROWSER_SETTLE_MS);
      return await (await this.#browser).render(request);
    } finally {
      if (--this.#rendering === 0 && !this.#closing) {
        this.#browserIdle = setTimeout(() => void this.#closeBrowser(), this.#browserIdleMs);
        this.#browserIdle.unref();
      }
    }
  }

  /** Closes Chromium, if it runs; a launch that failed is forgotten, so the next page tries again. */
  async #closeBrowser(): Promise<void> {
    clearTimeout(this.#browserIdle);
    const browser = this.#browser;
    this.#browser = undefined;
    const renderer = await browser?.catch(() => undefined);
    await renderer?.close().catch(() => undefined);
  }

  async #renew(): Promise<void> {
    if (this.#active.size === 0) return;
    await renewLeases(this.#rt.db, this.owner, this.#leaseMs).catch((error: unknown) => this.#rt.log.warn({ err: error }, 'could not renew leases'));
  }
}

/**
 * Starts a crawler process's work; `close()` lets it finish what it holds. The sites' schedules are
 * the reconciler's to register again (`startReconciler`, beside every crawler), from Postgres.
 */
export function startCrawler(rt: Runtime, options: CrawlerOptions = {}): Service {
  return new Crawler(rt, options);
}
