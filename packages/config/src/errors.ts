/**
 * What went wrong, in the terms a caller can act on: input to correct, something that does not
 * exist, a conflict with the current state. Each code answers exactly one HTTP status (the table
 * in services/api/src/errors.ts, which the compiler holds to every code), so renaming an error
 * class can never turn a client's mistake into a 500.
 */
export type ErrorCode = 'invalid-input' | 'not-found' | 'conflict';

/** An error a caller can act on; its message says what to do. */
export class WinnowError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a connection failed, in words: Node's dual-stack connect to `localhost` fails with an
 * `AggregateError` whose own message is empty, so the reasons of its parts (or its code) are used.
 */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message !== '') return error.message;
  const parts = error instanceof AggregateError ? [...new Set(error.errors.map((part: unknown) => failureReason(part)))].filter((part) => part !== '') : [];
  return parts.length > 0 ? parts.join('; ') : ((error as NodeJS.ErrnoException).code ?? error.name);
}
