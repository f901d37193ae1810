import { type ErrorCode, WinnowError } from '@winnow/config';

/**
 * How errors become HTTP statuses, in one place: the API's own refusals carry a typed reason, the
 * operations' errors a typed code (`WinnowError`), each with its status in a table the compiler
 * holds to every value.
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

const STATUS_BY_REFUSAL: Record<Refusal, number> = {
  'token-missing': 401,
  'token-unknown': 401,
  'no-token-configured': 401,
  'scope-insufficient': 403,
  /** 421 Misdirected Request: this server does not answer for that authority (a DNS-rebinding page's). */
  'host-foreign': 421,
  'body-not-json': 415,
  'body-malformed': 400,
  'body-forbidden-key': 400,
};

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

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  'invalid-input': 400,
  'not-found': 404,
  conflict: 409,
};

/** The status an error answers; Fastify's own client errors keep theirs, anything unknown is a 500. */
export function statusOf(error: Error & { statusCode?: number }): number {
  if (error instanceof RequestRefusedError) return STATUS_BY_REFUSAL[error.refusal];
  if (error instanceof WinnowError) return STATUS_BY_CODE[error.code];
  return error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
}
