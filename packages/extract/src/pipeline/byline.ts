import { isSameLine, pageLines, type TextLine } from '../html/blockLines.js';
import { wordCount } from '../ce/features.js';
import type { BlockTree } from '../html/blockTree.js';
import type { ExtractedBlock } from '../result/result.js';

/** A byline is a short line: more words than this is a sentence that starts with "By". */
const BYLINE_WORDS = 20;

/** "By …", "Posted by …", "Post written by …", "Reported by …" at the start of a line, or an "Author:" label, followed by a name, anywhere in it. */
const BYLINE = /^(?:(?:posted|written|post written|reported)\s+)?by\s+\p{L}|\bauthor\s*:\s*\p{L}/iu;

/**
 * Whether a line of the article's header is its byline (issue 38: the article's edges): a reader
 * searches an author's name, and a phrase from the headline into the first paragraph crosses it.
 * English forms only: "Autor:" as well brought rp.pl's and goodcontents.net's bylines in, which
 * daniel's gold mostly leaves out (k-fold `pipeline` lcs F1 daniel -0.00004). Datelines stay out:
 * dragnet's gold keeps them, daniel's and cleanportaleval's do not (a line of 20 words or fewer
 * holding a date as well: dragnet +0.0005, daniel -0.0053, cleanportaleval -0.0046). Figures:
 * docs/design.md.
 */
export function isByline(text: string): boolean {
  return BYLINE.test(text) && wordCount(text) <= BYLINE_WORDS;
}

/** How many of the page's lines under the headline may hold its byline (a standfirst, a dateline, a share bar sit between). */
const UNDER_HEADLINE_LINES = 4;
/** Lines of this many words or fewer ("Print", "E-mail", "Text Size") are a toolbar's and do not count among them. */
const TOOL_WORDS = 2;

/**
 * The text with the byline the page shows under its headline, when the text starts with that
 * headline and lacks it: among the page's rendered lines right after the headline
 * (`UNDER_HEADLINE_LINES`, a toolbar's short lines not counted: washingtonpost.com puts "Text
 * Size", "Print", "E-mail", "Reprints" above its bylines), those that read as a byline and that
 * the site does not repeat, each after the text's lines above it (a standfirst). A byline is often
 * a link to the author's page, which the template drops as link text, or sits outside the
 * template's region; the reader drops it as too short to be prose. Figures: docs/design.md.
 */
export function withBylineUnderHeadline(
  tree: BlockTree,
  text: readonly ExtractedBlock[],
  isHeadline: (line: ExtractedBlock) => boolean,
  isSiteLine: (line: TextLine) => boolean = () => false,
): readonly ExtractedBlock[] {
  const headline = text[0];
  if (!headline || !isHeadline(headline)) return text;
  const lines = pageLines(tree);
  const at = lines.findIndex((line) => isSameLine(line, headline));
  if (at < 0) return text;
  const withBylines = [...text];
  let next = 1;
  let counted = 0;
  for (let i = at + 1; i < lines.length && counted < UNDER_HEADLINE_LINES; i++) {
    const line = lines[i] as TextLine;
    if (wordCount(line.text) > TOOL_WORDS) counted++;
    const inText = withBylines[next];
    if (inText && isSameLine(line, inText)) next++;
    else if (isByline(line.text) && !isSiteLine(line) && !text.some((block) => block.text.includes(line.text))) withBylines.splice(next++, 0, line);
  }
  return withBylines.length === text.length ? text : withBylines;
}
