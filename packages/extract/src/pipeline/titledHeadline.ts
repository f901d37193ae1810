import { isSameLine, pageLines, type TextLine } from '../html/blockLines.js';
import type { BlockTree } from '../html/blockTree.js';
import { terms } from '../ce/features.js';
import type { ExtractedBlock } from '../result/result.js';

/** How many rendered lines before the text's first line may hold its headline (dates, bylines and share bars sit between). */
const LINES_BEFORE = 12;

/** A headline candidate's words must be this share in the page's `<title>`: the title repeats the headline, and adds the site's name. */
const IN_TITLE_SHARE = 0.8;

/**
 * A candidate must hold this share of the title's distinct words: less is the site's name or a
 * section's ("News | Site" titles hold both), which a title also repeats.
 */
const MIN_TITLE_SHARE = 0.3;

/**
 * A title of fewer distinct words names the site or a section, and its line in the page header
 * would pass for a headline.
 */
const MIN_TITLE_WORDS = 4;

/**
 * With the site's repeated lines known (a layout), a title of this many words may name a headline:
 * "Site : Two words" names a two-word headline, and a two-word site name ("The Fischbowl: Backwards!",
 * "Fields - Pydantic Validation") is told apart as a line the site repeats. Without a layout the
 * site's name would be taken: pages read alone with 3 words enough got their site's name as a
 * headline on wcxb and dragnet ("Pydantic Validation", "The Fischbowl"). k-fold `pipeline` lcs F1
 * daniel 0.95235 -> 0.95239 (rizospastis.gr's five two-word headlines), dragnet and
 * cleanportaleval unchanged.
 */
const MIN_TITLE_WORDS_KNOWING_SITE = 3;

/** The text's first lines searched for a headline it already has. */
const HEADLINE_LINES = 3;

/**
 * The page's headline, found through its `<title>`, when the extracted text lacks it: the rendered
 * line before the text's first line that repeats most of the title's words (at least
 * `MIN_TITLE_SHARE` of them, and more than any of the text's first lines do), its own words nearly
 * all in the title. Pages put the headline in an H1, an H2, an H3 of a blog's post, a DIV named
 * "title"; the title names it whatever its markup, where the template's headline (`headline` in
 * pipeline.ts) needs an H1/H2 and a template.
 * A line the site repeats at its path on most pages (`isSiteLine`: the layout's repeated lines) is
 * its name, which a title holds too ("Article 2 | The Gazette" above a masthead "The Gazette"),
 * never a headline; knowing them, a shorter title may name one (`MIN_TITLE_WORDS_KNOWING_SITE`).
 * Figures: docs/evaluation.md, docs/design.md.
 */
export function titledHeadline(
  tree: BlockTree,
  title: string,
  text: readonly ExtractedBlock[],
  isSiteLine?: (line: TextLine) => boolean,
): ExtractedBlock | undefined {
  const first = text[0];
  if (!first) return undefined;
  const naming = titleNaming(title, isSiteLine ? MIN_TITLE_WORDS_KNOWING_SITE : MIN_TITLE_WORDS);
  const lines = pageLines(tree);
  const at = lines.findIndex((line) => line.text === first.text);
  let best: ExtractedBlock | undefined;
  let bestScore = Math.max(0, ...text.slice(0, HEADLINE_LINES).map((block) => naming(block.text)));
  for (let i = at - 1; i >= Math.max(0, at - LINES_BEFORE); i--) {
    const line = lines[i] as ExtractedBlock;
    if (isSiteLine?.(line)) continue;
    const score = naming(line.text);
    if (score > bestScore) [best, bestScore] = [line, score];
  }
  return best && !text.some((block) => holdsHeadline(block.text, best.text)) ? best : undefined;
}

/**
 * Whether a line of the text is the headline already: it holds the headline's text and is not
 * twice its length. A story whose first sentence repeats its headline word for word (rus.ruvr.ru)
 * holds it in a paragraph, not as its headline, which then went missing from the text: k-fold
 * `pipeline` lcs F1 daniel 0.95385 -> 0.95397 (3 pages up, none down), dragnet and cleanportaleval
 * unchanged.
 */
function holdsHeadline(line: string, headline: string): boolean {
  return line.includes(headline) && terms(line).length < 2 * terms(headline).length;
}

/** Words from which a line of the headline's header reads as a sentence (a standfirst), not a byline or a label. */
const STANDFIRST_WORDS = 8;

/** The elements a page marks an article's header with. */
const HEADER_ELEMENT = /\.(HEADER|HGROUP)(?=\.)/g;

/**
 * The standfirst under a headline the page's `<title>` names, when the page marks the headline's
 * header (`<header>`, `<hgroup>`): the header's sentences after the headline (`STANDFIRST_WORDS`
 * words or more, under a quarter of them with digits: a dateline is passed over, as the
 * template's standfirst passes it over, and a byline is `withBylineUnderHeadline`'s), that the
 * text lacks and the site does not repeat (issue 38: the article's edges). A page read alone has no template to find the standfirst with,
 * and the reader drops it as too short to be prose. Figures: docs/design.md.
 */
export function headerStandfirst(
  tree: BlockTree,
  heading: ExtractedBlock,
  text: readonly ExtractedBlock[],
  isSiteLine: (line: TextLine) => boolean = () => false,
): ExtractedBlock[] {
  const header = [...heading.path.matchAll(HEADER_ELEMENT)].at(-1);
  if (!header) return [];
  const prefix = `${heading.path.slice(0, (header.index ?? 0) + header[0].length)}.`;
  const lines = pageLines(tree);
  const at = lines.findIndex((line) => isSameLine(line, heading));
  if (at < 0) return [];
  const found: ExtractedBlock[] = [];
  for (let i = at + 1; i < lines.length && (lines[i] as TextLine).path.startsWith(prefix); i++) {
    const line = lines[i] as TextLine;
    const words = terms(line.text);
    const sentence = words.length >= STANDFIRST_WORDS && words.filter((word) => /\d/.test(word)).length < words.length / 4;
    if (sentence && !isSiteLine(line) && !text.some((block) => block.text.includes(line.text))) found.push(line);
  }
  return found;
}

/**
 * The page's headline element: the H1 the title names marks where the article starts. Its text may
 * sit in a SPAN, a block of its own here (`<h1><span>…</span></h1>`: washingtonpost.com).
 */
export const HEADLINE_PATH = /\.H1(?:\.SPAN)*$/;

/**
 * The text from the page's headline on: the lines above the text's first H1 that the page's
 * `<title>` names (its words nearly all in the title, holding `MIN_TITLE_SHARE` of the title's
 * words, as `titledHeadline` finds one) are dropped, when that H1 is among the text's first
 * `LINES_BEFORE` lines (issue 38: the article's edges). An article starts at its headline; what
 * both readings kept above it is the site's, not the article's: a ticker of other stories'
 * first sentences (rus.ruvr.ru: 10 teasers, 356 words, above an 8-word headline), a section's
 * name, a dateline. An H1 the title does not name (the site's logo, a section) cuts nothing, and
 * neither does the titled headline put first (`titledHeadline`: nothing is above it).
 * k-fold `pipeline` lcs F1 daniel 0.94835 -> 0.95115 (43 pages up, none down), dragnet 0.96813 ->
 * 0.96799 (bbc.co.uk's dateline above the headline, which dragnet's gold keeps on some pages and
 * not on others: 6 pages down, 2 up), cleanportaleval 0.93955 -> 0.94058 (10 pages up, none down).
 * Any line the title names instead of an H1 (an H2, a caption, a teaser repeating the headline)
 * cut articles: daniel -0.018. Figures: docs/design.md.
 */
export function fromTitledHeadline(title: string, text: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  const naming = titleNaming(title);
  const at = text.slice(0, LINES_BEFORE).findIndex((block) => HEADLINE_PATH.test(block.path) && naming(block.text) > 0);
  return at > 0 ? text.slice(at) : text;
}

/**
 * How many of the page's `<title>` words a line names when it reads as the title's headline (its
 * words nearly all in the title, `IN_TITLE_SHARE`, holding `MIN_TITLE_SHARE` of the title's
 * words), else 0; always 0 for a title of fewer than `minTitleWords` words (`MIN_TITLE_WORDS`
 * unless the caller knows the site's lines: the site's or a section's name). The site's name
 * qualifies too, with fewer of the title's words than its headline.
 */
export function titleNaming(title: string, minTitleWords = MIN_TITLE_WORDS): (line: string) => number {
  const titleWords = new Set(titleTerms(title));
  if (titleWords.size < minTitleWords) return () => 0;
  return (line) => {
    const words = titleTerms(line);
    const inTitle = words.filter((word) => titleWords.has(word));
    const named = new Set(inTitle).size;
    return words.length >= 2 && inTitle.length >= IN_TITLE_SHARE * words.length && named >= MIN_TITLE_SHARE * titleWords.size ? named : 0;
  };
}

/** A CJK character: in a script written without spaces, each is a word of the title for this comparison. */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/**
 * A text's words, each CJK character one of them: a Chinese or Japanese headline has no spaces, so
 * as one word it was never two words of its page's title, and the title "headline - section - site"
 * counted three words, too few to name a headline.
 */
function titleTerms(text: string): string[] {
  return terms(text.replace(CJK_CHAR, ' $& '));
}
