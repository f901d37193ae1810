import { availableParallelism } from 'node:os';
import { SINGLE_PAGE_METHOD_NAMES, TEMPLATE_METHOD_NAMES } from '@winnow/extract/names';
import { z } from 'zod';
import { API_URL_PROTOCOLS, type Checked, ConfigError, checkApiTokens, checkUrl, splitList } from './apiEnv.js';

export { type ApiToken, ConfigError, MIN_TOKEN_LENGTH, type TokenScope } from './apiEnv.js';

/** A plain check of `apiEnv.ts` as a schema field: its problems become the schema's issues, at their paths. */
const checked = <Value>(check: (text: string | undefined) => Checked<Value>) =>
  z
    .string()
    .optional()
    .transform((text, context) => {
      const { value, problems } = check(text);
      for (const problem of problems) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
      return value;
    });

const url = (protocols: readonly string[]) => checked((text) => checkUrl(text, protocols));

/** A comma-separated list; unset or empty is an empty list. */
const list = z
  .string()
  .optional()
  .transform((text) => splitList(text));

/** Unset and empty are the same thing for an environment variable. */
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());

/** A whole number in a range. Zod gives every issue of the schema this one message, so it states the whole rule. */
const integer = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? fallback : Number(value)),
    z
      .number({ error: `expected a whole number from ${min} to ${max}` })
      .int()
      .min(min)
      .max(max),
  );

/** A whole number in a range, or nothing when unset or empty (a feature that is off until configured). */
const optionalInteger = (min: number, max: number) =>
  z.preprocess(
    (value) => (value === '' || value === undefined ? undefined : Number(value)),
    z
      .number({ error: `expected a whole number from ${min} to ${max}` })
      .int()
      .min(min)
      .max(max)
      .optional(),
  );

/** An extraction method's name, checked with the rest of the environment: a wrong one fails at start, before any port is bound. */
const methodName = (kind: string, names: readonly string[], fallback: string) =>
  optionalText
    .transform((value) => value ?? fallback)
    .refine((name) => names.includes(name), {
      error: (issue) => `unknown ${kind} method "${issue.input}"; expected one of: ${names.join(', ')}`,
    });

/** Names Winnow and where a site owner reads what it is and how to reach its operators. */
export const DEFAULT_USER_AGENT = 'WinnowBot/0.1 (+https://github.com/winnow-search/winnow#for-site-owners)';

/**
 * Every environment variable Winnow reads, in one place. An unset service URL selects the embedded
 * default: no `DATABASE_URL` → PGlite in `WINNOW_DATA_DIR`; no `REDIS_URL` → a private
 * `redis-server` child; no `ELASTICSEARCH_URL` → the Postgres full-text index.
 */
export const ENV_SCHEMA = z.object({
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  REDIS_URL: url(['redis:', 'rediss:']),
  ELASTICSEARCH_URL: url(['http:', 'https:']),
  /** Where the embedded PGlite database lives; `memory` keeps it in memory (gone on exit). */
  WINNOW_DATA_DIR: optionalText.transform((value) => value ?? '.winnow/pglite'),
  WINNOW_API_HOST: optionalText.transform((value) => value ?? '127.0.0.1'),
  WINNOW_API_PORT: integer(8080, 0, 65535),
  /**
   * Bearer tokens of the HTTP API, `scope:token` comma-separated (`search:…` for the search engine,
   * `metrics:…` for a Prometheus scraper, `operate:…` for operators; a token without a scope is an `operate` token). With none, only a
   * loopback `WINNOW_API_HOST` is allowed. The CLI sends one of them when it talks to an API.
   */
  WINNOW_API_TOKEN: checked(checkApiTokens),
  /** `Host` header values the API accepts besides its own address and loopback names (DNS-rebinding guard). */
  WINNOW_API_ALLOWED_HOSTS: list,
  /** The API the CLI's operator commands talk to instead of opening the database itself, e.g. `http://10.0.0.5:8080`. */
  WINNOW_API_URL: url(API_URL_PROTOCOLS),
  /** The User-Agent of every request the crawler makes; robots.txt groups are matched against its first word. */
  WINNOW_USER_AGENT: optionalText.transform((value) => value ?? DEFAULT_USER_AGENT),
  /**
   * The proxy the crawler's Chromium is launched with, for what it would fetch itself rather than
   * through the crawler. Chromium resolves no host and connects to no address (`launchChromium`),
   * this proxy included, so nothing reaches it: tests set one that forwards to loopback, to see
   * that nothing would leak. Every request of a page is fetched by the crawler itself.
   */
  WINNOW_BROWSER_PROXY: url(['http:', 'https:', 'socks5:']),
  /** The Chromium that crawls of JavaScript-rendered sites drive (Debian: apt-get install chromium). */
  WINNOW_CHROMIUM_PATH: optionalText.transform((value) => value ?? '/usr/bin/chromium'),
  /**
   * How long a rendered page may go on fetching after `load` before it is stored (its scripts'
   * requests, each through the crawler); it is stored as soon as it has fetched nothing for half a
   * second. A site whose scripts fill the page slowly needs more.
   */
  WINNOW_BROWSER_SETTLE_MS: integer(2000, 0, 60_000),
  /**
   * What servers and workers log (to stderr, one JSON object a line): at `info`, each crawl's start
   * and end with its counts, each template version stored, drift, and every `WINNOW_LOG_INTERVAL_MS`
   * what each worker did; `warn` keeps only what needs an operator. One-shot commands default to `warn`.
   */
  WINNOW_LOG_LEVEL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** How often a worker logs one line of what it did since the last (pages fetched by outcome, extracted by verdict, indexed); quiet intervals log nothing. */
  WINNOW_LOG_INTERVAL_MS: integer(60_000, 1000, 3_600_000),
  /**
   * A worker process's own HTTP port: `GET /health` while it runs, `GET /ready` while the database,
   * Redis and the search index answer (container health checks, Kubernetes probes), and `GET
   * /metrics` (Prometheus text format). Unset: none. The API answers all three on its own port, and
   * `winnow up` serves every worker's metrics there.
   */
  WINNOW_WORKER_PORT: optionalInteger(0, 65535),
  /** The address the worker's port listens on: loopback unless probes or Prometheus come from outside the container (Kubernetes: `0.0.0.0`). */
  WINNOW_WORKER_HOST: optionalText.transform((value) => value ?? '127.0.0.1'),
  /**
   * Prefix of every BullMQ key, so that several deployments can share one Redis. On a Redis
   * Cluster it must hold a `{…}` hash tag (unset: `{winnow}`): BullMQ's scripts touch several keys
   * of a queue at once, which a cluster allows only within one hash slot.
   */
  WINNOW_QUEUE_PREFIX: optionalText,
  /**
   * `cluster`: `REDIS_URL` names one node of a Redis Cluster, and the client finds the others
   * (docs/capacity.md). `single` (the default): one Redis server.
   */
  WINNOW_REDIS_MODE: z.preprocess((value) => (value === '' ? undefined : value), z.enum(['single', 'cluster']).default('single')),
  WINNOW_EXTRACT_CONCURRENCY: integer(2, 1, 64),
  /**
   * Worker threads that extract pages and prepare templates off the event loop (0: on it). One less
   * than the machine's cores by default, at least one: the event loop keeps a core for crawling,
   * queueing and the database.
   */
  WINNOW_CPU_THREADS: integer(Math.max(1, availableParallelism() - 1), 0, 256),
  /**
   * The template method the templater prepares and the extractor runs: `pipeline` (a template per
   * layout, checked page by page against the reader) or any other template method's name.
   */
  WINNOW_TEMPLATE_METHOD: methodName('template', TEMPLATE_METHOD_NAMES, 'pipeline'),
  /**
   * The single-page method for pages without a template of their page type: `reader` (about 2
   * ms/page, Readability's quality), `auto` (Readability on jsdom, about 50 ms/page and a large
   * heap), or any other single-page method's name.
   */
  WINNOW_FALLBACK_METHOD: methodName('single-page', SINGLE_PAGE_METHOD_NAMES, 'reader'),
  WINNOW_INDEX_BATCH_SIZE: integer(200, 1, 10_000),
  WINNOW_INDEX_FLUSH_MS: integer(250, 0, 60_000),
  /** The Elasticsearch alias every read and write goes through. */
  WINNOW_ES_ALIAS: optionalText.transform((value) => value ?? 'winnow-pages'),
  /** Replicas of the Elasticsearch index: 0 for a single node, where a replica can never be placed. */
  WINNOW_ES_REPLICAS: integer(0, 0, 10),
  /** Primary shards of a new Elasticsearch index: a cluster spreads them over its nodes (docs/capacity.md sizes them). */
  WINNOW_ES_SHARDS: integer(1, 1, 1024),
  /** How long the indexer retries writes Elasticsearch refused with 429 or lost with the connection. */
  WINNOW_INDEX_RETRY_MS: integer(300_000, 0, 3_600_000),
  /**
   * The S3 bucket that keeps fetched pages as WARC files (docs/object-store.md); unset: bodies stay
   * in Postgres (`raw_pages`), the embedded default. Credentials: `WINNOW_S3_ACCESS_KEY_ID` and
   * `WINNOW_S3_SECRET_ACCESS_KEY`, else the AWS SDK's own chain (`AWS_ACCESS_KEY_ID`, profiles,
   * instance roles). The bucket is created if it does not exist.
   */
  WINNOW_S3_BUCKET: optionalText,
  /** An S3-compatible server (MinIO, S3Proxy, Ceph…), addressed path-style; unset: AWS S3 of `WINNOW_S3_REGION`. */
  WINNOW_S3_ENDPOINT: url(['http:', 'https:']),
  WINNOW_S3_REGION: optionalText.transform((value) => value ?? 'us-east-1'),
  WINNOW_S3_ACCESS_KEY_ID: optionalText,
  WINNOW_S3_SECRET_ACCESS_KEY: optionalText,
  /** Prefix of every object key Winnow writes (its WARC files are `<prefix><sha256>.warc.gz`). */
  WINNOW_S3_PREFIX: optionalText.transform((value) => value ?? 'warc/'),
  /**
   * The largest WARC file written, in bytes (compressed): a file takes records until the next would
   * pass this (a single larger record gets a file of its own). The archiver builds a file in memory.
   */
  WINNOW_WARC_FILE_BYTES: integer(64 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
  /**
   * The longest a fetch waits in Postgres for its WARC file when files do not fill: its records are
   * then written in a smaller file. Until uploaded, a body stays in Postgres.
   */
  WINNOW_WARC_FLUSH_MS: integer(60_000, 0, 24 * 3_600_000),
  /** A fetched body larger than this (counted after decompression, while it downloads) is refused and never extracted. */
  WINNOW_MAX_PAGE_BYTES: integer(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  /** Time for one response, from connecting to its last byte. */
  WINNOW_FETCH_TIMEOUT_MS: integer(30_000, 100, 600_000),
  /** Requests one crawler process has in flight at once, over every host (each host has its own limit: the site's `concurrency`). */
  WINNOW_CRAWL_CONCURRENCY: integer(16, 1, 1024),
  /** The longest robots.txt `Crawl-delay` honoured, in milliseconds: a longer one is capped to it (as Nutch does). */
  WINNOW_MAX_CRAWL_DELAY_MS: integer(30_000, 0, 3_600_000),
  /** How long a crawl trusts the robots.txt it fetched before fetching it again (a new crawl always fetches its own). */
  WINNOW_ROBOTS_TTL_MS: integer(3_600_000, 1000, 7 * 24 * 3_600_000),
  /** Query parameters removed from every URL (`utm_*` is a prefix); unset: the built-in list of tracking parameters. */
  WINNOW_TRACKING_PARAMS: list,
  /**
   * How long a worker keeps retrying when Postgres or Redis cannot be reached, before it gives the work up;
   * also how long any process (a one-shot command too) waits at start for the Redis of `REDIS_URL`.
   */
  WINNOW_INFRA_RETRY_MS: integer(300_000, 0, 3_600_000),
  /**
   * How often the reconciler compares stored pages, extractions and search documents and queues what
   * is missing or stale (docs/reliability.md); it also runs when a worker starts.
   */
  WINNOW_RECONCILE_EVERY_MS: integer(300_000, 1000, 86_400_000),
  /** Jobs one reconciler run queues at most, per kind of finding: a large loss is made good over several runs. */
  WINNOW_RECONCILE_LIMIT: integer(10_000, 1, 1_000_000),
  /** Attempts per job before it is kept as failed; retries back off exponentially. */
  WINNOW_JOB_ATTEMPTS: integer(4, 1, 50),
  WINNOW_JOB_BACKOFF_MS: integer(1000, 0, 600_000),
  /**
   * How long a worker's hold on a job lasts without renewal. A worker that dies (kill -9) loses
   * its jobs to another worker after at most about this long.
   */
  WINNOW_JOB_LOCK_MS: integer(30_000, 1000, 600_000),
});

export type Env = Omit<z.infer<typeof ENV_SCHEMA>, 'WINNOW_QUEUE_PREFIX'> & { WINNOW_QUEUE_PREFIX: string };

/** The part of a key Redis Cluster hashes: the first `{…}` with something inside. */
const HASH_TAG = /\{[^{}]+\}/;

/** Parses the variables the schema names from `source`; every problem is named in one `ConfigError`. */
function parseEnv(source: NodeJS.ProcessEnv): z.infer<typeof ENV_SCHEMA> {
  const picked = Object.fromEntries(Object.keys(ENV_SCHEMA.shape).map((name) => [name, source[name]]));
  const parsed = ENV_SCHEMA.safeParse(picked);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The names of every environment variable the configuration schema knows. */
export const ENV_NAMES: readonly string[] = Object.keys(ENV_SCHEMA.shape);

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const env = parseEnv(source);
  const cluster = env.WINNOW_REDIS_MODE === 'cluster';
  const prefix = env.WINNOW_QUEUE_PREFIX ?? (cluster ? '{winnow}' : 'winnow');
  const problems = [
    ...(cluster && !env.REDIS_URL ? ['REDIS_URL: WINNOW_REDIS_MODE=cluster needs the URL of one node of the Redis Cluster'] : []),
    ...(cluster && !HASH_TAG.test(prefix)
      ? [`WINNOW_QUEUE_PREFIX: on a Redis Cluster it must hold a {…} hash tag, such as {${prefix}}, so that each queue's keys share one hash slot`]
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return { ...env, WINNOW_QUEUE_PREFIX: prefix };
}
