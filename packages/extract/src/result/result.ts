import type { DecisionRecorder } from './decisions.js';

/** One extracted block of main text, in document order. */
export interface ExtractedBlock {
  /** Traversal path of the block the text comes from, e.g. `HTML.BODY.DIV.P`. */
  path: string;
  text: string;
}

/** What every extraction method returns. */
export interface ExtractionResult {
  method: string;
  /** The main text's blocks, one per line of `text`, in document order. */
  blocks: ExtractedBlock[];
  /** The main text: the blocks' texts, one block per line. */
  text: string;
  /** Caps hit and other best-effort notes about this page (empty when none). */
  warnings: string[];
  /** `pipeline` only: the self-check did not trust the template's reading and read the page alone. */
  readAlone?: boolean;
}

/** Extracts one page's main text; given a recorder, it also says why it kept and dropped what it did (`Decision`). */
export type PageExtractor = (html: string, recorder?: DecisionRecorder) => ExtractionResult;

export function resultOf(method: string, blocks: ExtractedBlock[], warnings: readonly string[]): ExtractionResult {
  return { method, blocks, text: blocks.map((block) => block.text).join('\n'), warnings: [...warnings] };
}
