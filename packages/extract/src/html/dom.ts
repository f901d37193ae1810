import { Parser } from 'htmlparser2';
import { BLOCK_TAGS, INLINE_BLOCK_TAGS, LINE_BREAK_TAGS, NOT_TEXT_TAGS } from './blockTags.js';
import { isIgnoredInHead, startTagEndsHead, textEndsHead } from './documentHead.js';
import { elementClosedBy, type OpenElements } from './impliedEnds.js';
import { isHiddenElement, noteOpenedPanels, showsNoText } from './hidden.js';
import { checkedHtml, flatReadingWarning, flatText } from './input.js';
import { DEFAULT_LIMITS, type Limits } from './limits.js';
import { PageTokenizer } from './pageTokenizer.js';
import { collapseWhitespace } from './whitespace.js';

/** A node of the compact DOM the single-page methods read: an element or a text node. */
export interface DomNode {
  /** Lower-case tag name, or `#text`. */
  readonly name: string;
  readonly parent: DomNode | null;
  readonly children: DomNode[];
  /** Text of a `#text` node ('' for elements). */
  readonly text: string;
  /** False for an absolutely or fixed positioned DIV (WLR's `sp(n)`). */
  readonly staticPosition: boolean;
}

const MOVED_STYLE = /(?:^|;)\s*position\s*:\s*(?:absolute|fixed)/i;

/**
 * Parses HTML into a compact DOM rooted at BODY, without the nodes that can never be visible text:
 * non-content elements (`NOT_TEXT_TAGS`: script, style, head, embedded documents, …) and hidden
 * subtrees are left out as they are read (WLR's notValid and notVisible sets, Definition 4.1).
 * The head ends where a browser ends it (`documentHead.ts`), so a page that omits `</head>` and
 * `<body>` keeps its text, and elements a browser closes implicitly (`impliedEnds.ts`: open
 * paragraphs, list items, cells) are closed here. One streaming pass of htmlparser2 with an explicit stack; past `maxOpenElements` the rest
 * of the page becomes one text node, as in `buildBlockTree`.
 */
export function buildDom(html: string, limits: Partial<Limits> = {}): { root: DomNode; warnings: string[] } {
  const caps = { ...DEFAULT_LIMITS, ...limits };
  const warnings: string[] = [];
  html = checkedHtml(html, caps, warnings);
  const element = (name: string, parent: DomNode | null, staticPosition = true): DomNode => {
    const node: DomNode = { name, parent, children: [], text: '', staticPosition };
    parent?.children.push(node);
    return node;
  };
  const root = element('body', null);
  let current = root;
  let skipDepth = 0;
  /** `ignored`: an `<html>` or `<head>` start tag inside the head, which a browser ignores (`documentHead.ts`). */
  const stack: Array<'open' | 'skip' | 'mapped' | 'ignored' | 'closed'> = [];
  /** Where on the stack the `<head>` that started a skipped subtree is, until it ends (-1: none). */
  let openHeadAt = -1;
  const headIsInnermost = (): boolean => {
    if (openHeadAt < 0) return false;
    for (let k = stack.length - 1; k > openHeadAt; k--) if (stack[k] !== 'ignored') return false;
    return true;
  };
  const endHead = (): void => {
    stack[openHeadAt] = 'mapped';
    skipDepth = 0;
    openHeadAt = -1;
  };
  /** Closes the open elements a start tag ends in a browser (`impliedEnds.ts`), which htmlparser2 leaves open. */
  const closeElementsEndedBy = (name: string): void => {
    const closed = elementClosedBy(name, current, OPEN_NODES);
    if (!closed?.parent) return;
    // The `open` entries, innermost first, are the chain from `current` up; they stay on the stack as `closed`.
    for (let k = stack.length - 1; k >= 0 && current !== closed.parent; k--) {
      if (stack[k] !== 'open') continue;
      stack[k] = 'closed';
      current = current.parent as DomNode;
    }
  };
  /** Ids that a control read so far opens (`aria-controls`): such an element shows its text though hidden. */
  const opened = new Set<string>();
  let flatFrom = -1;
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stack.length >= caps.maxOpenElements && flatFrom < 0) {
          flatFrom = parser.startIndex;
          parser.pause();
          return;
        }
        if (headIsInnermost() && isIgnoredInHead(name)) {
          stack.push('ignored');
          return;
        }
        if (headIsInnermost() && startTagEndsHead(name)) endHead();
        noteOpenedPanels(attribs, opened);
        if (skipDepth > 0 || showsNoText(name, attribs, NOT_TEXT_TAGS) || isHiddenElement(attribs, opened)) {
          if (skipDepth === 0 && name === 'head') openHeadAt = stack.length;
          skipDepth++;
          stack.push('skip');
          return;
        }
        if (name === 'html' || name === 'body') {
          stack.push('mapped');
          return;
        }
        closeElementsEndedBy(name);
        current = element(name, current, !(name === 'div' && MOVED_STYLE.test(attribs.style ?? '')));
        stack.push('open');
      },
      ontext(text) {
        if (headIsInnermost() && textEndsHead(text)) endHead();
        if (skipDepth > 0) return;
        const last = current.children[current.children.length - 1];
        if (last?.name === '#text') (last as { text: string }).text += text;
        else current.children.push({ name: '#text', parent: current, children: [], text, staticPosition: true });
      },
      onclosetag() {
        if (openHeadAt === stack.length - 1) openHeadAt = -1;
        const kind = stack.pop();
        if (kind === 'ignored' && openHeadAt >= 0) endHead();
        else if (kind === 'skip') skipDepth--;
        else if (kind === 'open' && current.parent) current = current.parent;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, Tokenizer: PageTokenizer },
  );
  parser.write(html);
  if (flatFrom >= 0) {
    warnings.push(flatReadingWarning(caps));
    const rest = flatText(html.slice(flatFrom));
    if (rest !== '' && skipDepth === 0) current.children.push({ name: '#text', parent: current, children: [], text: rest, staticPosition: true });
  } else {
    parser.end();
  }
  return { root, warnings };
}

const OPEN_NODES: OpenElements<DomNode> = { tagOf: (node) => node.name, parentOf: (node) => node.parent };

/** Lines of a subtree's text in document order: block elements and `<br>` break lines. Iterative. */
export function renderDom(node: DomNode): string[] {
  const lines: string[] = [];
  let parts: string[] = [];
  const flush = (): void => {
    const line = collapseWhitespace(parts.join(''));
    if (line !== '') lines.push(line);
    parts = [];
  };
  const stack: Array<{ node: DomNode; next: number }> = [{ node, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { node: DomNode; next: number };
    const breaks = BLOCK_TAGS.has(frame.node.name) && !INLINE_BLOCK_TAGS.has(frame.node.name);
    if (frame.next === 0 && (breaks || LINE_BREAK_TAGS.has(frame.node.name))) flush();
    if (frame.node.name === '#text') parts.push(frame.node.text);
    if (frame.next >= frame.node.children.length) {
      stack.pop();
      if (breaks) flush();
      continue;
    }
    stack.push({ node: frame.node.children[frame.next++] as DomNode, next: 0 });
  }
  flush();
  return lines;
}
