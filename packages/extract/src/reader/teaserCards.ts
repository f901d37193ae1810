import type { Block } from '../html/blockTree.js';
import type { SubtreeMeasures } from './measures.js';

/** Cards in a row from which a run of look-alike thumbnails with a title each is a rail of teasers, not the article's photos. */
const MIN_CARDS = 3;

/** A teaser's title and its "Watch video": at most this many non-space characters a card. */
const MAX_CARD_CHARS = 100;

/**
 * Runs of one kind holding more than this share of the page's text (non-space characters) are the
 * page's own content, a shop's products or a chart of titles, not a rail beside an article.
 */
const MAX_RUN_SHARE = 0.2;

/**
 * Paragraphs (`<p>`, non-space characters) the page must hold outside its runs of cards: an article
 * beside the rail. A listing's grid of products beside a long footer has none.
 */
const MIN_PROSE_CHARS = 500;

/**
 * Rails of teasers inside an article ("related videos", "more galleries"): `MIN_CARDS` or more
 * sibling blocks in a row, of one tag and one name (digits aside: `rel_1`, `rel_2`), each with a
 * photo, a line of text of at most `MAX_CARD_CHARS` and a link, where a card is a story of the
 * site's other pages; not when the runs of its kind hold more than `MAX_RUN_SHARE` of the page's
 * text (a listing's cards, row after row, are its content), nor on a page without `MIN_PROSE_CHARS` of
 * paragraphs outside them. Marked like the reader's other exclusions (1 = set aside).
 */
export function teaserCards(blocks: readonly Block[], measures: SubtreeMeasures): Uint8Array {
  const marked = new Uint8Array(blocks.length);
  const pageChars = measures.chars[0] as number;
  const children = new Map<Block, Block[]>();
  for (const block of blocks) {
    if (!block.parent) continue;
    const siblings = children.get(block.parent);
    if (siblings) siblings.push(block);
    else children.set(block.parent, [block]);
  }
  const isCard = (block: Block): boolean => {
    const chars = measures.chars[block.index] as number;
    return (measures.images[block.index] as number) > 0 && chars > 0 && chars <= MAX_CARD_CHARS && (measures.linkChars[block.index] as number) > 0;
  };
  const kind = (block: Block): string => `${block.tag} ${block.hint.replace(/\d+/g, '')}`;
  const runs: Block[][] = [];
  for (const siblings of children.values()) {
    let from = 0;
    for (let i = 1; i <= siblings.length; i++) {
      if (i < siblings.length && kind(siblings[i] as Block) === kind(siblings[from] as Block)) continue;
      const run = siblings.slice(from, i);
      if (run.length >= MIN_CARDS && run.every(isCard)) runs.push(run);
      from = i;
    }
  }
  // A grid's rows are runs of one kind: their text counts together.
  const kindChars = new Map<string, number>();
  for (const run of runs) for (const card of run) kindChars.set(kind(card), (kindChars.get(kind(card)) ?? 0) + (measures.chars[card.index] as number));
  const inCard = new Uint8Array(blocks.length);
  for (const run of runs) for (const card of run) inCard.fill(1, card.index, card.end);
  let prose = 0;
  for (const block of blocks) if (block.tag === 'p' && !inCard[block.index]) prose += measures.chars[block.index] as number;
  if (prose < MIN_PROSE_CHARS) return marked;
  for (const run of runs) {
    if ((kindChars.get(kind(run[0] as Block)) as number) > MAX_RUN_SHARE * pageChars) continue;
    for (const card of run) marked.fill(1, card.index, card.end);
  }
  return marked;
}
