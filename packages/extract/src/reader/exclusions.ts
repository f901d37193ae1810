import type { Block, BlockTree } from '../blockTree.js';
import { isFormLike } from '../fastce/boilerplate.js';
import type { SubtreeMeasures } from './measures.js';
import { chosenName, isCommentsName, isUnlikelyName } from './names.js';

/**
 * A block named as boilerplate that holds at least this share of the page's text (non-space
 * characters) is a layout wrapper (`o-layout has-sidebar`, `page-header-and-body`), not a sidebar:
 * no sidebar or comment box holds most of a page (Readability's fixtures +0.003, wcxb +0.001,
 * daniel -0.001, the others within 0.0003).
 */
const WRAPPER_SHARE = 0.5;

/**
 * A list is never a layout wrapper, whatever its share: a gallery's `ul.legends` or a long
 * thread's `ol.commentlist` named as such is set aside when names are trusted (Readability's
 * fixtures +0.008, a gallery of 50 captions). A page left with too little text by it (a short post
 * under a long thread) is read again without the names, and then a list holding most of the page
 * is its text.
 */
const LISTS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
/**
 * A layout table's rows and cells are named for the layout (`td.sidebar` may hold the story);
 * what sits in a cell, a table too, is named for itself.
 */
const TABLE_PARTS: ReadonlySet<string> = new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th']);

/**
 * The subtrees the reader never reads, marked before scoring:
 * - figures and their captions (photo captions and credits are not the article; auto's rule 1),
 *   but not a figure of a table or code (`holdsDataOrCode`: wcxb 22 pages up, 4 down by 0.01 at
 *   most, 0.811 -> 0.812; the other datasets unchanged);
 * - forms that are forms, not pages wrapped in one (`isFormLike`);
 * - blocks whose id or class names a sidebar, comments, sharing and the like (`isUnlikelyName`;
 *   an id that spells the block's heading is no such name, `chosenName`)
 *   — or, when names are not `trusted`, only comments (`isCommentsName`) — except a table's rows
 *   and cells (a cell's name describes the layout; Readability spares everything inside a table,
 *   which kept an article's comments whole on pages laid out in tables: daniel +0.0008, cleaneval
 *   +0.0005, dragnet, wcxb and the pipeline unchanged), except page wrappers (`WRAPPER_SHARE`,
 *   never a list), and except inside preformatted text, where syntax highlighters name their
 *   tokens (`hljs-comment`, `token comment`), as Readability spares code.
 * The root and BODY are never excluded.
 */
export function excludedBlocks(tree: BlockTree, measures: SubtreeMeasures, trusted: boolean): Uint8Array {
  const { blocks } = tree;
  const excluded = new Uint8Array(blocks.length);
  const pageChars = measures.chars[0] as number;
  const shareOfPage = (block: Block): number => (pageChars === 0 ? 0 : (measures.chars[block.index] as number) / pageChars);
  for (let i = 2; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    const isFigure = (block.tag === 'figure' && !holdsDataOrCode(blocks, block)) || block.tag === 'figcaption';
    const name = chosenName(blocks, block);
    const named = trusted ? isUnlikelyName(name) : isCommentsName(name);
    const namedUnlikely = named && ((trusted && LISTS.has(block.tag)) || shareOfPage(block) < WRAPPER_SHARE) && !TABLE_PARTS.has(block.tag);
    if (isFigure || isFormLike(block, shareOfPage(block)) || namedUnlikely) {
      excluded.fill(1, i, block.end);
      i = block.end - 1;
    } else if (block.tag === 'pre') {
      i = block.end - 1;
    }
  }
  return excluded;
}

/** A figure of a table or of code (WordPress's `wp-block-table`, Jekyll's `figure.highlight`) is content, not a photo. */
function holdsDataOrCode(blocks: readonly Block[], figure: Block): boolean {
  for (let i = figure.index + 1; i < figure.end; i++) {
    const tag = (blocks[i] as Block).tag;
    if (tag === 'table' || tag === 'pre') return true;
  }
  return false;
}
