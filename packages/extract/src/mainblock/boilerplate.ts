import type { Block } from '../html/blockTree.js';
import { nonSpaceChars } from '../html/whitespace.js';

/**
 * fastce+: the words page templates use in the id and class of boilerplate containers. Long,
 * distinctive words match anywhere in the attribute (`reader-comments`, `commentlist`); short ones
 * only as whole tokens (`ad`, `nav`), where substrings would hit innocent names (`head`, `canvas`).
 */
const BOILERPLATE_WORD =
  /comment|disqus|sidebar|footer|breadcrumb|widget|advert|sponsor|newsletter|related|social|sharing|share-|-share|(?:^|[\s_-])(?:ad|ads|nav|menu|promo|banner|reply|respond|popup|share|tags|outbrain|taboola)(?:$|[\s_-])/;

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
 * A form holding at least this share of the page's text (non-space characters) is the page, or its
 * content column, wrapped in a form, as old ASP.NET and CGI pages do; a smaller one is a form.
 * Chosen on the 8,995 forms of the seven shared datasets: of those under a quarter of their page's
 * text, 3 in 8,934 hold most of the page's gold text; from a quarter to a half, 3 in 11; above a
 * half, 44 in 47. On mainblock, a tenth, a quarter and a half score alike (within 0.002 shingle F1
 * on every dataset); against every form being boilerplate, cleaneval rises from 0.881 to 0.895,
 * scrapinghub from 0.883 to 0.889.
 */
const PAGE_FORM_SHARE = 0.25;

/**
 * True when a block is boilerplate by its name: an id or class naming comments, sharing, related
 * links and the like, or a small form (search boxes, subscriptions, comment forms: a form holding
 * less than a quarter of the page's text, see `PAGE_FORM_SHARE`).
 */
export function hasBoilerplateName(block: Block, textShare: (block: Block) => number = () => 0): boolean {
  if (block.tag === 'form') return isFormLike(block, textShare(block));
  return block.hint !== '' && BOILERPLATE_WORD.test(block.hint) && !CONTENT_WORD.test(block.hint);
}

/** True for a form that is a form (search box, subscription, comment form), not a page wrapped in one. */
export function isFormLike(block: Block, shareOfPage: number): boolean {
  return block.tag === 'form' && shareOfPage < PAGE_FORM_SHARE;
}

/**
 * Marks the subtrees of blocks named as boilerplate. The main region, when there is one, and its
 * ancestors are never marked: a page wrapper called `with-sidebar` must not take the article.
 * Names inside preformatted text are a syntax highlighter's (`hljs-comment`), not the page's.
 */
export function boilerplateSubtrees(blocks: readonly Block[], region: Block | null): Uint8Array {
  const suppressed = new Uint8Array(blocks.length);
  const protectedBlocks = new Set<Block>();
  for (let block = region; block; block = block.parent) protectedBlocks.add(block);
  let shareOfPage: ((block: Block) => number) | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (block.tag === 'form') shareOfPage ??= textShareOfPage(blocks);
    if (!hasBoilerplateName(block, shareOfPage) || protectedBlocks.has(block)) {
      if (block.tag === 'pre') i = block.end - 1;
      continue;
    }
    suppressed.fill(1, i, block.end);
    i = block.end - 1;
  }
  return suppressed;
}

/** A block's share of the page's text (non-space characters of its subtree), counted once per page. */
function textShareOfPage(blocks: readonly Block[]): (block: Block) => number {
  const chars = new Float64Array(blocks.length);
  for (const block of blocks) {
    for (const item of block.items) if (typeof item === 'string') chars[block.index] = (chars[block.index] ?? 0) + nonSpaceChars(item);
  }
  for (let i = blocks.length - 1; i > 0; i--) {
    const parent = (blocks[i] as Block).parent as Block;
    chars[parent.index] = (chars[parent.index] ?? 0) + (chars[i] ?? 0);
  }
  const total = chars[0] ?? 0;
  return (block) => (total === 0 ? 0 : (chars[block.index] ?? 0) / total);
}
