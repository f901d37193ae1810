import { type ErrorCode, WinnowError } from '@winnow/config';
import { isUnavailable, type Readiness } from '@winnow/runtime';

/**
 * How errors become HTTP answers, in one place. Every error the API answers, whoever found it (an
 * operation, the API's own checks, the router, Node's HTTP parser), has one shape, `ApiErrorBody`:
 * a message a person can act on and a typed `code` a program can branch on. Each code has exactly
 * one status, in `STATUS_BY_CODE`, which the compiler holds to every code.
 */

/** Why the API refuses a request before any operation runs. */
export type Refusal =
  | 'token-missing'
  | 'token-unknown'
  | 'no-token-configured'
  | 'scope-insufficient'
  | 'host-foreign'
  | 'body-not-json'
  | 'body-malformed'
  | 'body-forbidden-key';

/** What the router and the HTTP layer refuse, and what goes wrong on the server's side. */
type TransportCode =
  | 'route-unknown'
  | 'method-not-allowed'
  | 'url-malformed'
  | 'param-too-long'
  | 'body-too-large'
  | 'headers-too-large'
  | 'request-timeout'
  | 'request-malformed'
  | 'not-ready'
  | 'unavailable'
  | 'internal';

/** Every `code` an error answer can carry: the operations' (`WinnowError`), the API's refusals, the transport's. */
export type ApiErrorCode = ErrorCode | Refusal | TransportCode;

/** The one error shape: `{"error": "no site named \"news\"", "code": "not-found"}`. */
export interface ApiErrorBody {
  error: string;
  code: ApiErrorCode;
}

export const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  'invalid-input': 400,
  'not-found': 404,
  conflict: 409,
  'token-missing': 401,
  'token-unknown': 401,
  'no-token-configured': 401,
  'scope-insufficient': 403,
  /** 421 Misdirected Request: this server does not answer for that authority (a DNS-rebinding page's). */
  'host-foreign': 421,
  'body-not-json': 415,
  'body-malformed': 400,
  'body-forbidden-key': 400,
  'route-unknown': 404,
  'method-not-allowed': 405,
  'url-malformed': 400,
  'param-too-long': 414,
  'body-too-large': 413,
  'headers-too-large': 431,
  'request-timeout': 408,
  'request-malformed': 400,
  'not-ready': 503,
  unavailable: 503,
  internal: 500,
};

/** Every code, for the OpenAPI document and tests. */
export const API_ERROR_CODES = Object.keys(STATUS_BY_CODE) as ApiErrorCode[];

/** A refusal of the API's own, with its code, and the `WWW-Authenticate` challenge to answer a token's refusal with. */
export class RequestRefusedError extends Error {
  override readonly name = 'RequestRefusedError';
  constructor(
    readonly refusal: Refusal,
    message: string,
    /** The `WWW-Authenticate` challenge to answer with, for refusals of the bearer token. */
    readonly challenge?: string,
  ) {
    super(message);
  }
}

/** Fastify's own client errors, by its error codes: the body over the limit, a body it could not read. */
const FASTIFY_CODES: Record<string, ApiErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body-too-large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request-malformed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'body-malformed',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'body-not-json',
};

/**
 * The code an error answers with: an operation's own, a refusal's, a Fastify client error's; a
 * database or Redis that cannot be reached is `unavailable` (503: try again), anything else
 * `internal` (500, its message kept for the log, not the caller).
 */
export function codeOf(error: Error & { statusCode?: number; code?: unknown }): ApiErrorCode {
  if (error instanceof RequestRefusedError) return error.refusal;
  if (error instanceof WinnowError) return error.code;
  if (typeof error.code === 'string' && error.code in FASTIFY_CODES) return FASTIFY_CODES[error.code] as ApiErrorCode;
  if (isUnavailable(error)) return 'unavailable';
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return 'invalid-input';
  return 'internal';
}

/** An error answer's status and body, from its code. */
export function errorAnswer(code: ApiErrorCode, message: string): { status: number; body: ApiErrorBody } {
  return { status: STATUS_BY_CODE[code], body: { error: message, code } };
}

/**
 * What an `unavailable` answer says: the engines that cannot be reached, by the variable that
 * names each, from the checks of `/ready`. With the Postgres full-text index, a failed search check
 * is the database's failure, said once. When every check passes again (a blip), no engine is named.
 */
export function unavailableMessage(searchKind: 'postgres' | 'elasticsearch', checks: Readiness['checks']): string {
  const down = [
    ...(checks.database === 'failed' ? ['the database (Postgres, DATABASE_URL)'] : []),
    ...(checks.redis === 'failed' ? ['Redis (REDIS_URL)'] : []),
    ...(checks.search === 'failed' && (searchKind === 'elasticsearch' || checks.database !== 'failed')
      ? [searchKind === 'elasticsearch' ? 'the search index (Elasticsearch, ELASTICSEARCH_URL)' : 'the search index (Postgres full-text)']
      : []),
  ];
  if (down.length === 0) return 'an engine of the pipeline could not be reached; try again';
  return `${down.join(' and ')} cannot be reached now; try again`;
}
