import type { IncomingHttpHeaders } from 'node:http';
import { RequestRefusedError } from './errors.js';

/** The media types the API reads as JSON: `application/merge-patch+json` is RFC 7396's, for a `PATCH`. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/merge-patch+json'];

/**
 * Refuses a request that carries a body in anything but JSON. A browser page on another origin
 * can send `text/plain`, form or multipart bodies without a CORS preflight, but never
 * `application/json` (nor `application/merge-patch+json`, which a `PATCH` may name): requiring it
 * (and never answering preflights) keeps such pages from acting on the API. A request without a
 * body passes; it still needs its bearer token.
 */
export function requireJsonBody(method: string, headers: IncomingHttpHeaders): void {
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if (!hasBody) return;
  const [type, ...parameters] = headers['content-type']?.split(';') ?? [];
  const mediaType = type?.trim().toLowerCase();
  if (mediaType === 'application/json' || (method === 'PATCH' && mediaType === 'application/merge-patch+json')) {
    // JSON is UTF-8 (RFC 8259): a body declared otherwise would be read as something it is not.
    const charset = parameters.map((parameter) => parameter.trim().toLowerCase()).find((parameter) => parameter.startsWith('charset='));
    const declared = charset?.slice('charset='.length).replace(/^"(.*)"$/, '$1');
    if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return;
    throw new RequestRefusedError('body-not-json', `a JSON request body must be UTF-8 (this one declares charset=${declared})`);
  }
  throw new RequestRefusedError(
    'body-not-json',
    `a request body must be JSON sent with Content-Type: application/json${method === 'PATCH' ? ' or application/merge-patch+json' : ''} (this one is ${mediaType ? mediaType : 'untyped'})`,
  );
}

/** Refuses the keys through which a parsed body could reach an object's prototype once merged or copied. */
function refusePrototypeKeys(key: string, value: unknown): unknown {
  const prototypeKey =
    key === '__proto__'
      ? '__proto__'
      : key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype')
        ? 'constructor.prototype'
        : undefined;
  if (prototypeKey) throw new RequestRefusedError('body-forbidden-key', `the key "${prototypeKey}" is refused in a request body (prototype pollution)`);
  return value;
}

/**
 * Parses a JSON request body: malformed JSON and prototype-pollution keys are refused with a 400
 * saying which. An empty body is no body (`curl -H 'Content-Type: application/json' -X POST`
 * sends one): the endpoint then answers as it does without one, not with a JSON syntax error.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text, refusePrototypeKeys);
  } catch (error) {
    if (error instanceof RequestRefusedError) throw error;
    throw new RequestRefusedError('body-malformed', `the request body is not valid JSON: ${(error as Error).message}`);
  }
}
