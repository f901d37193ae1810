import type { ExtractionResult } from './result.js';

/**
 * What the self-check made of a page, as `winnow_extractions_total` counts it:
 * - `agreed`: the pipeline kept the lines both readings hold (its template and the single-page reader);
 * - `template`: the template's reading alone, because the reader found nothing of the page's own
 *   (or, for template methods without a self-check, the template read the page);
 * - `read-alone`: the single-page reading alone, the reason saying why the template was not trusted
 *   (`no-template-yet`, `no-layout`, `misfit`, `disagreed`);
 * - `none`: no template of the page's type, read by the single-page fallback.
 */
export interface SelfCheckVerdict {
  verdict: 'agreed' | 'template' | 'read-alone' | 'none';
  reason: string;
}

/**
 * The reasons the pipeline (packages/extract/src/pipeline/pipeline.ts) and fastce+ write in the
 * warning that says a page was read alone, and their class. The warning's words are the record;
 * services/extractor's verdict.test.ts runs the real pipeline so that a rewording shows there, not as `other` here.
 */
const READ_ALONE_REASONS: readonly [RegExp, string][] = [
  [/^no template for this page type yet/, 'no-template-yet'],
  [/none of the template's layouts/, 'no-layout'],
  [/does not fit the template|found no main text/, 'misfit'],
  [/^the template confirms/, 'disagreed'],
];

/** The verdict of an extraction, from its result and whether a template read it. */
export function selfCheckVerdict(result: Pick<ExtractionResult, 'method' | 'readAlone' | 'warnings'>, templated: boolean): SelfCheckVerdict {
  if (!templated) return { verdict: 'none', reason: 'no-template' };
  const alone = [...result.warnings].reverse().find((warning) => /: read (alone|on its own)$/.test(warning));
  if (result.readAlone === true || alone !== undefined) {
    const reason = alone === undefined ? undefined : READ_ALONE_REASONS.find(([pattern]) => pattern.test(alone))?.[1];
    return { verdict: 'read-alone', reason: reason ?? 'other' };
  }
  if (result.warnings.some((warning) => /the template's reading is used$/.test(warning))) return { verdict: 'template', reason: 'reader-empty' };
  // Only the pipeline checks a template's reading against the reader's; another template method's reading stands alone.
  return result.method === 'pipeline' ? { verdict: 'agreed', reason: 'none' } : { verdict: 'template', reason: 'none' };
}
