import { type Block, type BlockTree, isInSubtree } from '../html/blockTree.js';

/** A thread whose page marks fewer post texts than this is read as the reader chose, or by its numbered posts (`numberedPosts`). */
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
 * keeps with them stay (wcxb's gold keeps Discourse's and some XenForo forums' headers). A thread
 * whose posts are not marked is found by their numbers (`numberedPosts`).
 */
export function withDeclaredPosts(tree: BlockTree, parts: readonly Block[]): readonly Block[] {
  if (!tree.discussion) return parts;
  const thread = tree.postTexts.length >= MIN_DECLARED_POSTS ? smallestHolding(tree.postTexts) : numberedPosts(tree.blocks, parts[0]);
  if (!thread || parts.some((part) => isInSubtree(thread, part))) return parts;
  return [...parts.filter((part) => !isInSubtree(part, thread)), thread].sort((a, b) => a.index - b.index);
}

/** The smallest block that holds all the given blocks. */
function smallestHolding(blocks: readonly Block[]): Block {
  let holder = blocks[0] as Block;
  while (holder.parent && !blocks.every((block) => isInSubtree(block, holder))) holder = holder.parent;
  return holder;
}

/** A run of digits in a block's id or class: a post's number in the forum's database. */
const NUMBER = /\d+/g;

/**
 * The block holding the thread whose post the reader chose, told by the posts' numbers: forum
 * software that marks no post text still names each post after its number (Invision's
 * `elComment_5853831`, vBulletin's `edit37601655`). The post is the nearest block around the chosen
 * one whose id or class holds a number and whose parent holds another block of its tag named the
 * same but for the numbers; that parent is the thread. Undefined when no such block is found: a
 * single post, or posts their software does not number.
 */
function numberedPosts(blocks: readonly Block[], chosen: Block | undefined): Block | undefined {
  for (let post = chosen; post?.parent; post = post.parent) {
    const kind = post.hint.replace(NUMBER, '');
    if (kind === post.hint) continue;
    const thread = post.parent;
    for (let i = thread.index + 1; i < thread.end; i = (blocks[i] as Block).end) {
      const sibling = blocks[i] as Block;
      if (sibling !== post && sibling.tag === post.tag && sibling.hint.replace(NUMBER, '') === kind) return thread;
    }
  }
  return undefined;
}
