import type { Block } from './blockTree.js';

/**
 * fastce+: the words page templates use in the id and class of boilerplate containers. Long,
 * distinctive words match anywhere in the attribute (`reader-comments`, `commentlist`); short ones
 * only as whole tokens (`ad`, `nav`), where substrings would hit innocent names (`head`, `canvas`).
 */
const BOILERPLATE_WORD = /comment|disqus|sidebar|footer|breadcrumb|widget|advert|sponsor|newsletter|related|social|sharing|share-|-share|(?:^|[\s_-])(?:ad|ads|nav|menu|promo|banner|reply|respond|popup|share|tags|outbrain|taboola)(?:$|[\s_-])/;

/** Words of containers that hold the article; a container named with one of these is never boilerplate. */
const CONTENT_WORD = /article|content|entry|main|story|post|body|text/;

/** Above this share of link characters a block reads as navigation, not as prose. */
const MAX_CONTENT_LINK_DENSITY = 0.5;

/**
 * fastce+: true when most of a block's own text is link text. Lists of related or latest links
 * change from page to page, so ContentExtractor finds them unique and takes them for content.
 */
export function isLinkDense(block: Block): boolean {
  return block.linkChars > MAX_CONTENT_LINK_DENSITY * block.textChars;
}

/**
 * True when a block is boilerplate by its name: a form (search boxes, subscriptions, comment
 * forms), or an id or class naming comments, sharing, related links and the like.
 */
export function hasBoilerplateName(block: Block): boolean {
  if (block.tag === 'form') return true;
  return block.hint !== '' && BOILERPLATE_WORD.test(block.hint) && !CONTENT_WORD.test(block.hint);
}

/**
 * Marks the subtrees of blocks named as boilerplate. The main region, when there is one, and its
 * ancestors are never marked: a page wrapper called `with-sidebar` must not take the article.
 */
export function boilerplateSubtrees(blocks: readonly Block[], region: Block | null): Uint8Array {
  const suppressed = new Uint8Array(blocks.length);
  const protectedBlocks = new Set<Block>();
  for (let block = region; block; block = block.parent) protectedBlocks.add(block);
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (!hasBoilerplateName(block) || protectedBlocks.has(block)) continue;
    suppressed.fill(1, i, block.end);
    i = block.end - 1;
  }
  return suppressed;
}
