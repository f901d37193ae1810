import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Env } from '@winnow/config';
// The configuration's error alone: the runtime checks these settings before the database opens.
import { ConfigError } from '@winnow/config/apiEnv';
import pRetry from 'p-retry';

/** Socket errors that mean the store is not there right now. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ECONNABORTED',
  'ENETUNREACH',
]);

/**
 * The object store cannot be reached or answers that it cannot serve now (a refused or reset
 * connection, a timeout, a 5xx or 429): an infrastructure outage, like Postgres or Redis being
 * down, worth waiting out. `unavailable` says so to whoever retries (the runtime's `isUnavailable`).
 */
export class ObjectStoreUnavailableError extends Error {
  override readonly name = 'ObjectStoreUnavailableError';
  readonly unavailable = true;
}

/** True when an S3 client error means the store is unreachable or overloaded, not that the request is wrong. */
export function isStoreOutage(error: unknown): boolean {
  if (error instanceof ObjectStoreUnavailableError) return true;
  const { code, name, $metadata, cause } = (error ?? {}) as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number }; cause?: unknown };
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  if (name === 'TimeoutError' || name === 'RequestTimeout' || name === 'AbortError') return true;
  const status = $metadata?.httpStatusCode;
  if (status !== undefined && (status >= 500 || status === 429)) return true;
  if (error instanceof AggregateError) return error.errors.some(isStoreOutage);
  return cause !== undefined && cause !== error && isStoreOutage(cause);
}

export interface ObjectStoreOptions {
  bucket: string;
  /** An S3-compatible server, addressed path-style; unset: AWS S3 of `region`. */
  endpoint?: string | undefined;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** How long a read keeps retrying while the store is unreachable. */
  retryForMs: number;
}

/** The object store of this configuration; undefined when `WINNOW_S3_BUCKET` is unset (bodies stay in Postgres). */
export function objectStoreOptions(env: Env): ObjectStoreOptions | undefined {
  const bucket = env.WINNOW_S3_BUCKET;
  if (!bucket) {
    const stray = (['WINNOW_S3_ENDPOINT', 'WINNOW_S3_ACCESS_KEY_ID', 'WINNOW_S3_SECRET_ACCESS_KEY'] as const).filter((name) => env[name] !== undefined);
    if (stray.length > 0) throw new ConfigError(`invalid configuration: ${stray.join(', ')} set without WINNOW_S3_BUCKET (the bucket that keeps WARC files)`);
    return undefined;
  }
  const accessKeyId = env.WINNOW_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.WINNOW_S3_SECRET_ACCESS_KEY;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      'invalid configuration: WINNOW_S3_ACCESS_KEY_ID and WINNOW_S3_SECRET_ACCESS_KEY go together (or neither: the AWS SDK finds credentials itself)',
    );
  }
  return {
    bucket,
    endpoint: env.WINNOW_S3_ENDPOINT,
    region: env.WINNOW_S3_REGION,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    retryForMs: env.WINNOW_INFRA_RETRY_MS,
  };
}

/**
 * One bucket of an S3-compatible store (`@aws-sdk/client-s3`): whole objects written once, byte
 * ranges read. Failures that mean the store is unreachable become `ObjectStoreUnavailableError`;
 * reads wait them out for `retryForMs` (250 ms up to 5 s apart), so a reader of a body rides out
 * a short outage as it would Postgres'. Writes are the archiver's, which retries on its own
 * schedule. The SDK's default checksums are asked for only where an operation requires them
 * (servers other than AWS often refuse the newer ones); uploads carry Content-MD5 instead.
 */
export class ObjectStore {
  readonly bucket: string;
  /**
   * The SDK and its client, loaded when a store is made: `@aws-sdk/client-s3` costs a process that
   * keeps its bodies in Postgres (the default) a quarter of a second at every start.
   */
  readonly #sdk: Promise<{ s3: typeof import('@aws-sdk/client-s3'); client: S3Client }>;
  readonly #retryForMs: number;
  readonly #where: string;
  #bucketReady: Promise<void> | undefined;

  constructor(options: ObjectStoreOptions) {
    this.bucket = options.bucket;
    this.#retryForMs = options.retryForMs;
    this.#where = `the object store ${options.endpoint ?? `AWS S3 (${options.region})`}, bucket ${options.bucket}`;
    this.#sdk = import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: options.region,
        ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: 5000, requestTimeout: 120_000 },
        maxAttempts: 2,
      }),
    }));
  }

  /** Writes `body` under `key` (replacing nothing: keys name their content). */
  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.#ensureBucket();
    const md5 = createHash('md5').update(body).digest('base64');
    const { s3, client } = await this.#sdk;
    await this.#send(() => client.send(new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentMD5: md5 })));
  }

  /** Bytes [offset, offset + length) of an object, retried while the store is unreachable. */
  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    return pRetry(
      async () => {
        const { s3, client } = await this.#sdk;
        const bytes = await this.#send(async () => {
          const answer = await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${offset}-${offset + length - 1}` }));
          return Buffer.from((await answer.Body?.transformToByteArray()) ?? new Uint8Array());
        });
        if (bytes.length !== length) throw new Error(`${this.#where}: ${key} bytes ${offset}+${length} came back as ${bytes.length} bytes`);
        return bytes;
      },
      {
        retries: Number.POSITIVE_INFINITY,
        minTimeout: 250,
        maxTimeout: 5000,
        maxRetryTime: this.#retryForMs,
        shouldRetry: ({ error }) => isStoreOutage(error),
      },
    );
  }

  close(): void {
    void this.#sdk.then(({ client }) => client.destroy());
  }

  /** The bucket, created if it does not exist: once per process, again after a failure. */
  #ensureBucket(): Promise<void> {
    this.#bucketReady ??= this.#send(async () => {
      const { s3, client } = await this.#sdk;
      try {
        await client.send(new s3.HeadBucketCommand({ Bucket: this.bucket }));
      } catch (error) {
        if (!(error instanceof s3.S3ServiceException) || error.$metadata.httpStatusCode !== 404) throw error;
        await client.send(new s3.CreateBucketCommand({ Bucket: this.bucket })).catch((failure: unknown) => {
          // Another process created it meanwhile.
          if ((failure as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw failure;
        });
      }
    }).catch((error: unknown) => {
      this.#bucketReady = undefined;
      throw error;
    });
    return this.#bucketReady;
  }

  /** Runs one request; an outage comes out as `ObjectStoreUnavailableError` naming the store. */
  async #send<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isStoreOutage(error)) throw new ObjectStoreUnavailableError(`${this.#where} cannot be reached: ${reasonOf(error)}`, { cause: error });
      throw error;
    }
  }
}

function reasonOf(error: unknown): string {
  const { code, name, message, $metadata } = (error ?? {}) as { code?: string; name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  return [code ?? name, status ? `HTTP ${status}` : undefined, message].filter(Boolean).join(': ') || String(error);
}
