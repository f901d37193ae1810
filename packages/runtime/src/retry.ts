import pRetry from 'p-retry';

/** Postgres SQLSTATE classes and codes that mean "the server is not there right now", not "this statement is wrong". */
const UNAVAILABLE_SQLSTATE = /^(?:08|57P0[123]|53300)/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error|not queryable|Connection is closed|timeout exceeded when trying to connect|max retries per request/i;

/**
 * True when an error says Postgres or Redis cannot be reached (refused, reset, shutting down, too
 * many connections), or says so itself (`unavailable: true`: the object store's) — worth retrying
 * for minutes — as opposed to an error in the work itself, which a retry cannot fix.
 */
export function isUnavailable(error: unknown): boolean {
  const { code, message, unavailable } = (error ?? {}) as { code?: unknown; message?: unknown; unavailable?: unknown };
  if (unavailable === true) return true;
  if (typeof code === 'string' && (UNAVAILABLE_SOCKET.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

/**
 * Runs `work`, and while Postgres or Redis cannot be reached, runs it again with a growing pause
 * (250 ms up to 5 s, p-retry) for up to `forMs`; any other error, or the last one, is thrown at
 * once. `onWait` hears each failed attempt (to log it).
 */
export function whileUnavailable<T>(work: () => Promise<T>, forMs: number, onWait?: (error: unknown) => void): Promise<T> {
  return pRetry(work, {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 250,
    maxTimeout: 5000,
    maxRetryTime: forMs,
    shouldRetry: ({ error }) => isUnavailable(error),
    onFailedAttempt: ({ error }) => {
      if (isUnavailable(error)) onWait?.(error);
    },
  });
}
