import { type Block, type BlockTree, isInSubtree } from '../html/blockTree.js';

/** A thread whose page marks fewer post texts than this is read as the reader chose. */
const MIN_DECLARED_POSTS = 2;

/**
 * The article's parts with the thread of a forum page joined to them, in document order. On a
 * page that says it is a thread (`BlockTree.discussion`), forum software also marks each post's
 * body in microdata (`itemprop="text"`, or the first post's `articleBody`: XenForo, Discourse,
 * NodeBB), and the replies are what the page is for. The reader's scoring picks one post, or a
 * quote or an AI summary inside one, and short replies score too little to join it as siblings or
 * namesakes. So the thread, the smallest block holding every marked post, joins the parts, in
 * place of those inside it. The whole thread rather than the marked texts alone: the first post is
 * not always marked (reefcentral.com's), and the posts' headers (a name, a date) that the reader
 * keeps with them stay (wcxb's gold keeps Discourse's and some XenForo forums' headers).
 */
export function withDeclaredPosts(tree: BlockTree, parts: readonly Block[]): readonly Block[] {
  if (!tree.discussion || tree.postTexts.length < MIN_DECLARED_POSTS) return parts;
  const thread = smallestHolding(tree.postTexts);
  if (parts.some((part) => isInSubtree(thread, part))) return parts;
  return [...parts.filter((part) => !isInSubtree(part, thread)), thread].sort((a, b) => a.index - b.index);
}

/** The smallest block that holds all the given blocks. */
function smallestHolding(blocks: readonly Block[]): Block {
  let holder = blocks[0] as Block;
  while (holder.parent && !blocks.every((block) => isInSubtree(block, holder))) holder = holder.parent;
  return holder;
}
