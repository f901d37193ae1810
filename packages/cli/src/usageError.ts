/** A mistake in how a command was called, found after parsing (exit code 2, like commander's own). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
