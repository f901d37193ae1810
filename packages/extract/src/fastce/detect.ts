import { buildBlockTree, type Block, type BlockTree } from '../html/blockTree.js';
import { boilerplateSubtrees, isLinkDense } from '../mainblock/boilerplate.js';
import { featureVector, isSimilar, vectorOf, wordCount, type FeatureVector } from '../ce/features.js';
import { ExtractionError } from '../result/errors.js';
import type { Limits } from '../html/limits.js';
import { mainBlockOf } from '../mainblock/mainBlock.js';
import { mainRegion } from './region.js';
import { blockLines, ownText } from '../html/blockLines.js';
import { resultOf, type ExtractedBlock, type ExtractionResult } from '../result/result.js';
import type { Template } from './template.js';
import type { DecisionRecorder, TemplateDropRule } from '../result/decisions.js';

/** A template made ready for detection: path set and stored blocks grouped by path. */
export interface CompiledTemplate {
  readonly template: Template;
  readonly contentPaths: ReadonlySet<string>;
  readonly nonContentByPath: ReadonlyMap<string, readonly FeatureVector[]>;
}

/** Builds the lookup structures once per template, so detection per page only walks the page. */
export function compileTemplate(template: Template): CompiledTemplate {
  const nonContentByPath = new Map<string, FeatureVector[]>();
  for (const stored of template.nonContent) {
    const vectors = nonContentByPath.get(stored.path) ?? [];
    vectors.push(vectorOf(Uint32Array.from(stored.ids), Uint32Array.from(stored.counts)));
    nonContentByPath.set(stored.path, vectors);
  }
  return { template, contentPaths: new Set(template.contentPaths), nonContentByPath };
}

/**
 * FastCE's detection phase (paper, Section III and Figure 5). Only blocks whose path is in the
 * template are extracted; for such a block B, the highest one on its branch:
 * - a sub-block whose path is in the template is kept (and read by the same rules);
 * - a sub-block B' whose path is not in the template is kept when some block below it has a
 *   template path (the paper: "block B is extracted including B'"), else dropped with its subtree.
 *   The paper states the rule for B's direct sub-blocks; we apply it at every depth, so B' itself is
 *   read the same way.
 * - An inline block with no sub-blocks (a SPAN around a name) is part of its parent's sentence and is
 *   kept with it whatever its own path: names recur across a site's pages, so ContentExtractor calls
 *   such spans non-content, and dropping them would cut the sentence the paper's Figure 2 keeps whole.
 * Each extracted block is then compared with the template's non-content blocks of the same path
 * (the only ones it could be mistaken for) and dropped when similar. Text comes out in document
 * order, one line per rendered block: the reason FastCE exists.
 *
 * With `params.refine` (fastce+), also: every kept block answers for its own text (link-dense or
 * similar to a stored non-content block of its path: dropped); text after the main region is
 * dropped; boilerplate-named containers are dropped (never the region or its ancestors); and a page
 * the template does not fit, or on which it finds no text, is read on its own (`readAlone`).
 */
export function detect(compiled: CompiledTemplate, html: string, limits?: Partial<Limits>, recorder?: DecisionRecorder): ExtractionResult {
  const tree = buildBlockTree(html, { pathMode: compiled.template.params.pathMode, ...(limits ? { limits } : {}) });
  const reading = templateReading(compiled, tree, recorder);
  if (reading.misfit !== undefined) return readAlone(tree, reading.misfit);
  return resultOf(compiled.template.params.refine ? 'fastce+' : 'fastce', reading.blocks, tree.warnings);
}

/** What the template reads of a page, or why it cannot: the page does not fit it, or it finds no text there (fastce+). */
export type TemplateReading = { blocks: ExtractedBlock[]; misfit?: undefined } | { misfit: string };

/**
 * The template's reading of a page read into a block tree with the template's path mode. With a
 * recorder, every block whose text it leaves out is recorded with the rule that did.
 */
export function templateReading(compiled: CompiledTemplate, tree: BlockTree, recorder?: DecisionRecorder): TemplateReading {
  const { template, contentPaths, nonContentByPath } = compiled;
  if (tree.pathMode !== template.params.pathMode) {
    throw new ExtractionError('invalid-argument', `the template reads ${template.params.pathMode} paths; the tree has ${tree.pathMode}`);
  }
  const { blocks } = tree;
  const inTemplate = new Uint8Array(blocks.length);
  const subtreeInTemplate = new Uint8Array(blocks.length);
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as Block;
    if (contentPaths.has(block.path)) inTemplate[i] = subtreeInTemplate[i] = 1;
    if (subtreeInTemplate[i] && block.parent) subtreeInTemplate[block.parent.index] = 1;
  }
  const region = template.params.refine ? mainRegion(tree, template.regionPath, contentPaths) : null;
  if (template.params.refine && template.regionPath !== null && region === null) {
    return { misfit: 'the page does not fit the template (its main region is not there)' };
  }
  const end = region ? region.end : blocks.length;
  const suppressed = template.params.refine ? boilerplateSubtrees(blocks, region) : new Uint8Array(blocks.length);
  const keeps = (child: Block): boolean => (subtreeInTemplate[child.index] === 1 || isInlineLeaf(child)) && child.index < end && !suppressed[child.index];
  const drop = (block: Block, rule: TemplateDropRule, subtree: boolean): void => recorder?.record({ kind: 'template-drop', rule, block, subtree });
  const dropRule = (block: Block): TemplateDropRule =>
    suppressed[block.index] ? 'boilerplate-container' : block.index >= end ? 'outside-main-region' : 'not-content-path';
  const keep = recorder
    ? (child: Block): boolean => {
        const kept = keeps(child);
        if (!kept) drop(child, dropRule(child), true);
        return kept;
      }
    : keeps;
  const similarToStored = (block: Block, vector: () => FeatureVector): boolean => {
    const stored = nonContentByPath.get(block.path);
    if (!stored) return false;
    const own = vector();
    return stored.some((other) => isSimilar(own, other, template.params.similarity));
  };
  // fastce+: every kept block, not only the highest, answers for its own text.
  const verdicts = new Int8Array(blocks.length);
  const keepOwnText = (block: Block): boolean => {
    if (!template.params.refine || isInlineLeaf(block)) return true;
    if (verdicts[block.index] === 0) {
      const linkDense = isLinkDense(block) && !isLinkedProse(block, region);
      const speaks = !linkDense && !similarToStored(block, () => featureVector(ownText(block), block));
      verdicts[block.index] = speaks ? 1 : -1;
      if (!speaks) drop(block, linkDense ? 'link-dense' : 'similar-to-boilerplate', false);
    }
    return verdicts[block.index] === 1;
  };
  const extracted: ExtractedBlock[] = [];
  for (let i = 0; i < end; ) {
    const block = blocks[i] as Block;
    if (suppressed[i]) {
      drop(block, 'boilerplate-container', true);
      i = block.end;
      continue;
    }
    if (!inTemplate[i]) {
      drop(block, 'not-content-path', false);
      i++;
      continue;
    }
    i = block.end;
    const rendered = blockLines(block, keep, keepOwnText);
    if (rendered.lines.length === 0) continue;
    if (similarToStored(block, () => featureVector(rendered.lines.map((line) => line.text).join(' '), rendered))) {
      drop(block, 'similar-to-boilerplate', true);
      continue;
    }
    for (const line of rendered.lines) extracted.push(line);
  }
  if (recorder) for (let i = end; i < blocks.length; i = (blocks[i] as Block).end) drop(blocks[i] as Block, 'outside-main-region', true);
  if (template.params.refine && extracted.length === 0) return { misfit: 'the template found no main text on the page' };
  return { blocks: extracted };
}

/**
 * fastce+: a page the template does not fit — a different page type, or an article nested
 * differently from the sample pages — or on which the template finds no text (an article the site
 * also serves elsewhere, which ContentExtractor called repeated) is read on its own by the
 * single-page fallback, and a warning says so.
 */
function readAlone(tree: BlockTree, reason: string): ExtractionResult {
  const { lines, warnings } = mainBlockOf(tree);
  return resultOf('fastce+', lines, [...warnings, `${reason}: read on its own`]);
}

/** Words of own text from which a link-dense block inside the main region is a sentence, not a list of links. */
const LINKED_PROSE_WORDS = 15;
/** Share of a block's text in links at most, for such a sentence: a link list leaves only separators outside its links. */
const LINKED_PROSE_MAX_LINK_SHARE = 0.8;

/**
 * fastce+: a sentence inside the main region whose words are mostly one inline link ("I asked
 * educators to <a>share their details if they were willing to help…</a>") is the article's,
 * though link-dense: a run of links between paragraphs leaves almost no text outside them, and a
 * caption or "Related: …" line is short. Judged only where link density would drop the block.
 * k-fold lcs F1: fastce+ dragnet 0.9332 -> 0.9342, pipeline 0.9621 -> 0.9627 (one page down:
 * poynter.org's gold leaves out its "Related: …" sentences), daniel and cleanportaleval within
 * 0.0001; without the link share, cbsnews.com's related headlines under `<br>` came in.
 */
function isLinkedProse(block: Block, region: Block | null): boolean {
  if (region === null || block.index <= region.index || block.index >= region.end) return false;
  return block.linkChars <= LINKED_PROSE_MAX_LINK_SHARE * block.textChars && wordCount(ownText(block)) >= LINKED_PROSE_WORDS;
}

/** A SPAN-like block holding only text: it belongs to the sentence it sits in. */
function isInlineLeaf(block: Block): boolean {
  return !block.breaksLine && block.end === block.index + 1;
}
