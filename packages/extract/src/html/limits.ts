/**
 * Caps on the work one page may cause. A page past a cap still gets best-effort output, and the
 * result's `warnings` say which cap was hit, so a 20 MB page or a 100,000-deep DOM costs bounded
 * time and memory instead of a crash.
 */
export interface Limits {
  /** Characters of HTML read; the rest is ignored (real articles are far below 4M characters). */
  maxInputChars: number;
  /** Blocks in one page's tree; past it, block tags are treated as inline and text is kept. */
  maxBlocks: number;
  /** Nesting depth of blocks; deeper block tags are treated as inline and text is kept. */
  maxBlockDepth: number;
  /**
   * Elements open at once. The parser's work per element grows with this depth (its stack is an
   * array it shifts), so past it the rest of the page is read as plain text: kept, but flat.
   */
  maxOpenElements: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxInputChars: 4_000_000,
  maxBlocks: 200_000,
  maxBlockDepth: 256,
  maxOpenElements: 5_000,
});
