import type { Block } from './blockTree.js';

/** A list entry whose own text is more than this share link text is a link, not prose. */
const LINK_LIST_DENSITY = 0.7;
/** An article with more than this share of link text is itself a list of links: its links stay. */
const LINK_ARTICLE_DENSITY = 0.3;
/** Blocks that make up lists, tables and menus: where "Related" and "More from" links are laid out. */
const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'menu', 'nav', 'table', 'tr', 'td', 'th']);

/**
 * Whether an article's blocks, `linkChars` of link text in `textChars`, are themselves a list of
 * links (a table of contents, a directory): then its link lists are its content, and they stay.
 */
export function linksAreContent(linkChars: number, textChars: number): boolean {
  return linkChars > LINK_ARTICLE_DENSITY * textChars;
}

/**
 * An entry of a link list (auto's rule 2): a block of a list, table or menu, or directly inside
 * one, whose own text is mostly link text. A paragraph or heading that is mostly a link is not one.
 */
export function isLinkListEntry(block: Block): boolean {
  const listed = LIST_TAGS.has(block.tag) || (block.parent !== null && LIST_TAGS.has(block.parent.tag));
  return listed && block.links > 0 && block.linkChars > LINK_LIST_DENSITY * block.textChars;
}

/** A table with header cells or a caption (and no table inside) lays out data, not the page. */
function isDataTable(blocks: readonly Block[], block: Block): boolean {
  if (block.tag !== 'table') return false;
  for (let i = block.index + 1; i < block.end; i++) {
    const tag = (blocks[i] as Block).tag;
    if (tag === 'table') return false;
    if (tag === 'th' || tag === 'caption') return true;
  }
  return false;
}

/** Marks the data tables of the parts (`isDataTable`), with everything inside them. */
export function dataTableMarks(blocks: readonly Block[], parts: readonly Block[]): Uint8Array {
  const marks = new Uint8Array(blocks.length);
  for (const part of parts) {
    for (let i = part.index; i < part.end; i++) {
      const block = blocks[i] as Block;
      if (isDataTable(blocks, block)) {
        marks.fill(1, i, block.end);
        i = block.end - 1;
      }
    }
  }
  return marks;
}
