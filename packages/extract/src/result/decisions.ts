/** A line of text at its block path (`TextLine`, `ExtractedBlock`): said here by shape, so that every layer may record. */
interface Line {
  path: string;
  text: string;
}

/** A block of the page's block tree (`Block`), by its place in the pre-order walk and the end of its subtree. */
interface TreeBlock {
  index: number;
  end: number;
}

/** Why a FastCE template's reading (`templateReading`) left a block's text out. */
export type TemplateDropRule = 'outside-main-region' | 'boilerplate-container' | 'not-content-path' | 'link-dense' | 'similar-to-boilerplate';

/**
 * One decision of an extractor about a page, as it makes it: the page inspector explains a page's
 * text from these, so that the explanation is the pipeline's own reasoning and not a second
 * opinion computed beside it.
 */
export type Decision =
  /** The template's reading left out the block's own text, or its whole subtree (`subtree`). */
  | { kind: 'template-drop'; rule: TemplateDropRule; block: TreeBlock; subtree: boolean }
  /** The single-page reader's reading of the page, before the self-check. */
  | { kind: 'reader-reading'; lines: readonly Line[] }
  /** The template's reading of the page, before the self-check. */
  | { kind: 'template-reading'; lines: readonly Line[] }
  /** The layout whose template read the page: its sample pages, and the share of its block paths the page has. */
  | { kind: 'layout'; pageCount: number; similarity: number }
  /** A line of the reader's that the layout's sample pages repeat at its path: the site's, dropped. */
  | { kind: 'repeated-line'; line: Line }
  /** A line of the reader's that the template's reading does not hold: dropped. */
  | { kind: 'unconfirmed'; line: Line }
  /** A line of the reader's at a path the template cannot judge: kept on the reader's word. */
  | { kind: 'unjudged'; line: Line }
  /** A headline put first: the template's (an H1/H2 the reader set aside) or the one the page's `<title>` names. */
  | { kind: 'headline'; line: Line; source: 'template' | 'title' }
  /** The template's standfirst, which the single-page reading left out: put before the article's first line. */
  | { kind: 'standfirst'; line: Line }
  /** The byline the page shows under the headline, which both readings left out: put after the headline. */
  | { kind: 'byline'; line: Line }
  /** An item of the list that the text's last line introduces (it ends in a colon), which both readings left out: put after it. */
  | { kind: 'list-after-label'; line: Line }
  /** The self-check read the page alone (the reader's reading is the text), and why. */
  | { kind: 'read-alone'; why: string }
  /** The reader found nothing of the page's own: the template's reading is the text. */
  | { kind: 'template-only'; why: string };

/**
 * Receives an extractor's decisions about one page. Optional everywhere: extractors record only
 * when given one, behind a single check, so extraction without it costs what it did.
 */
export interface DecisionRecorder {
  record(decision: Decision): void;
}
