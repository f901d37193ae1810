import { buildBlockTree } from '../html/blockTree.js';
import type { ExplainedLine } from './explain.js';

/** How an element's lines fared: all kept, all dropped, or some of each. */
export type ElementVerdict = 'kept' | 'dropped' | 'mixed';

/**
 * What the inspector shows inside the page: no script runs and nothing is fetched (images, fonts,
 * styles from elsewhere), whatever the page asks for. The frame is also `sandbox=""` and the
 * console's own policy applies to it; this is the page's own line of defence.
 */
export const INSPECTED_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

const OUTLINES = `[data-winnow="kept"]{outline:2px solid #1a7f37 !important;outline-offset:-1px}
[data-winnow="dropped"]{outline:2px dashed #cf222e !important;outline-offset:-1px;opacity:.75}
[data-winnow="mixed"]{outline:2px dotted #9a6700 !important;outline-offset:-1px}`;

/** A refresh would navigate the frame to another address (a fetch); it is taken out. */
const META_REFRESH = /<meta\b[^>]*http-equiv\s*=\s*["']?\s*refresh[^>]*>/gi;

const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page marked for the inspector: each element where explained lines start gets
 * `data-winnow="kept|dropped|mixed"`, `data-winnow-block` (its block index) and a `title` saying
 * each line's rule, so that hovering it shows why; a policy and the outlines' style go first.
 * Attributes are written into the element's start tag where the block tree found it
 * (`Block.start`); an element whose start tag is not there (the parser read a rewritten page:
 * React's streamed parts moved) is left unmarked rather than marked wrongly.
 */
export function markedPage(html: string, lines: readonly ExplainedLine[]): { html: string; marked: Map<number, ElementVerdict> } {
  const tree = buildBlockTree(html);
  const byBlock = new Map<number, ExplainedLine[]>();
  for (const line of lines) {
    if (line.block < 0) continue;
    const ofBlock = byBlock.get(line.block) ?? [];
    ofBlock.push(line);
    byBlock.set(line.block, ofBlock);
  }
  const inserts: Array<{ at: number; text: string }> = [];
  const marked = new Map<number, ElementVerdict>();
  for (const [index, ofBlock] of byBlock) {
    const block = tree.blocks[index];
    if (!block || block.start < 0) continue;
    const opening = `<${block.tag}`;
    if (html.slice(block.start, block.start + opening.length).toLowerCase() !== opening) continue;
    const kept = ofBlock.filter((line) => line.kept).length;
    const verdict: ElementVerdict = kept === ofBlock.length ? 'kept' : kept === 0 ? 'dropped' : 'mixed';
    const title = ofBlock.map((line) => `${line.kept ? 'kept' : 'dropped'} (${line.rule}): ${line.reason}`).join('\n');
    marked.set(index, verdict);
    inserts.push({
      at: block.start + opening.length,
      text: ` data-winnow="${verdict}" data-winnow-block="${index}" title="${escapeAttribute(title)}"`,
    });
  }
  inserts.sort((a, b) => b.at - a.at);
  let out = html;
  for (const insert of inserts) out = out.slice(0, insert.at) + insert.text + out.slice(insert.at);
  out = out.replace(META_REFRESH, '');
  const head = `<meta http-equiv="Content-Security-Policy" content="${INSPECTED_PAGE_POLICY}"><style>${OUTLINES}</style>`;
  return { html: head + out, marked };
}
