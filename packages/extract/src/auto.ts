import { buildBlockTree, type Block } from './blockTree.js';
import { extractMainBlock } from './mainBlock.js';
import { readabilityArticle } from './readability.js';
import { renderBlock, type TextLine } from './render.js';
import { resultOf, type ExtractionResult } from './result.js';

/** A block whose own text is more than this share link text is a list of links, not prose. */
const LINK_LIST_DENSITY = 0.7;
/** An article with more than this share of link text is itself a list of links: its links stay. */
const LINK_ARTICLE_DENSITY = 0.3;

/**
 * `auto`, the single-page fallback: Readability's choice of the article, cleaned by block rules.
 * Readability finds the article well but keeps what sits beside the text inside it; on the
 * scrapinghub pages its precision is 0.92 at a recall of 0.99. So:
 * 1. Figures and their captions are dropped (photo captions and credits are not the article).
 * 2. Blocks whose own text is mostly link text (> 0.7) are dropped ("You may also like" lists,
 *    link rows) — unless the article as a whole is more than 0.3 link text: then the links are
 *    the content (a table of contents, a directory), and they stay.
 * 3. When Readability finds no article, `mainblock` reads the page.
 * The two thresholds were chosen on the aggregate scores of scrapinghub, cleanportaleval and
 * cleaneval (round values; rules that helped one dataset's gold conventions and hurt another's —
 * bylines, class names of boilerplate, caption classes — were left out); daniel, dragnet and wcxb
 * played no part in choosing them. On dragnet, whose gold keeps more link text, the link-list rule
 * costs more recall than it gains precision (docs/evaluation.md).
 */
export function extractAuto(html: string): ExtractionResult {
  const { content, warnings } = readabilityArticle(html, { keepClasses: true });
  if (content === null) {
    const fallback = extractMainBlock(html);
    return resultOf('auto', fallback.blocks, [...warnings, 'Readability found no article: read by mainblock', ...fallback.warnings]);
  }
  const { lines, warnings: treeWarnings } = cleanArticle(content);
  return resultOf('auto', lines, [...warnings, ...treeWarnings]);
}

/** An article's text without its figures and, unless links are its content, its link lists. */
export function cleanArticle(content: string): { lines: TextLine[]; warnings: readonly string[] } {
  const tree = buildBlockTree(content);
  let linkChars = 0;
  let textChars = 0;
  for (const block of tree.blocks) {
    linkChars += block.linkChars;
    textChars += block.textChars;
  }
  const linksAreContent = linkChars > LINK_ARTICLE_DENSITY * textChars;
  const rendered = renderBlock(
    tree.root,
    (child: Block) => child.tag !== 'figure' && child.tag !== 'figcaption',
    (kept: Block) => linksAreContent || kept.links === 0 || kept.linkChars <= LINK_LIST_DENSITY * kept.textChars,
  );
  return { lines: rendered.lines, warnings: tree.warnings };
}
