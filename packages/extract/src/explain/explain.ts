import { blockLines, type TextLine } from '../html/blockLines.js';
import { type Block, buildBlockTree } from '../html/blockTree.js';
import type { ExtractionResult, PageExtractor } from '../result/result.js';
import type { Decision, DecisionRecorder, TemplateDropRule } from '../result/decisions.js';

/** The rule that kept or dropped a line, as the pipeline applied it. */
export type LineRule =
  // kept
  | 'both-readings'
  | 'reader-unjudged'
  | 'headline-template'
  | 'headline-title'
  | 'standfirst-template'
  | 'byline-under-headline'
  | 'list-after-label'
  | 'read-alone'
  | 'template-only'
  | 'method'
  // dropped
  | 'repeated-on-site'
  | 'not-confirmed-by-template'
  | 'not-confirmed-by-reader'
  | 'outside-article'
  | TemplateDropRule
  | 'not-in-reading';

/** One line of the page, in document order: kept in the main text or dropped, the rule that decided it, and that rule in words. */
export interface ExplainedLine {
  text: string;
  path: string;
  kept: boolean;
  rule: LineRule;
  reason: string;
  /** The block of the page's block tree where the line starts (`Block.index`): the inspector outlines its element. */
  block: number;
}

export interface Explanation {
  /** The extraction the explanation re-ran: its `text` is what the explanation keeps. */
  result: ExtractionResult;
  lines: ExplainedLine[];
  /** The layout whose template read the page (pipeline), or null when none did. */
  layout: { pageCount: number; similarity: number } | null;
  /** Why the self-check read the page alone, or null when it did not. */
  readAlone: string | null;
}

const TEMPLATE_REASONS: Record<TemplateDropRule, string> = {
  'outside-main-region': "after the template's main region",
  'boilerplate-container': 'inside a boilerplate container (navigation, footer, sidebar, comments)',
  'not-content-path': 'at a block path the template does not read as content',
  'link-dense': 'link-dense: mostly the text of links',
  'similar-to-boilerplate': 'similar to a boilerplate block the template stores for its path',
};

const key = (line: TextLine): string => `${line.path}\n${line.text}`;

/**
 * Explains an extraction: runs `extract` on the page with a recorder, then lays the page's rendered
 * lines (`blockLines` of the whole tree) beside the result's blocks, in document order. Each result
 * block is a kept line, with the rule the recorded decisions give it; each page line between them
 * is dropped, with the rule that left it out: the site's repeated lines and the readings'
 * disagreements first (the self-check's decisions, which settle the text), then the template's
 * own rule for that block. The kept lines are the result's blocks themselves, so the kept text is
 * the result's text; a page line that holds a kept block's text is taken as that block.
 */
export function explainExtraction(html: string, extract: PageExtractor): Explanation {
  const decisions: Decision[] = [];
  const recorder: DecisionRecorder = { record: (decision) => decisions.push(decision) };
  const result = extract(html, recorder);
  const tree = buildBlockTree(html);
  const pageLines: Array<TextLine & { block: Block }> = [];
  blockLines(tree.root, undefined, undefined, (line, block) => pageLines.push({ ...line, block }));

  const isPipeline = result.method === 'pipeline';
  let layout: Explanation['layout'] = null;
  let readAlone: string | null = null;
  let templateOnly: string | null = null;
  const keptRules = new Map<string, LineRule>();
  const droppedRules = new Map<string, LineRule>();
  const readerLines = new Set<string>();
  const templateLines = new Set<string>();
  const templateDrops = new Map<number, TemplateDropRule>();
  for (const decision of decisions) {
    switch (decision.kind) {
      case 'layout':
        layout = { pageCount: decision.pageCount, similarity: decision.similarity };
        break;
      case 'read-alone':
        readAlone = decision.why;
        break;
      case 'template-only':
        templateOnly = decision.why;
        break;
      case 'reader-reading':
        for (const line of decision.lines) readerLines.add(key(line));
        break;
      case 'template-reading':
        for (const line of decision.lines) templateLines.add(key(line));
        break;
      case 'headline':
        keptRules.set(key(decision.line), decision.source === 'template' ? 'headline-template' : 'headline-title');
        break;
      case 'standfirst':
        keptRules.set(key(decision.line), 'standfirst-template');
        break;
      case 'byline':
        keptRules.set(key(decision.line), 'byline-under-headline');
        break;
      case 'list-after-label':
        keptRules.set(key(decision.line), 'list-after-label');
        break;
      case 'unjudged':
        if (!keptRules.has(key(decision.line))) keptRules.set(key(decision.line), 'reader-unjudged');
        break;
      case 'repeated-line':
        droppedRules.set(key(decision.line), 'repeated-on-site');
        break;
      case 'unconfirmed':
        if (!droppedRules.has(key(decision.line))) droppedRules.set(key(decision.line), 'not-confirmed-by-template');
        break;
      case 'template-drop': {
        const { block, rule, subtree } = decision;
        const last = subtree ? block.end : block.index + 1;
        for (let i = block.index; i < last; i++) if (!templateDrops.has(i)) templateDrops.set(i, rule);
        break;
      }
    }
  }

  const keptRule = (line: TextLine): LineRule =>
    keptRules.get(key(line)) ?? (!isPipeline ? 'method' : readAlone !== null ? 'read-alone' : templateOnly !== null ? 'template-only' : 'both-readings');
  const keptReason = (rule: LineRule): string => {
    switch (rule) {
      case 'headline-template':
        return "the template's headline, which the single-page reading set aside";
      case 'headline-title':
        return "the page's headline: the line before the text that its <title> names";
      case 'standfirst-template':
        return "the template's standfirst, a sentence above the article's first line that the single-page reading left out";
      case 'byline-under-headline':
        return 'the byline the page shows under the headline, which both readings left out';
      case 'list-after-label':
        return "an item of the list that the text's last line introduces (it ends in a colon), which both readings left out";
      case 'reader-unjudged':
        return "the single-page reading's, at a path the template cannot judge (the layout's pages do not usually have it, or it is prose where the template never compared)";
      case 'read-alone':
        return `the single-page reading: the page was read alone (${readAlone})`;
      case 'template-only':
        return `the template's reading: ${templateOnly}`;
      case 'both-readings':
        return "both readings hold it: the single-page reading's line, confirmed by the template's";
      default:
        return `kept by ${result.method}`;
    }
  };
  const droppedRule = (line: TextLine & { block: Block }): LineRule => {
    const decided = droppedRules.get(key(line));
    if (decided) return decided;
    if (!isPipeline) return templateDrops.get(line.block.index) ?? 'not-in-reading';
    if (readAlone === null && templateLines.has(key(line)) && !readerLines.has(key(line))) return 'not-confirmed-by-reader';
    if (readAlone === null) return templateDrops.get(line.block.index) ?? 'outside-article';
    return 'outside-article';
  };
  const droppedReason = (rule: LineRule, line: TextLine & { block: Block }): string => {
    const templateRule = templateDrops.get(line.block.index);
    const templateSays = templateRule ? `; the template: ${TEMPLATE_REASONS[templateRule]}` : '';
    switch (rule) {
      case 'repeated-on-site':
        return `repeated on the site: a fifth or more of the sample pages (at least 3) have this line at this path${layout ? `; the layout was learned from ${layout.pageCount} page(s)` : ''}`;
      case 'not-confirmed-by-template':
        return `the single-page reading took it, but the template's reading does not hold it${templateSays}`;
      case 'not-confirmed-by-reader':
        return "the template's reading has it, but the single-page reading does not confirm it";
      case 'outside-article':
        return `outside the single-page reading's article${readAlone !== null ? ' (the page was read alone)' : templateSays}`;
      case 'not-in-reading':
        return `not in ${result.method}'s reading`;
      default:
        // The template's rule, where the single-page reading also left the line out.
        return `${TEMPLATE_REASONS[rule as TemplateDropRule]}${isPipeline ? "; outside the single-page reading's article too" : ''}`;
    }
  };

  const lines: ExplainedLine[] = [];
  const drop = (line: TextLine & { block: Block }): void => {
    const rule = droppedRule(line);
    lines.push({ text: line.text, path: line.path, kept: false, rule, reason: droppedReason(rule, line), block: line.block.index });
  };
  let cursor = 0;
  for (const kept of result.blocks) {
    // The page line this block is: the same text (at its path first), else the first that holds its text.
    const from = cursor;
    const find = (match: (line: TextLine) => boolean): number => pageLines.findIndex((line, i) => i >= from && match(line));
    let at = find((line) => line.text === kept.text && line.path === kept.path);
    if (at < 0) at = find((line) => line.text === kept.text);
    if (at < 0) at = find((line) => line.text.includes(kept.text));
    const page = at >= 0 ? pageLines[at] : undefined;
    if (page) {
      for (let i = cursor; i < at; i++) drop(pageLines[i] as TextLine & { block: Block });
      cursor = at + 1;
    }
    const rule = keptRule(kept);
    lines.push({ text: kept.text, path: kept.path, kept: true, rule, reason: keptReason(rule), block: page ? page.block.index : -1 });
  }
  for (let i = cursor; i < pageLines.length; i++) drop(pageLines[i] as TextLine & { block: Block });
  return { result, lines, layout, readAlone };
}
