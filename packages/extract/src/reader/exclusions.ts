import type { Block, BlockTree } from '../html/blockTree.js';
import { isFormLike } from '../mainblock/boilerplate.js';
import type { SubtreeMeasures } from './measures.js';
import { chosenName, isCommentsName, isFurnitureName, isUnlikelyName } from './names.js';
import { teaserCards } from './teaserCards.js';

/**
 * A block named as boilerplate that holds at least this share of the page's text (non-space
 * characters) is a layout wrapper (`o-layout has-sidebar`, `page-header-and-body`), not a sidebar:
 * no sidebar or comment box holds most of a page. Figures: docs/evaluation.md, docs/design.md.
 */
const WRAPPER_SHARE = 0.5;

/**
 * A list is never a layout wrapper, whatever its share: a gallery's `ul.legends` or a long
 * thread's `ol.commentlist` named as such is set aside when names are trusted. A page left with too little text by it (a short post
 * under a long thread) is read again without the names, and then a list holding most of the page
 * is its text.
 */
const LISTS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
/**
 * A layout table's rows and cells are named for the layout (`td.sidebar` may hold the story);
 * what sits in a cell, a table too, is named for itself.
 */
const TABLE_PARTS: ReadonlySet<string> = new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th']);

/**
 * HTML's elements for navigation, for content aside from the text around it and for a section's
 * footer: whatever names a page gives them, they hold menus, "related" boxes, pull-outs and the
 * tags, share bars and copyright lines under a story, never its text (Readability reads names
 * only). Set aside in both readings, inside `<article>` and `<main>` too (an article's own footer
 * holds its share bars and tags), but not when one holds half the page (a footer even then:
 * `isFooter`). `<header>` is not among them: an article's header holds its headline. Figures:
 * docs/evaluation.md, docs/design.md.
 */
const ASIDE_ELEMENTS: ReadonlySet<string> = new Set(['nav', 'aside', 'footer']);

/**
 * The same by ARIA role, as a page states it for screen readers: Readability's unlikely roles (menus,
 * navigation, complementary content, alerts and dialogs) and a footer's `contentinfo`. A cookie
 * notice or newsletter dialog in a `div` is often the longest text of a modern page.
 */
const ASIDE_ROLES: ReadonlySet<string> = new Set(['navigation', 'complementary', 'contentinfo', 'menu', 'menubar', 'alert', 'alertdialog', 'dialog']);

/**
 * Of `ASIDE_ROLES`, the dialogs are set aside whatever their share of the page: a dialog opens over
 * the page and never wraps it. A consent manager's preference centre (OneTrust's `onetrust-pc-sdk`,
 * `role="dialog"`: every cookie category and vendor purpose spelled out) holds most of the text of a
 * page whose list or thread its scripts fill, and was read in place of it (issue 38, wcxb:
 * seriouseats.com 0.07 -> 0.92 word F1, allrecipes.com 0.17 -> 0.90, gamefaqs 0.05 -> 0.71;
 * forum.corsair.com 0.15 -> 0.07, whose reading was that dialog and is now its header). WCXB word F1
 * 0.8397 -> 0.8412, reader shingle F1 0.83354 -> 0.83511; no page of the other six datasets moved.
 */
const DIALOG_ROLES: ReadonlySet<string> = new Set(['alertdialog', 'dialog']);

/**
 * The page's footer, as an element or as the `contentinfo` landmark, is set aside whatever its
 * share of the page, as a dialog is: it closes the page and never wraps it. Where it holds most of
 * the text, it is a long legal text (Apple's footnotes, `sosumi`, under a product's few lines) or
 * the page is a shell its scripts fill (aliexpress.com's products, helloalma.com: the footer was all
 * the reading had, and the page is now read as empty, as its gold is). Issue 38, wcxb: apple.com's
 * pages 0.15-0.40 -> 0.75 word F1, WCXB word F1 0.85732 -> 0.86117, reader shingle F1 0.85043 ->
 * 0.85316; no page of the other six datasets moved.
 */
function isFooter(block: Block): boolean {
  return block.tag === 'footer' || block.role === 'contentinfo';
}

/**
 * A form asking for this many typed inputs (name and e-mail, login and password) is a sign-up,
 * login or comment form whatever its share of the page: behind a paywall, a subscription form's
 * consent clauses outweigh the article's teaser. Not when it holds half the page: old
 * ASP.NET pages wrap the whole page, search box and login included, in one form.
 */
const ENTRY_FORM_INPUTS = 2;

/** Names of photo galleries and slideshows (Hearst's `hst-resgallery-container`, `slideshow`, `carousel`). */
const GALLERY_NAME = /gallery|slideshow|carousel/;
/**
 * A gallery holds at most this much text (non-space characters) per photo: a caption and a
 * credit, which Hearst's galleries repeat in a short and a full version (250 kept most of them).
 */
const GALLERY_CHARS_PER_IMAGE = 600;

/**
 * The subtrees the reader never reads, marked before scoring:
 * - figures and their captions (photo captions and credits are not the article; auto's rule 1),
 *   but not a figure of a table, of code or of a quotation (`isContentFigure`), and, when names
 *   are trusted, photo galleries named so (`isGallery`);
 * - forms that are forms, not pages wrapped in one (`isFormLike`, `isEntryForm`), nor, on a page
 *   that says it is a forum thread, a form without a field to type into: Invision Community wraps
 *   a thread's posts in its moderators' form of check boxes, and forum.corsair.com's post, under a
 *   quarter of a page its cookie dialog fills, was set aside with it (0.07 -> 0.97; WCXB word F1
 *   0.8512 -> 0.8518, no other page of the seven datasets moved);
 * - `nav`, `aside` and `footer` elements and blocks of their roles, trusted or not (`ASIDE_ELEMENTS`,
 *   `ASIDE_ROLES`), but not page wrappers;
 * - blocks Bootstrap hides (`d-none`), trusted or not (`isHidden`), but not page wrappers;
 * - blocks whose id or class names a sidebar, comments, sharing and the like (`isUnlikelyName`;
 *   an id that spells the block's heading is no such name, `chosenName`)
 *   — or, when names are not `trusted`, only comments (`isCommentsName`) — except a table's rows
 *   and cells (a cell's name describes the layout; sparing everything inside a table, as Readability
 *   does, kept an article's comments whole on pages laid out in tables), except page wrappers (`WRAPPER_SHARE`,
 *   never a list), and except inside preformatted text, where syntax highlighters name their
 *   tokens (`hljs-comment`, `token comment`), as Readability spares code;
 * - on a page that says it is a forum thread, what its posts carry besides the post: members'
 *   titles, counters, signatures and quotes' expanders; on a question's page, the members' flair;
 *   on a product's page, its customers' reviews (`isFurniture`);
 * - rails of teaser cards, each a photo, a title and a link (`teaserCards`).
 * The root and BODY are never excluded.
 */
export function excludedBlocks(tree: BlockTree, measures: SubtreeMeasures, trusted: boolean): Uint8Array {
  const { blocks } = tree;
  const excluded = new Uint8Array(blocks.length);
  const shareOfPage = pageShare(measures);
  for (let i = 2; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    const isFigure = (block.tag === 'figure' && !isContentFigure(blocks, block)) || block.tag === 'figcaption';
    const name = chosenName(tree, block);
    const named = trusted ? isUnlikelyName(name) : isCommentsName(name);
    const namedUnlikely = named && ((trusted && LISTS.has(block.tag)) || shareOfPage(block) < WRAPPER_SHARE) && !TABLE_PARTS.has(block.tag);
    if (
      isFigure ||
      (isFormLike(block, shareOfPage(block)) && !(tree.discussion && (measures.inputs[block.index] as number) === 0)) ||
      isEntryForm(block, measures, shareOfPage) ||
      namedUnlikely ||
      isFurniture(tree, block, name, shareOfPage) ||
      (trusted && isGallery(block, name, measures, shareOfPage)) ||
      isAside(block, shareOfPage) ||
      (isHidden(block) && shareOfPage(block) < WRAPPER_SHARE)
    ) {
      excluded.fill(1, i, block.end);
      i = block.end - 1;
    } else if (block.tag === 'pre') {
      i = block.end - 1;
    }
  }
  const teasers = teaserCards(blocks, measures);
  for (let i = 0; i < blocks.length; i++) if (teasers[i]) excluded[i] = 1;
  return excluded;
}

/** Tags that make a figure content: WordPress's `wp-block-table`, Jekyll's `figure.highlight`, a quote block. */
const TEXT_FIGURE_TAGS: ReadonlySet<string> = new Set(['table', 'pre', 'blockquote']);

/** A figure of a table, of code or of a quotation is content, not a photo. */
function isContentFigure(blocks: readonly Block[], figure: Block): boolean {
  for (let i = figure.index + 1; i < figure.end; i++) {
    if (TEXT_FIGURE_TAGS.has((blocks[i] as Block).tag)) return true;
  }
  return false;
}

/**
 * The subtrees of the page's `nav`, `aside` and `footer` elements and roles, and the furniture of
 * what the page says it is (`isFurniture`), alone: the main block, when it stands in for the
 * reader's article, must not read them either (ikea.com's product read as its customers' reviews,
 * the main block's longest part). The reader's other exclusions are not passed on: the main block
 * reads figures the reader leaves out.
 */
export function asideSubtrees(tree: BlockTree, measures: SubtreeMeasures): Uint8Array {
  const marked = new Uint8Array(tree.blocks.length);
  const shareOfPage = pageShare(measures);
  for (let i = 2; i < tree.blocks.length; i++) {
    const block = tree.blocks[i] as Block;
    if (!isAside(block, shareOfPage) && !isFurniture(tree, block, chosenName(tree, block), shareOfPage)) continue;
    marked.fill(1, i, block.end);
    i = block.end - 1;
  }
  return marked;
}

/**
 * Furniture of what the page says it is (`isFurnitureName`: a post's signature, a product's
 * reviews), but not a layout wrapper: a car review's page calls itself a product and names its
 * whole column `yrmd-review` (dragnet's thecarconnection.com).
 */
function isFurniture(tree: BlockTree, block: Block, name: string, shareOfPage: (block: Block) => number): boolean {
  return isFurnitureName(tree, name) && shareOfPage(block) < WRAPPER_SHARE;
}

function isEntryForm(block: Block, measures: SubtreeMeasures, shareOfPage: (block: Block) => number): boolean {
  return block.tag === 'form' && (measures.inputs[block.index] as number) >= ENTRY_FORM_INPUTS && shareOfPage(block) < WRAPPER_SHARE;
}

/**
 * A photo gallery inside the page, set aside when names are trusted as a figure is: a block named
 * as a gallery, slideshow or carousel, holding photos, no heading and at most a caption's text per
 * photo (`GALLERY_CHARS_PER_IMAGE`), under half the page. Its captions, credits and "Caption" /
 * "Close" buttons were read into the story between two paragraphs (Hearst's newspapers: chron.com,
 * ctpost.com, timesunion.com, sfgate.com). Reader shingle F1 without and with: scrapinghub 0.9611
 * and 0.9653 (9 pages up, none down), dragnet +0.0001, daniel +0.0001, wcxb 0.8210 and 0.8206
 * (redfin.com's listing photo carousel holds its price and address); without the heading guard,
 * wcxb 0.8202 (carousels of service pages' sections). Figures: docs/design.md.
 */
function isGallery(block: Block, name: string, measures: SubtreeMeasures, shareOfPage: (block: Block) => number): boolean {
  const images = measures.images[block.index] as number;
  return (
    images > 0 &&
    (measures.headingChars[block.index] as number) === 0 &&
    GALLERY_NAME.test(name) &&
    (measures.chars[block.index] as number) <= GALLERY_CHARS_PER_IMAGE * images &&
    shareOfPage(block) < WRAPPER_SHARE
  );
}

/** Bootstrap's class that hides an element ... */
const HIDDEN_CLASS = /(?:^|\s)d-none(?:$|\s)/;
/** ... unless a class shows it again on some screen (`d-md-block`); `d-print-block` shows it in print only. */
const SHOWN_ON_SCREEN = /(?:^|\s)d-(?:sm|md|lg|xl|xxl)-(?!none)/;

/**
 * A block Bootstrap hides on every screen (`d-none`, no `d-md-block` or the like beside it): what
 * the reader of the page never sees, in both readings (a class, not a name the page chose for its
 * content). phys.org prints its citation and copyright lines under the story in a
 * `d-none d-print-block` box. Reader shingle F1 without and with: scrapinghub 0.97054 and 0.97075,
 * wcxb 0.82829 and 0.82836 (15 pages: Stack Exchange's hidden vote counts, a filter's "Filters
 * Applied!"; irobot.com -0.002), the others unchanged (docs/design.md).
 */
function isHidden(block: Block): boolean {
  const classes = block.hint.slice(block.hint.indexOf(' ') + 1);
  return HIDDEN_CLASS.test(classes) && !SHOWN_ON_SCREEN.test(classes);
}

function isAside(block: Block, shareOfPage: (block: Block) => number): boolean {
  if (DIALOG_ROLES.has(block.role) || isFooter(block)) return true;
  return (ASIDE_ELEMENTS.has(block.tag) || ASIDE_ROLES.has(block.role)) && shareOfPage(block) < WRAPPER_SHARE;
}

/** A block's share of the page's text (non-space characters). */
function pageShare(measures: SubtreeMeasures): (block: Block) => number {
  const pageChars = measures.chars[0] as number;
  return (block) => (pageChars === 0 ? 0 : (measures.chars[block.index] as number) / pageChars);
}
