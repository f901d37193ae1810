import { words as wordsOf } from '../ce/features.js';
import { buildDom, renderDom, type DomNode } from '../html/dom.js';
import { resultOf, type ExtractionResult } from '../result/result.js';

/**
 * The words-leaves ratio family (Insa, Silva, Tamarit: "Using the words/leafs ratio in the DOM tree
 * for content extraction"). `wlr` is the paper's measure; the variants swap the ratio and keep the
 * paper's selection algorithm (Definitions 4.5-4.7): `cnr` characters/nodes (the authors' earlier
 * chars-nodes ratio), `wnr` words/nodes, `clr` characters/leaves.
 */
export type RatioVariant = 'wlr' | 'cnr' | 'wnr' | 'clr';

/** Tags whose single-leaf children are joined into one leaf (paper, Figure 5). */
const JOINABLE = new Set(['#text', 'p', 'a', 'u', 'b', 'i', 'em', 'span', 'sub', 'sup', 'strong', 'div']);

interface Scored {
  node: DomNode;
  id: number;
  children: Scored[];
  words: number;
  chars: number;
  leaves: number;
  nodes: number;
  ratio: number;
  relevance: number;
}

/**
 * Extracts the main content of one page with the WLR algorithm (paper, Algorithm 1), in linear time:
 * 1. the content nodes set C: no non-content or hidden subtrees (`buildDom`), and no subtree
 *    without a word (the notWords fix-point is exactly "keep nodes whose subtree has a word");
 * 2. pre-order ids over C, total words tw(n) and leaves l(n) with the joining rule for inline
 *    formatting, and the ratio of every node;
 * 3. initial nodes I: ratio >= sqrt(maxRatio × ratio(root)); weight W = rpos × rRatio on I;
 *    relevance R(n) = rRatio(n) × max(W(n), Σ R(children)); the best node has the highest R, the
 *    lower id on a tie; its subtree's text is the result, in document order.
 * Our choices where the paper cannot be taken literally: Definition 4.6 multiplies by WLR(n)
 * itself, but every node of C has WLR >= 1 (each leaf holds a word), so R would grow at every step
 * up and the root would always win; we multiply by the normalised rRatio(n) in [0, 1], which stops
 * the climb at ancestors of low density, as the paper's text says it should. Where the paper
 * divides by zero (a single initial node, or all ratios equal) we take 1.
 */
export function extractWithRatio(html: string, variant: RatioVariant = 'wlr'): ExtractionResult {
  const { root, warnings } = buildDom(html);
  const tree = contentTree(root);
  if (!tree) return resultOf(variant, [], [...warnings, 'no words on the page']);
  const order = preOrder(tree);
  // Post-order: children before parents.
  for (let i = order.length - 1; i >= 0; i--) {
    const scored = order[i] as Scored;
    if (scored.children.length > 0) {
      scored.words = sum(scored.children, (child) => child.words);
      scored.chars = sum(scored.children, (child) => child.chars);
      scored.nodes = 1 + sum(scored.children, (child) => child.nodes);
      scored.leaves = joinedLeaves(scored.children);
    }
    const numerator = variant === 'wlr' || variant === 'wnr' ? scored.words : scored.chars;
    const denominator = variant === 'wlr' || variant === 'clr' ? scored.leaves : scored.nodes;
    scored.ratio = numerator / denominator;
  }
  const maxRatio = order.reduce((max, scored) => Math.max(max, scored.ratio), 0);
  const minRatio = order.reduce((min, scored) => Math.min(min, scored.ratio), Infinity);
  const threshold = Math.sqrt(maxRatio * tree.ratio);
  const initial = order.filter((scored) => scored.ratio >= threshold);
  // Pre-order ids: the first and last initial nodes hold the smallest and largest ids.
  const minId = (initial[0] as Scored).id;
  const maxId = (initial[initial.length - 1] as Scored).id;
  const inInitial = new Set(initial);
  let best = tree;
  for (let i = order.length - 1; i >= 0; i--) {
    const scored = order[i] as Scored;
    const position = maxId === minId ? 1 : 1 - (scored.id - minId) / (maxId - minId);
    const relativeRatio = maxRatio === minRatio ? 1 : (scored.ratio - minRatio) / (maxRatio - minRatio);
    const weight = inInitial.has(scored) ? position * relativeRatio : 0;
    scored.relevance =
      relativeRatio *
      Math.max(
        weight,
        sum(scored.children, (child) => child.relevance),
      );
    if (scored.relevance > best.relevance || (scored.relevance === best.relevance && scored.id < best.id)) best = scored;
  }
  return resultOf(
    variant,
    renderDom(best.node).map((text) => ({ path: pathOf(best.node), text })),
    warnings,
  );
}

/** The content nodes set C as a scored tree, or null when the page has no word at all. */
function contentTree(root: DomNode): Scored | null {
  const scoredOf = new Map<DomNode, Scored>();
  const nodes: DomNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as DomNode;
    nodes.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode);
  }
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as DomNode;
    const children = node.children.map((child) => scoredOf.get(child)).filter((child): child is Scored => child !== undefined);
    const words = node.name === '#text' ? wordsOf(node.text).length : 0;
    if (children.length === 0 && words === 0) continue;
    const chars = node.name === '#text' ? node.text.replace(/\s+/g, '').length : 0;
    scoredOf.set(node, { node, id: 0, children, words, chars, leaves: 1, nodes: 1, ratio: 0, relevance: 0 });
  }
  return scoredOf.get(root) ?? null;
}

/** Nodes of the scored tree in pre-order, numbering their ids as it goes (paper, Definition 4.2). */
function preOrder(tree: Scored): Scored[] {
  const order: Scored[] = [];
  const stack = [tree];
  while (stack.length > 0) {
    const scored = stack.pop() as Scored;
    scored.id = order.length;
    order.push(scored);
    for (let i = scored.children.length - 1; i >= 0; i--) stack.push(scored.children[i] as Scored);
  }
  return order;
}

/** The paper's `leaves` (Figure 5): runs of single-leaf formatting children count as one leaf. */
function joinedLeaves(children: readonly Scored[]): number {
  let leaves = 0;
  let joining = false;
  for (const child of children) {
    if (JOINABLE.has(child.node.name) && child.node.staticPosition && child.leaves === 1) {
      joining = true;
    } else {
      leaves += child.leaves;
      if (joining) leaves += 1;
      joining = false;
    }
  }
  return joining ? leaves + 1 : leaves;
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}

/** A readable path of DOM tags from BODY to the node, for the output blocks. */
function pathOf(node: DomNode): string {
  const tags: string[] = [];
  for (let current: DomNode | null = node; current; current = current.parent) tags.push(current.name.toUpperCase());
  return ['HTML', ...tags.reverse()].join('.');
}
