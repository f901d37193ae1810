import { z } from 'zod';
import { type BlockTree, buildBlockTree } from '../html/blockTree.js';
import { ExtractionError } from '../result/errors.js';
import { compileTemplate, templateReading } from '../fastce/detect.js';
import { prepareTemplate } from '../fastce/prepare.js';
import { FASTCE_PLUS_PARAMS, parseTemplate } from '../fastce/template.js';
import { terms } from '../ce/features.js';
import { readings } from '../reader/reader.js';
import { type ExtractedBlock, type ExtractionResult, type PageExtractor, resultOf } from '../result/result.js';
import { evenlySpread } from '../fastce/sampling.js';
import { mostSimilar, pathsOf, sharedPaths } from '../html/structure.js';
import { documentTitle } from '../html/title.js';
import { groupByLayout, SAME_LAYOUT } from './layouts.js';
import { isRepeatedLine, pageLineKeys, repeatedLineKeys } from './repeatedLines.js';
import { pageLines, type TextLine } from '../html/blockLines.js';
import { fromTitledHeadline, HEADLINE_PATH, headerStandfirst, titledHeadline, titleNaming } from './titledHeadline.js';
import { trimLetterlessEdges, withListAfterTrailingLabel } from './articleEdges.js';
import { withBylineUnderHeadline } from './byline.js';
import { withoutSiteBoxes } from '../siteBoxes/siteBoxes.js';
import { withoutBreadcrumbs } from './breadcrumbHeading.js';
import { RUN, WordRuns } from './wordRuns.js';
import type { DecisionRecorder } from '../result/decisions.js';

/** Pages read to find a page type's layouts; the grouping costs the cube of this. */
const MAX_LAYOUT_SAMPLE = 90;

/**
 * A layout with fewer sample pages than this gets no template: what repeats is boilerplate, and one
 * page shows no repetition. Two do, and the self-check guards the pair's reading. A site's older
 * design often survives in a handful of its pages. Figures: docs/evaluation.md, docs/design.md.
 */
const MIN_LAYOUT_PAGES = 2;

/**
 * A page sharing less than this (Jaccard of block paths) with the nearest layout's signature is of
 * none of the prepared layouts (a design the sample pages lacked): it is read alone, which the
 * extractor counts as drift. Nearly every page shares far more with its own layout, and a page of
 * another site far less; without it such a page got the other design's reading whenever that was a
 * small part of the reader's. Figures: docs/evaluation.md, docs/design.md.
 */
const FITS_LAYOUT = 0.3;

/**
 * Words from which a text reads as a sentence of prose, not a label, caption or teaser: a reader's
 * line the template cannot judge then stands (`agreement`), and a template reading shorter than
 * this cannot overrule the reader's (`compilePipeline`).
 */
const PROSE_WORDS = 20;

/**
 * The two readings agree when at least this share of either one's words is held by the other:
 * "most of it". Chosen, not fitted; measured on the shared datasets' k-fold runs (see
 * `compilePipeline`).
 */
export const MIN_AGREEMENT = 0.5;

/** Bumped whenever the meaning of a stored pipeline template changes; older ones are refused. */
export const PIPELINE_SCHEMA_VERSION = 1;

const layoutSchema = z.object({
  /** Block paths at least half of the layout's sample pages have: how a page is matched to it. */
  signature: z.array(z.string().min(1)),
  pageCount: z.number().int().positive(),
  /**
   * Keys of the lines the layout's (or its page type's) sample pages repeat at the same path
   * (`repeatedLineKeys`); none in templates stored before them.
   */
  repeatedLines: z.array(z.number().int().nonnegative()).default([]),
  template: z.unknown().transform((value) => parseTemplate(value)),
});

const pipelineTemplateSchema = z.object({
  kind: z.literal('pipeline'),
  schemaVersion: z.literal(PIPELINE_SCHEMA_VERSION),
  layouts: z.array(layoutSchema),
});

/** A page type's template for `pipeline`: one fastce+ template per layout of its pages. */
export type PipelineTemplate = z.infer<typeof pipelineTemplateSchema>;
type Layout = PipelineTemplate['layouts'][number];

export function parsePipelineTemplate(value: unknown): PipelineTemplate {
  const parsed = pipelineTemplateSchema.safeParse(value);
  if (!parsed.success) throw new ExtractionError('invalid-template', `not a pipeline template: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

interface Readable {
  html: string;
  structure: Set<string>;
  lines: Set<number>;
}

/**
 * The pipeline's preparation: the sample pages are grouped by layout (`groupByLayout`) and every
 * layout with at least `MIN_LAYOUT_PAGES` pages gets a fastce+ template of its own. Pages that
 * cannot be read (binary, undecodable) are skipped with one warning each. With no layout large
 * enough the template has no layouts and every page is read by the single-page reader.
 */
export function preparePipeline(pages: readonly string[]): { template: PipelineTemplate; warnings: string[] } {
  const warnings: string[] = [];
  const readable: Readable[] = [];
  for (const [html, index] of evenlySpread(
    pages.map((page, i) => [page, i] as const),
    MAX_LAYOUT_SAMPLE,
  )) {
    try {
      const tree = buildBlockTree(html);
      readable.push({ html, structure: pathsOf(tree), lines: pageLineKeys(tree) });
    } catch (error) {
      if (!(error instanceof ExtractionError)) throw error;
      warnings.push(`page ${index} skipped: ${error.message}`);
    }
  }
  const groups = groupByLayout(readable.map((page) => page.structure)).filter((group) => group.length >= MIN_LAYOUT_PAGES);
  if (groups.length === 0 && readable.length >= 2) groups.push(readable.map((_, i) => i));
  const layouts: Layout[] = groups.map((group) => {
    const members = group.map((i) => readable[i] as Readable);
    const prepared = prepareTemplate(
      members.map((page) => page.html),
      { params: FASTCE_PLUS_PARAMS },
    );
    warnings.push(...prepared.warnings);
    return {
      signature: sharedPaths(members.map((page) => page.structure)),
      pageCount: members.length,
      repeatedLines: repeatedLineKeys(
        members.map((page) => page.lines),
        readable.map((page) => page.lines),
      ),
      template: prepared.template,
    };
  });
  if (layouts.length === 0) warnings.push(`${readable.length} readable page(s): too few for a template, every page is read alone`);
  return { template: { kind: 'pipeline', schemaVersion: PIPELINE_SCHEMA_VERSION, layouts }, warnings };
}

/**
 * The pipeline's extractor, what the extractor service runs: a page is parsed once; the template
 * of the layout nearest its structure reads it, and so does the single-page reader; then the
 * self-check decides, and a warning says why whenever the page is read alone:
 * - first, the reader's lines that the sample pages repeat at the same path (a fifth of the
 *   layout's or of the page type's, `repeatedLineKeys`) are dropped: the site's own text (a
 *   browser-upgrade notice, a subscription pitch, a source line) is no page's, and a reader may take it for the article of a page with
 *   little text (bbc.co.uk's video pages). Keyed by text alone, a recent post's headline, which a "latest
 *   posts" box repeats on every page of a crawl, would go from its own page too.
 * - the readings agree (most of the reader's words are in the template's reading, or most of the
 *   template's in the reader's): the reader's lines that the template's text also holds
 *   (`WordRuns`), in order. The template removes what repeats across the site (a standard "share
 *   this" paragraph inside the article), the reader what changes from page to page (related
 *   links, comments). A reader line at a path the layout's pages do not usually have is kept
 *   (`agreement`), and the template's headline (and an H2 standfirst under it) goes first when the
 *   reader left it out (`headline`), its standfirst sentence before the article's first line
 *   (`standfirst`).
 * - the page is of none of the template's layouts (`FITS_LAYOUT`), the readings share little, none
 *   of the reader's lines is confirmed, or the template does not fit the page or keeps nothing: the
 *   reader's.
 * - the reader finds no text (or only the site's): the template's.
 * - whichever reading is used, the page's headline goes first when the text lacks it and the
 *   page's `<title>` names it (`titledHeadline`), unless the layout's pages repeat that line (the
 *   site's name), with the standfirst of its own `<header>` (`headerStandfirst`); a heading written
 *   as a breadcrumb keeps only its last part (`withoutBreadcrumbs`); lines without a letter at the
 *   text's edges (counters, separators) go (`trimLetterlessEdges`); the byline the page shows under
 *   the headline comes after it (`withBylineUnderHeadline`); a last line ending in a colon brings
 *   the list it introduces (`withListAfterTrailingLabel`).
 * On the k-fold runs of the shared datasets (sites with 10+ pages), where the two readings shared
 * little, the template's reading was right more often than not when it was mostly inside the
 * reader's (the reader had taken comments or a listing along): hence agreement in either
 * direction. Where they share nothing, the reader wins more often (the template is of another layout).
 * The second direction needs a page of the template's own layout (`SAME_LAYOUT`), not only one near
 * it (`FITS_LAYOUT`): every page it helped on those runs shared 0.6 or more of its layout's paths. A
 * site's rare page type nearest a common one (bbc.co.uk's sport story among its news layout) kept
 * only what both designs share, its headline and a table's caption. It also needs the template to
 * keep a sentence of prose (`PROSE_WORDS`): a template that learnt from sample pages repeating
 * their paragraphs keeps a story's headline alone, which overruled the whole story.
 * Figures: docs/evaluation.md, docs/design.md.
 */
export function compilePipeline(template: PipelineTemplate): PageExtractor {
  const layouts = template.layouts.map((layout) => ({
    pageCount: layout.pageCount,
    signature: new Set(layout.signature),
    repeatedLines: new Set(layout.repeatedLines),
    compiled: compileTemplate(layout.template),
  }));
  /** The page's reading, and the layout it was read with (none when it was read alone for want of one). */
  const read = (tree: BlockTree, title: string, recorder?: DecisionRecorder): { result: ExtractionResult; layout?: LayoutFacts } => {
    const pageReadings = readings(tree);
    const single = pageReadings.article;
    // Without a template that fits (no layout of its page type yet, a redesign), the page is read as
    // the reader reads it: a front page without prose as its list of stories, not its cookie notice.
    const readWithoutTemplate = (why: string) => {
      recorder?.record({ kind: 'reader-reading', lines: pageReadings.alone.blocks });
      return alone(pageReadings.alone, why);
    };
    const nearest = mostSimilar(pathsOf(tree), layouts, (layout) => layout.signature);
    if (!nearest) return { result: readWithoutTemplate('no template for this page type yet') };
    if (nearest.similarity < FITS_LAYOUT) {
      return {
        result: readWithoutTemplate(
          `the page has none of the template's layouts (the nearest shares ${Math.round(100 * nearest.similarity)}% of its block paths)`,
        ),
      };
    }
    const layout = nearest.candidate;
    recorder?.record({ kind: 'layout', pageCount: layout.pageCount, similarity: nearest.similarity });
    const reading = templateReading(layout.compiled, tree, recorder);
    if (reading.misfit !== undefined) return { result: readWithoutTemplate(reading.misfit), layout };
    recorder?.record({ kind: 'template-reading', lines: reading.blocks });
    recorder?.record({ kind: 'reader-reading', lines: single.blocks });
    const facts = { ...layout, contentPaths: layout.compiled.contentPaths, ofLayout: nearest.similarity >= SAME_LAYOUT };
    return { result: selfCheck(single, reading.blocks, facts, aboveTitledHeadline(tree, title), recorder), layout };
  };
  return (html, recorder): ExtractionResult => {
    const tree = buildBlockTree(html);
    const title = documentTitle(html);
    const { result, layout } = read(tree, title, recorder);
    if (recorder && result.readAlone) recorder.record({ kind: 'read-alone', why: result.warnings.at(-1) ?? '' });
    const isSiteLine = layout ? (line: TextLine) => isRepeatedLine(line, layout.repeatedLines) : undefined;
    const heading = titledHeadline(tree, title, result.blocks, isSiteLine);
    if (heading) recorder?.record({ kind: 'headline', line: heading, source: 'title' });
    const underHeading = heading ? headerStandfirst(tree, heading, result.blocks, isSiteLine) : [];
    if (recorder) for (const line of underHeading) recorder.record({ kind: 'standfirst', line });
    const blocks = heading ? [heading, ...underHeading, ...result.blocks] : result.blocks;
    const trimmed = trimLetterlessEdges(withoutSiteBoxes(fromTitledHeadline(title, withoutBreadcrumbs(blocks) ?? blocks)));
    const bylined = withBylineUnderHeadline(tree, trimmed, (line) => line === heading || HEADLINE_PATH.test(line.path), isSiteLine);
    const edged = withListAfterTrailingLabel(tree, bylined);
    if (recorder && bylined !== trimmed) for (const line of bylined) if (!trimmed.includes(line)) recorder.record({ kind: 'byline', line });
    if (recorder && edged !== bylined) for (const line of edged.slice(bylined.length)) recorder.record({ kind: 'list-after-label', line });
    return edged === result.blocks ? result : { ...result, ...resultOf('pipeline', [...edged], result.warnings) };
  };
}

/** What the self-check knows of the page's layout: its usual block paths and the lines its pages repeat. */
interface LayoutFacts {
  signature: ReadonlySet<string>;
  repeatedLines: ReadonlySet<number>;
}

/** The layout facts, the paths its template reads, and whether the page is of that layout (`SAME_LAYOUT`) or only nearest to it. */
interface NearestLayout extends LayoutFacts {
  contentPaths: ReadonlySet<string>;
  ofLayout: boolean;
}

function selfCheck(
  whole: ExtractionResult,
  templated: readonly ExtractedBlock[],
  layout: NearestLayout,
  aboveHeadline: (line: ExtractedBlock) => boolean,
  recorder?: DecisionRecorder,
): ExtractionResult {
  // The site's own lines are no page's text, whichever reading wins.
  const wholeLines = whole.blocks.map((block) => terms(block.text));
  const kept = whole.blocks.map((block, i) => !isRepeatedLine(block, layout.repeatedLines, wholeLines[i]));
  if (recorder) {
    whole.blocks.forEach((line, i) => {
      if (!kept[i]) recorder.record({ kind: 'repeated-line', line });
    });
  }
  const single = { ...whole, blocks: whole.blocks.filter((_, i) => kept[i]) };
  const readerLines = wholeLines.filter((_, i) => kept[i]);
  const readerWords = wordCount(readerLines);
  if (readerWords === 0) {
    const why = whole.blocks.length === single.blocks.length ? 'is empty' : "holds only text the site's pages repeat";
    recorder?.record({ kind: 'template-only', why: `the single-page reading ${why}` });
    return resultOf('pipeline', [...templated], [...single.warnings, `the single-page reading ${why}: the template's reading is used`]);
  }
  const templateLines = templated.map((block) => terms(block.text));
  const templateText = new WordRuns(templateLines);
  const confirmed = readerLines.map((words) => templateText.holdsMostOf(words));
  const confirmedWords = wordCount(readerLines.filter((_, i) => confirmed[i]));
  const readerText = new WordRuns(readerLines);
  if (confirmedWords < MIN_AGREEMENT * readerWords) {
    // The other direction: is most of the template's reading inside the reader's? Only a template
    // of the page's own layout, keeping at least a sentence, may overrule most of the reader's reading.
    const templateWords = wordCount(templateLines);
    const heldWords = wordCount(templateLines.filter((words) => readerText.holdsMostOf(words)));
    if (heldWords < MIN_AGREEMENT * templateWords || confirmedWords === 0 || !layout.ofLayout || templateWords < PROSE_WORDS) {
      const percent = (part: number, whole: number) => Math.round((100 * part) / Math.max(1, whole));
      const nearOnly = layout.ofLayout ? '' : ", and the page is only near the template's layout";
      const tiny = templateWords < PROSE_WORDS ? `, and the template keeps ${templateWords} word(s), less than a sentence` : '';
      return alone(
        single,
        `the template confirms ${percent(confirmedWords, readerWords)}% of the single-page reading, which holds ${percent(heldWords, templateWords)}% of the template's${nearOnly}${tiny}`,
      );
    }
  }
  const held = heldByReader(templated, templateLines, readerLines, readerText);
  const heading = headline(templated, templateLines, held);
  if (recorder) for (const line of heading) recorder.record({ kind: 'headline', line, source: 'template' });
  const standfirstLines = standfirst(templated, templateLines, held, layout.repeatedLines, aboveHeadline);
  if (recorder) for (const line of standfirstLines) recorder.record({ kind: 'standfirst', line });
  return agreement(heading, standfirstLines, single, readerLines, confirmed, layout, recorder);
}

/**
 * The reader's lines the template confirms, and those the template cannot judge, where the reader's
 * choice stands:
 * - lines at paths the layout does not usually have (a blockquote, a table or a closing section
 *   most sample pages lack), anywhere, not only between two confirmed lines.
 * - after the article's first confirmed line, sentences of prose (`PROSE_WORDS`) at a path where no
 *   sample page had content: the template knows that path only as the site's own short lines (a
 *   share list inside the article), so it drops by path what it never compared, such as an
 *   article's bulleted points or its second section. The same holds at a path where the confirmed lines
 *   of the article sit: what continues after an interruption at the article's own depth (a blog's
 *   "continue reading" block beside the post's first part, the article's second page block) is
 *   the same article, which the template cuts where its sample pages' main region ended; so is
 *   prose right inside a block at the depth of the article's container (TypePad's "continue
 *   reading" part, `div.entry-more`, holds its text without a paragraph). The article's path is
 *   the one whose confirmed lines hold the most words (`mostWordsPath`): any confirmed line's path
 *   let a list of teasers back in once the template had confirmed one of them. Any line there, not
 *   only prose, also took datelines, bylines and "Related:" links along.
 * - a line of any length right between two confirmed lines at the article's path, when it ends
 *   with a full stop (`SENTENCE_END`): the article goes on through it. The template drops a
 *   sentence a few sample pages share by similarity (a post quoting another), though the site does
 *   not repeat it (`repeatedLines`); a link's title there ("Pictures: …", "Complete coverage: …",
 *   "… with guns?") ends otherwise and stays out. Issue 38: paragraphs dropped inside. Figures:
 *   docs/evaluation.md, docs/design.md.
 * - a run of such sentences, or a list of the article's own, in a gap between two kept lines of the
 *   article's container (`continuedLines`).
 */
function agreement(
  heading: readonly ExtractedBlock[],
  standfirstLines: readonly ExtractedBlock[],
  single: ExtractionResult,
  readerLines: readonly string[][],
  confirmed: readonly boolean[],
  layout: NearestLayout,
  recorder?: DecisionRecorder,
): ExtractionResult {
  const articleStart = confirmed.indexOf(true);
  const sameLine = (j: number): boolean => confirmed[j] === true && single.blocks[j]?.path === articlePath;
  const sandwiched = (i: number): boolean => sameLine(i - 1) && sameLine(i + 1);
  const articlePath = mostWordsPath(single.blocks, readerLines, confirmed);
  const articleContainer = articlePath?.slice(0, articlePath.lastIndexOf('.'));
  const ownChoice = (block: ExtractedBlock, i: number): boolean =>
    !layout.signature.has(block.path) ||
    (block.path === articlePath && sandwiched(i) && SENTENCE_END.test(block.text)) ||
    (i > articleStart &&
      (readerLines[i] as string[]).length >= PROSE_WORDS &&
      (block.path === articlePath || block.path === articleContainer || !layout.contentPaths.has(block.path)));
  const anchors = single.blocks.map((block, i) => confirmed[i] === true || ownChoice(block, i));
  const continued = continuedLines(single.blocks, readerLines, anchors, articlePath);
  const unjudged = (block: ExtractedBlock, i: number): boolean => ownChoice(block, i) || continued.has(i);
  const agreed = single.blocks.flatMap((block, i) => (i === articleStart ? [...standfirstLines, block] : confirmed[i] || unjudged(block, i) ? [block] : []));
  if (recorder) {
    single.blocks.forEach((line, i) => {
      if (!confirmed[i]) recorder.record({ kind: unjudged(line, i) ? 'unjudged' : 'unconfirmed', line });
    });
  }
  return resultOf('pipeline', [...heading, ...agreed], single.warnings);
}

/**
 * The reader's lines between two kept lines of the article's container (the parent of
 * `articlePath`) that continue the article across a gap the template left (issue 38: what continues
 * after an interruption in the same container is the same article). A gap is a run of lines neither
 * confirmed nor kept by `agreement`'s other rules (`anchors`), with an anchor of that container right
 * before and right after it; its lines are kept when every one of them is
 * - a sentence (`SENTENCE_END`, or an exclamation, `EXCLAMATION_END`) at the article's own path or
 *   in the container's own text (a paragraph written as bare text between the container's `<p>`s):
 *   the single-line rule of `agreement` extended to runs of such lines and to neighbours that are a
 *   subheading or a list item. The template drops a paragraph that is mostly a link's text
 *   ("HubSpot got this one wrong: 5 Hurricane Sandy Newsjacks From Marketers.") as link-dense; the
 *   reader kept it, and the article goes on around it.
 * - or a list item of `LIST_ITEM_WORDS` words or more in that container: a bulleted list inside the
 *   article (a shopping guide's storage times, a results summary's points), which the template drops
 *   at a path its sample pages used for the site's short lines. Shorter items are a box's tabs
 *   ("Video", "Gallery") or an in-page table of contents ("The methodology"), which came back
 *   without the bound (dragnet -0.0001).
 * k-fold `pipeline` lcs F1 dragnet 0.96773 -> 0.96835, daniel 0.94835 and cleanportaleval 0.93955
 * unchanged; gold across-line pairs found dragnet 3,857 -> 3,878 (dropped inside the article 313 ->
 * 293), the others unchanged (`scripts/across-pairs.mjs`). Every line it brought back is gold.
 * Figures: docs/design.md.
 */
function continuedLines(
  blocks: readonly ExtractedBlock[],
  lines: readonly string[][],
  confirmed: readonly boolean[],
  articlePath: string | undefined,
): Set<number> {
  const kept = new Set<number>();
  if (articlePath === undefined) return kept;
  const container = `${articlePath.slice(0, articlePath.lastIndexOf('.'))}.`;
  const inContainer = (i: number): boolean => confirmed[i] === true && (blocks[i] as ExtractedBlock).path.startsWith(container);
  const sentence = (block: ExtractedBlock): boolean =>
    (block.path === articlePath || `${block.path}.` === container) && (SENTENCE_END.test(block.text) || EXCLAMATION_END.test(block.text));
  const listItem = (block: ExtractedBlock, i: number): boolean =>
    block.path.startsWith(container) && LIST_ITEM_PATH.test(block.path) && (lines[i] as string[]).length >= LIST_ITEM_WORDS;
  for (let start = 1; start < blocks.length; start++) {
    if (confirmed[start]) continue;
    let end = start;
    while (end < blocks.length && !confirmed[end]) end++;
    if (end < blocks.length && inContainer(start - 1) && inContainer(end)) {
      const gap = blocks.slice(start, end);
      if (gap.every(sentence) || gap.every((block, k) => listItem(block, start + k))) for (let i = start; i < end; i++) kept.add(i);
    }
    start = end;
  }
  return kept;
}

/** A list item's path. */
const LIST_ITEM_PATH = /\.LI$/;

/**
 * A line ending as an exclamation (Latin or CJK, maybe inside quotes or brackets): inside a gap of
 * the article's container only, where a link's title is kept out by the kept lines around it
 * (dragnet: "…ORCHESTRA TOUR!!!!" and "…to get started!" came back, both gold). A question mark stays
 * out: a linked headline "…with guns?" came back as boilerplate in the single-line rule.
 */
const EXCLAMATION_END = /[!\uFF01]["'\u201D\u2019\u00BB)\]]*$/u;

/**
 * Words from which a list item reads as a point of the article, not the site's short line ("Email
 * the author", "Print this story") nor a box's tab ("Video"). With 3, daniel's bbc.co.uk bulleted
 * fragments ("drank too much", which its gold keeps) came in too (daniel +0.00004, across-line
 * pairs +2), but so would three-word share labels.
 */
const LIST_ITEM_WORDS = 4;

/**
 * A line ending as a statement ends (a full stop or an ellipsis, Latin or CJK, maybe inside quotes
 * or brackets), not as a label or a link's title does: a headline linking elsewhere may end with a
 * question mark ("…with guns?"), hardly with a full stop.
 */
const SENTENCE_END = /[.\u3002\uFF0E\u2026]["'\u201D\u2019\u00BB)\]]*$/u;

/** The path of the confirmed lines holding the most words: where the article's paragraphs sit (a teaser the template also kept sits elsewhere). */
function mostWordsPath(blocks: readonly ExtractedBlock[], lines: readonly string[][], confirmed: readonly boolean[]): string | undefined {
  const words = new Map<string, number>();
  blocks.forEach((block, i) => {
    if (confirmed[i]) words.set(block.path, (words.get(block.path) ?? 0) + (lines[i] as string[]).length);
  });
  let best: string | undefined;
  for (const [path, count] of words) if (best === undefined || count > (words.get(best) as number)) best = path;
  return best;
}

/**
 * Paths of the headings a headline is: an article's title is an H1 (`HEADLINE_PATH`: its text
 * maybe in a SPAN), sometimes an H2 under the site's own H1. An H2's SPAN is not one: Blogger's
 * date header (`h2.date-header > span`) sits above each post's title, and taken for the headline
 * it put the date first and the post's title out (dragnet's sportsscientists.com: 6 pages).
 */
const HEADING_PATH = new RegExp(`${HEADLINE_PATH.source}|\\.H2$`);

/**
 * The template's last heading before the first line both readings hold, when the reader left it
 * out: the article's headline. A Readability-style reader sets the headline aside as the page's
 * title; the index wants it in the text (phrases of a headline are searched for too), and so do
 * the multi-page datasets' gold texts. The single-page datasets' gold leaves it out (scrapinghub,
 * wcxb, Readability's fixtures), so the reader alone does not add it.
 * When that heading is an H2 right after an H1 the reader also left out, the two are a headline
 * and its standfirst (`hgroup > h1 + h2`), and both go first: the site's own H1 repeats on every
 * page, so the template's reading does not hold it. Figures: docs/evaluation.md, docs/design.md.
 */
function headline(templated: readonly ExtractedBlock[], templateLines: readonly string[][], held: (i: number) => boolean): ExtractedBlock[] {
  const firstShared = templateLines.findIndex((words, i) => words.length >= RUN && held(i));
  const setAside = (i: number): boolean => !held(i);
  for (let i = firstShared - 1; i >= 0; i--) {
    const heading = templated[i] as ExtractedBlock;
    if (!HEADING_PATH.test(heading.path)) continue;
    if (!setAside(i)) return [];
    const above = templated[i - 1];
    return above && heading.path.endsWith('.H2') && HEADLINE_PATH.test(above.path) && setAside(i - 1) ? [above, heading] : [heading];
  }
  return [];
}

/**
 * Whether the reader's reading holds the template's line `i`: most of its words in runs the reader
 * also has (`WordRuns`), but a heading (`HEADING_PATH`) only when one of the reader's lines holds all
 * its words in a row (a "heading" of `PROSE_WORDS` or more is a paragraph set as one, held as a
 * paragraph is). A headline's words recur in the article (a caption naming the exhibition, a
 * subheading rephrasing the headline), and taken as held the headline was neither put first nor
 * taken for the top of the article, above which its standfirst is looked for (issue 38: the
 * article's edges). Figures: docs/design.md.
 */
function heldByReader(
  templated: readonly ExtractedBlock[],
  templateLines: readonly string[][],
  readerLines: readonly string[][],
  readerText: WordRuns,
): (i: number) => boolean {
  let padded: string[] | undefined;
  return (i) => {
    const words = templateLines[i] as string[];
    if (!HEADING_PATH.test((templated[i] as ExtractedBlock).path) || words.length === 0 || words.length >= PROSE_WORDS) return readerText.holdsMostOf(words);
    padded ??= readerLines.map((line) => ` ${line.join(' ')} `);
    const heading = ` ${words.join(' ')} `;
    return padded.some((line) => line.includes(heading));
  };
}

/** How many of the template's lines right above the article's first shared line may hold its standfirst (a byline or dateline often sits between). */
const HEADER_LINES = 3;

/** Words from which a header line reads as a sentence (a standfirst), not a byline, a label or a section's name. */
const STANDFIRST_WORDS = 8;

/**
 * The article's standfirst: the template's sentences among its few lines right above the first line
 * both readings hold, up to its headline and never above the page's (`aboveTitledHeadline`), that
 * the reader left out and the site does not repeat (issue 38: an article's edges).
 * The reader drops a standfirst as too short to be prose, and it sits where the template knows the
 * article's header to be, changing from page to page. Datelines are passed over: the datasets'
 * gold keeps them on some sites and not on others, and a line with many numbers (a date, a weather
 * box) is no sentence. Bylines come from the page's lines under the headline, where the template
 * often has none (`withBylineUnderHeadline`). Figures: docs/evaluation.md.
 */
function standfirst(
  templated: readonly ExtractedBlock[],
  templateLines: readonly string[][],
  held: (i: number) => boolean,
  repeatedLines: ReadonlySet<number>,
  aboveHeadline: (line: ExtractedBlock) => boolean,
): ExtractedBlock[] {
  const firstShared = templateLines.findIndex((words, i) => words.length >= RUN && held(i));
  const lines: ExtractedBlock[] = [];
  for (let i = firstShared - 1; i >= Math.max(0, firstShared - HEADER_LINES); i--) {
    const line = templated[i] as ExtractedBlock;
    const words = templateLines[i] as string[];
    if (HEADING_PATH.test(line.path) || held(i) || aboveHeadline(line)) break;
    if (isSentence(words) && !isRepeatedLine(line, repeatedLines, words)) lines.unshift(line);
  }
  return lines;
}

/**
 * Whether a line sits above the page's headline, the line naming most of its `<title>`'s words
 * (`titleNaming`; the first of equals): the site's header, a sign-up bar, never the article's
 * standfirst. The page's lines are read only when asked.
 */
function aboveTitledHeadline(tree: BlockTree, title: string): (line: ExtractedBlock) => boolean {
  const naming = titleNaming(title);
  let lines: readonly TextLine[] | undefined;
  let headlineAt = -1;
  return (line) => {
    if (!lines) {
      lines = pageLines(tree);
      let most = 0;
      lines.forEach((candidate, i) => {
        const named = naming(candidate.text);
        if (named > most) [most, headlineAt] = [named, i];
      });
    }
    if (headlineAt < 0) return false;
    // The template may read a line as part of a longer rendered one ("Sign Up" + "Facebook helps you…").
    const at = lines.findIndex((candidate) => candidate.text.includes(line.text));
    return at >= 0 && at < headlineAt;
  };
}

/** A line of `STANDFIRST_WORDS` or more, fewer than a quarter of them with digits (a dateline, a weather box). */
function isSentence(words: readonly string[]): boolean {
  return words.length >= STANDFIRST_WORDS && words.filter((word) => /\d/.test(word)).length < words.length / 4;
}

function wordCount(lines: readonly string[][]): number {
  let count = 0;
  for (const words of lines) count += words.length;
  return count;
}

/** Whether the self-check read the page alone (the template's reading was not used). */
export function readAlone(result: Pick<ExtractionResult, 'readAlone'>): boolean {
  return result.readAlone === true;
}

/** The reader's reading of the page, kept whole, and why. */
function alone(single: ExtractionResult, why: string): ExtractionResult {
  return { ...resultOf('pipeline', single.blocks, [...single.warnings, `${why}: read alone`]), readAlone: true };
}
