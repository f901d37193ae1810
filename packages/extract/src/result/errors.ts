/** Why an input cannot be extracted at all (as opposed to a warning on a best-effort result). */
export type ExtractionErrorCode = 'empty-input' | 'binary-input' | 'too-deep' | 'too-many-elements' | 'invalid-template' | 'invalid-argument' | 'render-failed';

/** A typed error for bad input at the extraction boundary; `code` is stable for callers to switch on. */
export class ExtractionError extends Error {
  override readonly name = 'ExtractionError';
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
  }
}
