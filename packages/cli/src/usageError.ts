/** The exit status of a command called wrongly, whether commander or the command found the mistake (as in most Unix tools). */
export const USAGE_EXIT_CODE = 2;

/** A mistake in how a command was called, found after parsing (exit status `USAGE_EXIT_CODE`, like commander's own). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
