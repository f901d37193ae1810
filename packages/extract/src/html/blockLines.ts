import { LINE_BREAK, type Block, type BlockTree } from './blockTree.js';
import { collapseWhitespace } from './whitespace.js';

/** One line of extracted text, with the path of the block its first words come from. */
export interface TextLine {
  path: string;
  text: string;
}

/** Whether two lines are the same line of the page: the same text from the same block path. */
export function isSameLine(a: TextLine, b: TextLine): boolean {
  return a.path === b.path && a.text === b.text;
}

/** What `blockLines` read: the lines, and the structural counts of every block it kept. */
export interface BlockLines {
  lines: TextLine[];
  links: number;
  images: number;
  scripts: number;
  textChars: number;
  linkChars: number;
}

const linesOfPage = new WeakMap<BlockTree, readonly TextLine[]>();

/**
 * The whole page's rendered lines (`blockLines` of its root), read once per parsed page: the
 * pipeline's headline, standfirst and header checks each look at them, and a page's tree does not
 * change once built.
 */
export function pageLines(tree: BlockTree): readonly TextLine[] {
  let lines = linesOfPage.get(tree);
  if (!lines) {
    lines = blockLines(tree.root).lines;
    linesOfPage.set(tree, lines);
  }
  return lines;
}

/**
 * Renders a block and the sub-blocks `keep` accepts as lines of text in document order; a kept
 * block that `keepOwnText` refuses contributes its kept sub-blocks but not its own text. Inline
 * blocks (SPAN) continue the current line, so a sentence that runs through a `<span>` stays whole;
 * other blocks and `<br>` start a new line. White space is collapsed as a browser would.
 * Iterative: the depth of the tree does not touch the call stack. `onLine` learns each line's
 * block (where its first words are): the page inspector maps lines back to the page's elements.
 */
export function blockLines(
  block: Block,
  keep: (child: Block) => boolean = () => true,
  keepOwnText: (kept: Block) => boolean = () => true,
  onLine?: (line: TextLine, startBlock: Block) => void,
): BlockLines {
  const rendered: BlockLines = { lines: [], links: 0, images: 0, scripts: 0, textChars: 0, linkChars: 0 };
  let parts: string[] = [];
  let lineBlock = block;
  const flush = (): void => {
    if (parts.length === 0) return;
    const text = collapseWhitespace(parts.join(''));
    if (text !== '') {
      const line = { path: lineBlock.path, text };
      rendered.lines.push(line);
      onLine?.(line, lineBlock);
    }
    parts = [];
  };
  const count = (kept: Block): void => {
    if (!keepOwnText(kept)) return;
    rendered.links += kept.links;
    rendered.images += kept.images;
    rendered.scripts += kept.scripts;
    rendered.textChars += kept.textChars;
    rendered.linkChars += kept.linkChars;
  };
  count(block);
  const stack: Array<{ block: Block; next: number }> = [{ block, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { block: Block; next: number };
    if (frame.next >= frame.block.items.length) {
      stack.pop();
      if (frame.block.breaksLine) flush();
      continue;
    }
    const item = frame.block.items[frame.next++] as Block | string | typeof LINE_BREAK;
    if (item === LINE_BREAK) {
      flush();
    } else if (typeof item === 'string') {
      if (!keepOwnText(frame.block)) continue;
      if (parts.length === 0) {
        if (item.trim() === '') continue;
        lineBlock = frame.block;
      }
      parts.push(item);
    } else if (keep(item)) {
      if (item.breaksLine) flush();
      count(item);
      stack.push({ block: item, next: 0 });
    }
  }
  flush();
  return rendered;
}

/**
 * A block's own text: its text runs without those of its sub-blocks, which ContentExtractor's
 * atomic partitioning takes apart (paper, Figure 3). A space stands where a sub-block was, so the
 * words on either side of it do not merge.
 */
export function ownText(block: Block): string {
  let text = '';
  for (const item of block.items) text += typeof item === 'string' ? item : ' ';
  return collapseWhitespace(text);
}
