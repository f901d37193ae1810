import { z } from 'zod';

/** Unset and empty are the same thing for an environment variable. */
const optionalText = z.preprocess((value) => (value === '' ? undefined : value), z.string().optional());

const url = (protocols: readonly string[]) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .refine((text) => URL.canParse(text) && protocols.includes(new URL(text).protocol), { message: `must be a URL (${protocols.join(' or ')})` })
      .optional(),
  );

const integer = (fallback: number, min: number, max: number) =>
  z.preprocess((value) => (value === '' || value === undefined ? fallback : Number(value)), z.number().int().min(min).max(max));

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
  /** The Chromium that crawls of JavaScript-rendered sites drive (Debian: apt-get install chromium). */
  WINNOW_CHROMIUM_PATH: optionalText.transform((value) => value ?? '/usr/bin/chromium'),
  WINNOW_LOG_LEVEL: z.preprocess((value) => (value === '' ? undefined : value), z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  /** Prefix of every BullMQ key, so that several deployments can share one Redis. */
  WINNOW_QUEUE_PREFIX: optionalText.transform((value) => value ?? 'winnow'),
  WINNOW_EXTRACT_CONCURRENCY: integer(2, 1, 64),
  /**
   * The single-page method for pages without a fitting template: `auto` (the strongest, about
   * 100 ms/page) or `mainblock` (about 4 ms/page), or any other single-page method's name.
   */
  WINNOW_FALLBACK_METHOD: optionalText.transform((value) => value ?? 'auto'),
  WINNOW_INDEX_BATCH_SIZE: integer(200, 1, 10_000),
  WINNOW_INDEX_FLUSH_MS: integer(250, 0, 60_000),
  /** The Elasticsearch alias every read and write goes through. */
  WINNOW_ES_ALIAS: optionalText.transform((value) => value ?? 'winnow-pages'),
  /** Replicas of the Elasticsearch index: 0 for a single node, where a replica can never be placed. */
  WINNOW_ES_REPLICAS: integer(0, 0, 10),
  /** How long the indexer retries writes Elasticsearch refused with 429 or lost with the connection. */
  WINNOW_INDEX_RETRY_MS: integer(300_000, 0, 3_600_000),
  /** A fetched body larger than this is recorded as failed and never extracted. */
  WINNOW_MAX_PAGE_BYTES: integer(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  /** Attempts per job before it is kept as failed; retries back off exponentially. */
  WINNOW_JOB_ATTEMPTS: integer(4, 1, 50),
  WINNOW_JOB_BACKOFF_MS: integer(1000, 0, 600_000),
  /**
   * How long a worker's hold on a job lasts without renewal. A worker that dies (kill -9) loses
   * its jobs to another worker after at most about this long.
   */
  WINNOW_JOB_LOCK_MS: integer(30_000, 1000, 600_000),
});

export type Env = z.infer<typeof ENV_SCHEMA>;

/** The names of every environment variable the configuration schema knows. */
export const ENV_NAMES: readonly string[] = Object.keys(ENV_SCHEMA.shape);

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the environment; names every bad variable in one error. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const picked = Object.fromEntries(ENV_NAMES.map((name) => [name, source[name]]));
  const parsed = ENV_SCHEMA.safeParse(picked);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
