import { buildBlockTree, type Block, type BlockTree } from '../html/blockTree.js';
import { mainBlockOf } from '../mainblock/mainBlock.js';
import type { TextLine } from '../html/blockLines.js';
import { resultOf, type ExtractionResult } from '../result/result.js';
import { chooseArticle } from './article.js';
import { articleLines } from './articleText.js';
import { cleanConditionally, dropTeasers } from './cleaning.js';
import { asideSubtrees, excludedBlocks } from './exclusions.js';
import { FRAGMENT_SHARE, mainBlockReplacesArticle } from './fragment.js';
import { nonSpaceChars } from '../html/whitespace.js';
import { subtreeMeasures, type SubtreeMeasures } from './measures.js';
import { paragraphsOf } from './paragraphs.js';
import { contentScores, LONG_PARAGRAPH_CHARS } from './scores.js';
import { textLength } from './textLength.js';
import { withoutSiteBoxes } from '../siteBoxes/siteBoxes.js';
import { withoutTrailingPrompts } from './trailingPrompts.js';
import { withDeclaredPosts } from './declaredPosts.js';

/**
 * A reading with less text than this (`textLength`: non-space characters, about Readability's 500
 * characters with spaces, a CJK character counting three) is read again without the name rules;
 * 300 and 500 score lower in sum over the shared datasets.
 */
const MIN_ARTICLE_LENGTH = 400;

/** Whether one reading trusts the blocks' names: to strip blocks, to weigh them, to clean the article. */
interface Rules {
  readonly byName: boolean;
}

/**
 * Every rule first; when that leaves less than `MIN_ARTICLE_LENGTH`, the names misled (a page
 * builder's wrappers, a layout class that names a sidebar), and the page is read again by its text
 * alone (no weights, no conditional cleaning, and only comment sections set aside by name), and
 * the longer reading is kept.
 * Readability steps down one rule at a time; on the shared datasets, going straight to no rules
 * scores as well or higher.
 *
 * Both the threshold and "longer" are `textLength`, where a CJK character weighs three letters.
 * In plain characters, a short Chinese story (80 characters in three paragraphs) fell under the
 * threshold, the reading without names took the page's English footer in a `div.footer` (its two
 * sentences outscore paragraphs of 24-30 characters), and that footer, 200 letters, was "longer":
 * the page was indexed as its footer. The weight goes into these two comparisons of readings only;
 * put into every length the reader measures, it moved daniel's Chinese pages both ways.
 * Figures: docs/evaluation.md, docs/design.md.
 */
const READINGS: readonly Rules[] = [{ byName: true }, { byName: false }];

/**
 * `reader`: a single-page reading of Readability's quality on the block tree, without a DOM —
 * one htmlparser2 pass and a few linear passes over the blocks (2-3 ms a page here).
 *
 * 1. Blocks that are never the article are set aside: figures and captions, forms that are forms,
 *    and blocks named as sidebars, comments, sharing and the like (`exclusions.ts`).
 * 2. Paragraphs (`paragraphs.ts`) score their containers as Readability scores them, with link text
 *    discounted (`scores.ts`); the best container, its near-equal neighbours' common ancestor and
 *    its siblings of prose, and blocks elsewhere named like it under a parent named like its
 *    parent, make the article (`article.ts`).
 * 3. Inside the article, tables, lists and containers that do not read as prose are dropped
 *    (`cleaning.ts`), and so are the entries of link lists (`articleText.ts`).
 * 4. On a page that declares itself neither an article nor a product, a reading under half of the
 *    page's `<main>` element gives way to the whole `<main>` (`mainElementReading`); else, when
 *    every reading is short and the page read as a listing is many times longer
 *    (`listingReplacesArticle`), the page is a listing, and it is read so.
 * 5. When the article is a fragment of the page's main block (`readersMainBlock`, without the
 *    nav, aside and footer elements and their roles, and without teaser cards), the main block is
 *    read instead (`fragment.ts`).
 * Each module's comment says what it chose and on which data. Never throws but the typed
 * `ExtractionError`s of `buildBlockTree` (empty or binary input).
 */
export function extractReader(html: string): ExtractionResult {
  const result = readTree(buildBlockTree(html));
  // The site's boxes told by their lines' form go from a single-page reading as from the pipeline's.
  // So do the invitations and credits ending the text (`withoutTrailingPrompts`), from the reading only.
  const blocks = withoutTrailingPrompts(withoutSiteBoxes(result.blocks));
  return blocks === result.blocks ? result : resultOf('reader', [...blocks], result.warnings);
}

/** `extractReader` on a page already read into a block tree, for callers that read it otherwise too. */
export function readTree(tree: BlockTree): ExtractionResult {
  return readings(tree, { proseSections: true }).alone;
}

/** How `readings` cleans the article. */
export interface ReadingOptions {
  /**
   * Keep the sections of prose between the article's paragraphs that hold a fifth to a half link
   * text (`cleanConditionally`'s `isSectionOfProse`): the `reader` method's reading only. In the
   * pipeline's self-check they came back beside ria.ru's template and rp.pl's, and k-fold pipeline
   * lcs F1 fell on daniel from 0.95235 to 0.95132 (dragnet -0.0001, cleanportaleval unchanged).
   */
  readonly proseSections?: boolean;
}

/** A page's two readings (`readings`); the same result twice unless the page read alone is its `<main>` or its listing. */
export interface Readings {
  /**
   * The page read as an article, never as its listing or its `<main>`: what the pipeline's
   * self-check compares with its template. Beside a template, two news sites' one-paragraph
   * stories (poynter.org, jezebel.com) read as listings overruled the template, and dragnet's
   * k-fold lcs F1 fell from 0.9681 to 0.9664.
   */
  readonly article: ExtractionResult;
  /**
   * The page as the reader reads it alone (`readTree`): a page that declares no article or product
   * as its `<main>` (`mainElementReading`), a page without an article as its listing
   * (`listingReplacesArticle`).
   */
  readonly alone: ExtractionResult;
}

/**
 * Both readings of a page from one reading of its article: the pipeline needs the article's for its
 * self-check and the other for a page no template fits, which it read twice before.
 */
export function readings(tree: BlockTree, options: ReadingOptions = {}): Readings {
  const measures = subtreeMeasures(tree);
  let best: TextLine[] = [];
  let bestLength = -1;
  for (const rules of READINGS) {
    const lines = readArticle(tree, measures, rules, options.proseSections === true);
    const length = lengthOf(lines, textLength);
    if (length > bestLength) {
      best = lines;
      bestLength = length;
    }
    if (length >= MIN_ARTICLE_LENGTH) break;
  }
  const article = articleOrMainBlock(tree, measures, best);
  let alone: ExtractionResult | undefined;
  return {
    article,
    // Read when asked: a page its template reads never needs its `<main>` or its listing.
    get alone(): ExtractionResult {
      alone ??= mainElementReading(tree, measures, lengthOf(article.blocks, textLength)) ?? listingReading(tree, measures, bestLength) ?? article;
      return alone;
    },
  };
}

/** A reading with less than this share of the page's `<main>` element's text is a part of it (`mainElementReading`). */
const MAIN_ELEMENT_SHARE = 0.5;

/**
 * The page's `<main>` element read whole, without its `nav`, `aside`, `footer`, `header` and forms,
 * in place of a reading that holds less than half of its text, on a page that declares itself
 * neither an article nor a product (`BlockTree.declares`). A service's landing page is sections of a
 * few lines each, a listing its entries, a collection its cards: the scoring settles on one section,
 * or on the intro, and the rest of what the page's `<main>` holds is lost. The page's own markup
 * says where its content is, and one that calls itself an article says that the article is the
 * content, not the comments or the stream of stories its `<main>` also holds. Counted on every
 * shared dataset before building it (WCXB's word F1 summed over the pages whose reading changes):
 * on every page, wcxb +4.5 over 51 pages, but scrapinghub's blog post with its open thread (-0.80)
 * and readability's wptavern.com story with its comments (-0.54), both declared articles, and wcxb's
 * shop pages, whose `<main>` holds reviews and recommendations (17 pages -3.4, most declared
 * products). Built: wcxb +10.0 over 49 pages (34 up, 9 down), no page of another dataset; under a
 * third, +7.6 over 23 pages counted before; under two thirds, +10.8 over 69, 17 down.
 */
function mainElementReading(tree: BlockTree, measures: SubtreeMeasures, readingLength: number): ExtractionResult | undefined {
  if (tree.declares.article || tree.declares.product) return undefined;
  const main = theMainElement(tree);
  if (!main) return undefined;
  const dropped = asideSubtrees(tree, measures);
  for (let i = main.index + 1; i < main.end; i++) {
    const block = tree.blocks[i] as Block;
    if (block.tag === 'header' || block.tag === 'form' || block.role === 'banner') dropped.fill(1, i, block.end);
  }
  const lines = articleLines(tree, [main], dropped);
  if (readingLength >= MAIN_ELEMENT_SHARE * lengthOf(lines, textLength)) return undefined;
  return resultOf('reader', lines, [...tree.warnings, "the reading is part of the page's <main>: read whole"]);
}

/**
 * The page's one `<main>` element (the outer one when two nest), or undefined when it has none or
 * several. Not a `role="main"` block: older pages put the role on the column that holds the story
 * with its comments and related stories, which came in whole (readability's archive-of-our-own
 * page 1.00 -> 0.68 lcs F1, three of dragnet's pages -0.32 to -0.45, a daniel abcnews.go.com page
 * -0.71: reader shingle F1 readability -0.0018, dragnet -0.0008, daniel -0.0004).
 */
function theMainElement(tree: BlockTree): Block | undefined {
  let main: Block | undefined;
  for (const block of tree.blocks) {
    if (block.tag !== 'main') continue;
    if (main && block.index < main.end) continue;
    if (main) return undefined;
    main = block;
  }
  return main;
}

/** The page read as its listing, when its article's reading is short and the listing many times longer (`listingReplacesArticle`). */
function listingReading(tree: BlockTree, measures: SubtreeMeasures, articleLength: number): ExtractionResult | undefined {
  if (articleLength >= MIN_ARTICLE_LENGTH) return undefined;
  const listing = listingLines(tree, measures);
  if (!listingReplacesArticle(articleLength, lengthOf(listing, textLength))) return undefined;
  return resultOf('reader', listing, [...tree.warnings, 'no article: the page read as its listing']);
}

/** The article's reading, or the page's main block when the article is a fragment of it. */
function articleOrMainBlock(tree: BlockTree, measures: SubtreeMeasures, best: TextLine[]): ExtractionResult {
  // The main block is part of the page: when the article holds a third of the page's text, it
  // cannot be a fragment of the main block, and the main block need not be read.
  if (lengthOf(best, nonSpaceChars) >= FRAGMENT_SHARE * (measures.chars[0] as number)) return resultOf('reader', best, tree.warnings);
  const mainBlock = readersMainBlock(tree, measures);
  if (mainBlockReplacesArticle(best, mainBlock.lines)) {
    return resultOf('reader', mainBlock.lines, [...mainBlock.warnings, 'the article is a fragment of the main block: read by mainblock']);
  }
  return resultOf('reader', best, tree.warnings);
}

/**
 * The page's main block as the reader reads it in place of its article: without the page's `nav`,
 * `aside` and `footer` subtrees (`asideSubtrees`), and without the teaser cards the article's own
 * cleaning drops (`dropTeasers`, judged against the whole page): a "related stories" box of cards
 * after a short story is no fuller version of that story. Before, the cards counted towards the
 * main block, made the story look like a fragment of it, and came back with it (ria.ru's related
 * cards).
 */
export function readersMainBlock(tree: BlockTree, measures: SubtreeMeasures = subtreeMeasures(tree)): ReturnType<typeof mainBlockOf> {
  const setAside = asideSubtrees(tree, measures);
  dropTeasers(tree.blocks, measures, [tree.blocks[1] as Block], setAside);
  return mainBlockOf(tree, setAside);
}

function readArticle(tree: BlockTree, measures: SubtreeMeasures, rules: Rules, proseSections: boolean): TextLine[] {
  const excluded = excludedBlocks(tree, measures, rules.byName);
  const scores = contentScores(tree, measures, paragraphsOf(tree, measures, excluded), excluded, rules.byName);
  // Without a scored paragraph, the whole page is the article, and the cleaning decides.
  const body = tree.blocks[1] as Block;
  const parts = withDeclaredPosts(tree, chooseArticle(tree, measures, scores) ?? [body]);
  const dropped = excluded.slice();
  if (rules.byName) cleanConditionally(tree, measures, parts, dropped, proseSections);
  return articleLines(tree, parts, dropped);
}

function lengthOf(lines: readonly TextLine[], measure: (text: string) => number): number {
  let length = 0;
  for (const line of lines) length += measure(line.text);
  return length;
}

/** A reading shorter than one long paragraph (`LONG_PARAGRAPH_CHARS`) is no article beside a listing this many times longer. */
const LISTING_OVER_FRAGMENT = 3;
/** Any short reading (under `MIN_ARTICLE_LENGTH`) is no article beside a listing this many times longer. */
const LISTING_OVER_SHORT_READING = 20;

/**
 * Whether a short reading gives way to the page read as a listing (`listingLines`). A listing, a
 * shop's category or a news front page has teasers and cards, each mostly a link, and no paragraph
 * of prose: the scoring then settles on whatever short prose the page has (a cookie notice, a byline,
 * a category's one-line blurb), and the main block on its footer. Both the reading's length and the
 * listing's are `textLength`. Chosen on every shared dataset (docs/design.md, "The reader: pages
 * that are listings"): a short news story's page is read as its listing too, with every sidebar, so
 * a reading of one long paragraph or more needs a listing 20 times longer; with 3 times for every
 * short reading, scrapinghub lost 0.0047 (jpost.com's and wsj.com's one-paragraph stories) and
 * daniel 0.0015.
 */
function listingReplacesArticle(readingLength: number, listingLength: number): boolean {
  const times = readingLength < LONG_PARAGRAPH_CHARS ? LISTING_OVER_FRAGMENT : LISTING_OVER_SHORT_READING;
  return listingLength >= times * Math.max(readingLength, 1);
}

/**
 * The page as a listing: the body without what the reader sets aside when it trusts names
 * (`excludedBlocks`: sidebars, comments, sharing, forms, figures) and without the page's `nav`,
 * `aside` and `footer` (`asideSubtrees`), in document order. Its links stay when they are the
 * larger part of it, as an article's do (`articleLines`).
 */
function listingLines(tree: BlockTree, measures: SubtreeMeasures): TextLine[] {
  const dropped = excludedBlocks(tree, measures, true);
  const aside = asideSubtrees(tree, measures);
  for (let i = 0; i < dropped.length; i++) if (aside[i]) dropped[i] = 1;
  return articleLines(tree, [tree.blocks[1] as Block], dropped);
}
