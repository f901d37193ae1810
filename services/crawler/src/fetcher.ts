import { lookup as systemLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIPv6 } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Writable, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { refusedAddress, refusedHost } from '@winnow/config';
import { Agent, request } from 'undici';

/** Resolves a host name to its IP addresses (the system resolver by default; tests give their own). */
export type Resolve = (hostname: string) => Promise<string[]>;

export interface FetcherOptions {
  userAgent: string;
  /** Largest body taken, counted after decompression, while it downloads. */
  maxBytes: number;
  /** Time for one response, connection to last byte. */
  timeoutMs: number;
  resolve?: Resolve;
}

export interface FetchRequest {
  url: string;
  /** The site allows loopback and private addresses (`allowPrivateAddresses`). */
  allowPrivate: boolean;
  /** Extra request headers: conditional ones (`if-none-match`, `if-modified-since`) and `accept`. */
  headers?: Record<string, string>;
}

/** One HTTP response, never a followed redirect: a 3xx comes back with its `location`. */
export interface FetchedResponse {
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The decompressed body; empty for 1xx, 204, 3xx and 304 answers. */
  body: Buffer;
  /** The request headers sent (lower-case names), for the fetch's WARC request record; absent for a page rendered in Chromium. */
  requestHeaders?: Record<string, string>;
}

export type FetchErrorCode = 'refused' | 'unreachable' | 'timeout' | 'too-large' | 'bad-response';

/** Why a URL could not be fetched, in words an operator reads ("connection refused", not a stack). */
export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    /** A later attempt may succeed (a timeout, a reset connection); a refusal or a bad URL never will. */
    readonly retriable = false,
  ) {
    super(message);
  }
}

const BODYLESS_STATUS = (status: number) => status < 200 || status === 204 || status === 304 || (status >= 300 && status < 400);

/**
 * The crawler's one way to the network. Every request passes the network policy: the host name is
 * resolved once, every address it resolves to is judged (`refusedAddress`: loopback, private,
 * link-local, CGNAT, multicast and cloud-metadata addresses are refused unless the site allows
 * private addresses, and metadata always), and the connection goes to an address that was judged —
 * so a DNS answer that changes between the check and the connection (rebinding) cannot slip
 * through. IP-literal hosts are judged before any connection. Redirects are never followed here:
 * the caller judges each target as a new URL. The body is cut off past `maxBytes` as it arrives,
 * then every content coding is undone, each layer's output also cut off past `maxBytes` (a gzip
 * bomb costs at most that much memory); a coding the crawler cannot undo is refused by name. The
 * whole response must arrive within `timeoutMs`.
 */
export class Fetcher {
  readonly #options: FetcherOptions;
  readonly #agents = new Map<boolean, Agent>();

  constructor(options: FetcherOptions) {
    this.#options = options;
  }

  get userAgent(): string {
    return this.#options.userAgent;
  }

  async fetch(target: FetchRequest): Promise<FetchedResponse> {
    const url = new URL(target.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('refused', `refused: ${url.protocol} URLs are not fetched`);
    if (url.username || url.password) throw new FetchError('refused', 'refused: URLs with credentials are not fetched');
    const refused = refusedHost(url.hostname, target.allowPrivate);
    if (refused) throw new FetchError('refused', `refused: ${refused}`);
    const { timeoutMs } = this.#options;
    const signal = AbortSignal.timeout(timeoutMs);
    const requestHeaders = { 'user-agent': this.#options.userAgent, 'accept-encoding': 'gzip, deflate, br', ...target.headers };
    try {
      const response = await request(url, {
        dispatcher: this.#agent(target.allowPrivate),
        method: 'GET',
        headers: requestHeaders,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const headers = flatHeaders(response.headers);
      if (BODYLESS_STATUS(response.statusCode)) {
        await response.body.dump();
        return { url: url.href, status: response.statusCode, headers, body: Buffer.alloc(0), requestHeaders };
      }
      const codings = contentCodings(headers['content-encoding']);
      const unsupported = codings.find((coding) => !DECODERS.has(coding));
      if (unsupported !== undefined) {
        await response.body.dump();
        throw new FetchError('bad-response', `unsupported content-encoding ${unsupported}`);
      }
      const body = await this.#readBody(response.body, codings);
      return { url: url.href, status: response.statusCode, headers, body, requestHeaders };
    } catch (error) {
      throw asFetchError(error, timeoutMs);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#agents.values()].map((agent) => agent.close()));
    this.#agents.clear();
  }

  /** One connection pool per policy, its DNS lookup judging every address before connecting. */
  #agent(allowPrivate: boolean): Agent {
    let agent = this.#agents.get(allowPrivate);
    if (!agent) {
      agent = new Agent({ connect: { lookup: judgedLookup(this.#options.resolve ?? resolveWithSystem, allowPrivate) }, connections: 64 });
      this.#agents.set(allowPrivate, agent);
    }
    return agent;
  }

  async #readBody(body: Readable, codings: readonly string[]): Promise<Buffer> {
    const { maxBytes } = this.#options;
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = new Writable({
      write(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(tooLarge(maxBytes));
        chunks.push(chunk);
        done();
      },
    });
    await pipeline(body, collect);
    let decoded: Buffer = Buffer.concat(chunks, size);
    // The last coding applied is the first undone.
    for (const coding of [...codings].reverse()) decoded = await (DECODERS.get(coding) as Decoder)(decoded, maxBytes);
    return decoded;
  }
}

function tooLarge(maxBytes: number): FetchError {
  return new FetchError('too-large', `body larger than the limit of ${maxBytes} bytes`);
}

/**
 * The codings of a `Content-Encoding` header, in the order they were applied (RFC 9110 §8.4: a
 * comma-separated list, case-insensitive), without `identity`, which changes nothing.
 */
function contentCodings(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

type Decoder = (body: Buffer, maxBytes: number) => Promise<Buffer>;

/** Undoes one coding, in the thread pool, stopping past `maxBytes` of output (a decompression bomb). */
function capped(decode: (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>): Decoder {
  return async (body, maxBytes) => {
    try {
      return await decode(body, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes);
      throw error;
    }
  };
}

const gunzipCapped = capped(promisify(gunzip));
const inflateCapped = capped(promisify(inflate));
const inflateRawCapped = capped(promisify(inflateRaw));

/**
 * The content codings the crawler undoes (those it asks for in `accept-encoding`). `deflate` is
 * zlib-wrapped by the standard, but some servers send raw deflate under that name and browsers
 * read it: so does the crawler, when the zlib header is missing.
 */
const DECODERS: ReadonlyMap<string, Decoder> = new Map([
  ['gzip', gunzipCapped],
  ['x-gzip', gunzipCapped],
  ['br', capped(promisify(brotliDecompress))],
  [
    'deflate',
    async (body: Buffer, maxBytes: number) => {
      try {
        return await inflateCapped(body, maxBytes);
      } catch (error) {
        if ((error as { code?: string }).code !== 'Z_DATA_ERROR') throw error;
        // Not zlib-wrapped: read as raw deflate; if that fails too, the zlib error says why.
        return inflateRawCapped(body, maxBytes).catch((rawError: unknown) => Promise.reject(rawError instanceof FetchError ? rawError : error));
      }
    },
  ],
]);

async function resolveWithSystem(hostname: string): Promise<string[]> {
  const addresses = await systemLookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => entry.address);
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `net.connect` lookup that resolves once and hands over only addresses the policy allows. */
function judgedLookup(resolve: Resolve, allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((address) => refusedAddress(address, allowPrivate) === null);
        if (allowed.length === 0) {
          const why = addresses.length === 0 ? `${hostname} has no address` : (refusedAddress(addresses[0] as string, allowPrivate) as string);
          callback(new FetchError('refused', `refused: ${hostname} resolves to an address the crawler may not reach: ${why}`), []);
          return;
        }
        const entries = allowed.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
        if (options.all) callback(null, entries);
        else callback(null, entries[0]?.address as string, entries[0]?.family);
      },
      (error: unknown) => callback(error as Error, []),
    );
  };
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

const NETWORK_ERRORS: Record<string, [string, boolean]> = {
  ECONNREFUSED: ['connection refused', false],
  ENOTFOUND: ['host not found', false],
  EAI_AGAIN: ['host name lookup failed (temporary)', true],
  ECONNRESET: ['connection reset', true],
  EPIPE: ['connection closed while sending', true],
  EHOSTUNREACH: ['host unreachable', true],
  ENETUNREACH: ['network unreachable', true],
  UND_ERR_SOCKET: ['connection closed before the response ended', true],
  UND_ERR_CONNECT_TIMEOUT: ['timed out connecting', true],
  UND_ERR_HEADERS_TIMEOUT: ['timed out waiting for the response', true],
  UND_ERR_BODY_TIMEOUT: ['timed out reading the body', true],
  HPE_INVALID_CONSTANT: ['not a valid HTTP response', false],
};

/** Turns what undici, the socket or the decoder threw into a `FetchError` with a readable reason. */
function asFetchError(error: unknown, timeoutMs: number): FetchError {
  if (error instanceof FetchError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof FetchError) return cause;
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  if (name === 'TimeoutError' || name === 'AbortError') return new FetchError('timeout', `no complete response within ${timeoutMs / 1000} s`, true);
  const known = code ? NETWORK_ERRORS[code] : undefined;
  if (known) return new FetchError(code?.includes('TIMEOUT') ? 'timeout' : 'unreachable', known[0], known[1]);
  if (code?.startsWith('Z_') || code === 'ERR_PADDING_1' || /incorrect header check|unexpected end of file/i.test(message ?? '')) {
    return new FetchError('bad-response', `the body could not be decompressed: ${message}`);
  }
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return new FetchError('unreachable', `TLS: ${message}`);
  if (code?.startsWith('HPE_') || code?.startsWith('UND_ERR')) return new FetchError('bad-response', `bad HTTP response: ${message}`, true);
  return new FetchError('unreachable', message ?? String(error), true);
}
