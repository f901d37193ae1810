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
