import { buildBlockTree, type Block } from './blockTree.js';
import { boilerplateSubtrees, isLinkDense } from './boilerplate.js';
import { extractMainBlock } from './mainBlock.js';
import { readabilityArticle } from './readability.js';
import { renderBlock } from './render.js';
import { resultOf, type ExtractionResult } from './result.js';

/** Names of blocks that hold captions, credits, bylines and datelines: text beside the article. */
const BESIDE_THE_TEXT = /caption|credit|byline|dateline|timestamp|(?:^|[\s_-])(?:author|date|time|meta)(?:$|[\s_-])/;

function isBesideTheText(block: Block): boolean {
  return block.tag === 'figcaption' || block.tag === 'figure' || (block.hint !== '' && BESIDE_THE_TEXT.test(block.hint));
}

/**
 * `auto`: the single-page fallback. Readability chooses the article; our block rules then take out
 * what it keeps beside the text ... (prototype)
 */
export function extractAuto(html: string): ExtractionResult {
  const { content, warnings } = readabilityArticle(html, { keepClasses: true });
  if (content === null) {
    const fallback = extractMainBlock(html);
    return resultOf('auto', fallback.blocks, [...warnings, 'Readability found no article: read by mainblock', ...fallback.warnings]);
  }
  const tree = buildBlockTree(content);
  const named = boilerplateSubtrees(tree.blocks, null);
  const rendered = renderBlock(
    tree.root,
    (child) => (process.env.A_NAMED === '0' || !named[child.index]) && (process.env.A_BESIDE === '0' || !isBesideTheText(child)),
    (kept) => process.env.A_LINK === '0' || !isLinkDense(kept),
  );
  return resultOf('auto', rendered.lines, [...warnings, ...tree.warnings]);
}
