import type { Block, BlockTree } from '../html/blockTree.js';
import { ownText } from '../html/blockLines.js';

/**
 * What a block's id and class say about it, for the reader. Pages name their containers for what
 * they hold; the reader takes a name as a hint, weighed against the text inside (and a page whose
 * names leave too little text is read again without them, see `reader.ts`).
 *
 * Long, distinctive words match anywhere in the attribute (`commentlist`, `post-sidebar`); short
 * ones only as whole tokens between spaces, `-` and `_` (`ad`, `nav`), where a substring would hit
 * innocent names (`head`, `canvas`, `unavailable`). The word lists follow Readability's and
 * `boilerplate.ts`'s, with two changes chosen on the shared datasets:
 * - `widget` counts against a block but does not strip it: page builders (Elementor, HubSpot)
 *   wrap every text of a page in `elementor-widget-container` and the like.
 * - `hidden` counts against a block only as a whole class token (`hidden`, which hides an element
 *   in Bootstrap, Tailwind and Foundation), not inside `overflow-x-hidden` or `field-label-hidden`,
 *   which do not hide anything.
 * - Copyright notices (`copyright`), WordPress's sharing and likes (Jetpack's `sharedaddy`,
 *   `jetpack-likes-widget-wrapper`: "Like this: Like Loading...") and author boxes (`post-author`,
 *   `author-bio`, `about-the-author`; a byline's `author` or `byline` stays: datasets keep bylines)
 *   are set aside too (issue 38, boilerplate lines at the end of the article). Reader shingle F1
 *   without and with: scrapinghub 0.9690 and 0.9694, daniel 0.9074 and 0.9091 (rp.pl's and
 *   xinhuanet's copyright notices), dragnet 0.9112 and 0.9117, wcxb 0.8280 and 0.8282, the others
 *   unchanged (docs/design.md).
 */

/**
 * Containers that are never the article: set aside before scoring, unless their name also says content.
 * `disclaimer` and the token `legal` (issue 38, wcxb): a shop's or a service's legal small print
 * (`common-bottom-disclaimer__list`, `game_area_legal`, `copy-legal`, `has-legal-font-size`) is
 * often its longest prose, and the reader read a phone's or a plan's footnoted conditions in place
 * of the product (samsung.com 0.17 -> 0.41, mailchimp.com 0.68 -> 0.86, redfin.com 0.60 -> 0.85).
 * WCXB word F1 0.8341 -> 0.8352 (0.8353 with the same words against a block's score in `NEGATIVE`),
 * reader shingle F1 scrapinghub -0.0001 (sputniknews.com's disclaimer line), cleaneval, daniel,
 * dragnet, cleanportaleval and Readability's fixtures within 0.00005; `legal` only as a whole
 * token (`kansaslegalservices` is no such name). `footnote` too lost articles' footnotes that
 * the gold keeps (docs/tried.md).
 * `tooltip`, `tool-tip` and `popover`: text shown on hover or click beside a term or a spec, not
 * the page's text (headphones.com's spec tables 0.60 -> 0.70, bg.iherb.com 0.69 -> 0.83): WCXB word
 * F1 0.8353 -> 0.8356 (10 pages up, 3 down: betterhelp.com's gold keeps its tooltips), dragnet
 * +0.00001, the other datasets unchanged.
 */
const UNLIKELY =
  /comment|disqus|sidebar|footer|breadcrumb|legends|cover-wrap|agegate|ai2html|yom-remote|advert|sponsor|newsletter|related|social|sharing|share-|-share|popup|modal|cookie|consent|gdpr|pagination|pager|masthead|subscri|signup|shoutbox|outbrain|taboola|skyscraper|copyright|sharedaddy|jetpack|post-author|author-?(?:bio|box|info|content|details|description)|about-?(?:the-?)?author|disclaimer|tooltip|tool-tip|popover|(?:^|[\s_-])(?:legal|ad|ads|nav|navbar|menu|promo|banner|reply|replies|respond|share|tags|rss|login|header|community|extra|remark|supplemental|combx)(?:$|[\s_-])/;

/**
 * Comment sections: the one kind of boilerplate name that stays trusted when the others are not.
 * The short words are whole tokens, told by lookarounds so that a match leaves the separators
 * around it (`THREAD_WORDS` replaces its matches).
 */
const COMMENTS = /comment|disqus|(?<![^\s_-])(?:respond|replies|reply)(?![^\s_-])/;

/** Names of the containers that hold the article. */
const CONTENT = /article|content|entry|main|story|post|body|text|blog|page|column/;

/** Names that count against a container's content score (`disclaimer` and `legal` as in `UNLIKELY`). */
const NEGATIVE =
  /comment|sidebar|footer|widget|advert|sponsor|related|social|share|sharing|promo|banner|masthead|outbrain|skyscraper|shoutbox|shopping|scroll|contact|combx|disclaimer|(?:^|[\s_-])(?:legal|ad|ads|nav|menu|meta|tags|foot|media)(?:$|[\s_-])|(?:^|\s)(?:hidden|hid)(?:$|\s)/;

/** Names that count for it. */
const POSITIVE = /article|content|entry|main|story|post|body|text|blog|page/;

/** Weight of one positive or negative name, as Readability weighs class names. */
const NAME_WEIGHT = 25;

/**
 * Boilerplate words that, inside one class token, outweigh the content word beside them
 * (`two-related-articles`, `related-posts`, `share-content`): see `isUnlikelyName`. Comments,
 * headers, footers and navigation are not among them (`comments-body`, `entry-header`,
 * `entry-footer`, `content-nav`): datasets keep a post's comments and its headline; nor are
 * Readability's vague `supplemental` and `extra` (The New York Times' `story-body-supplemental`
 * wraps the story).
 */
const KEPT_QUALIFIERS = /header|footer|nav|supplemental|extra/;

/**
 * True when a block's name says it is a sidebar, comments, sharing or the like, and not content.
 * A content word spares the block only in a class token (or id) that is not itself boilerplate
 * by another word: `content-wrapper has-sidebar` is a wrapper, but `two-related-articles` is the
 * box of related articles, whose word "articles" had spared it (Readability spares it too). A
 * token still spares the block when its boilerplate word is a comment, header, footer or nav word
 * (`KEPT_QUALIFIERS`). Reader shingle F1 without and with the token rule: scrapinghub 0.9653 and
 * 0.9661, daniel 0.9045 and 0.9054, dragnet 0.9100 and 0.9103, wcxb 0.8206 and 0.8212, the
 * others unchanged; applied to comment, header and footer words too, cleaneval and dragnet lost
 * 0.0010 each (docs/design.md, docs/tried.md).
 */
export function isUnlikelyName(hint: string): boolean {
  if (hint === '' || !UNLIKELY.test(hint)) return false;
  return !hint.split(/\s+/).some((token) => CONTENT.test(token) && !isQualifiedContent(token));
}

/** A token whose content word is qualified by a boilerplate word: `related-articles`, not `comments-body` or `entry-header`. */
function isQualifiedContent(token: string): boolean {
  return UNLIKELY.test(token) && !COMMENTS.test(token) && !KEPT_QUALIFIERS.test(token);
}

/**
 * True when a block's name says it holds comments, and not content. A reading that distrusts
 * names still sets these aside: such a name rarely misleads, and a short post would otherwise lose
 * to its comments.
 */
export function isCommentsName(hint: string): boolean {
  return hint !== '' && COMMENTS.test(hint) && !CONTENT.test(hint);
}

/** True when a name counts against its block for the word `widget` alone. */
export function isWidgetName(hint: string): boolean {
  return hint.includes('widget') && !NEGATIVE.test(hint.replaceAll('widget', ''));
}

/** The score a block's id and class add to its content score: ±25 for each of them. */
export function nameWeight(hint: string): number {
  if (hint === '') return 0;
  const space = hint.indexOf(' ');
  return partWeight(hint.slice(0, space)) + partWeight(hint.slice(space + 1));
}

function partWeight(name: string): number {
  if (name === '') return 0;
  return (POSITIVE.test(name) ? NAME_WEIGHT : 0) - (NEGATIVE.test(name) ? NAME_WEIGHT : 0);
}

/**
 * Words of an id that spells out a heading: at least this many. Boilerplate names its own
 * headings in one or two words (`related-links` over "Related links", `newsletter-signup`), which
 * stay names.
 */
const MIN_SPELLED_WORDS = 3;
/** Blocks after a block's start where the heading it opens with may be (`section > header > h2`). */
const OPENING_BLOCKS = 3;
const HEADING = /^h[1-6]$/;

/**
 * A block's id and class as the page's designer chose them: an id that only spells out the
 * heading the block opens with (`sharing-with-a-single-developer`, as documentation generators
 * and Markdown renderers make ids for sections and headings) says what the section is about, not
 * what kind of block it is, and is left out (a documentation page had lost its sections
 * "Sharing with ...").
 */
export function chosenName(tree: BlockTree, block: Block): string {
  const name = designedName(tree.blocks, block);
  return tree.discussion ? name.replace(THREAD_WORDS, THREAD_WORD_STANDIN) : name;
}

/**
 * On a page that says it is a forum thread (`BlockTree.discussion`), the replies are what the page
 * is for: the names of its thread (`section#replies`, `article.comment`, `ipsComment`,
 * `comment-body`) say nothing against a block there, and stand in `chosenName` as a neutral word.
 * wcxb's forum pages lost every reply to them (ricksteves.com's forum 0.15 word F1, evernote's
 * 0.57, vanillaforums' 0.67, prestashop's 0.25; with the rule 0.98, 0.96, 0.98, 0.81): WCXB word F1
 * 0.8382 -> 0.8397 (9 pages up, 2 down by under 0.06), no other dataset has such a page. Not
 * schema.org's `QAPage` (Stack Exchange): there the comments under a question or an answer are not
 * among the answers, and the gold leaves them out (serverfault.com 0.93 -> 0.72 with it).
 */
const THREAD_WORDS = new RegExp(COMMENTS.source, 'g');
const THREAD_WORD_STANDIN = 'thread';

/**
 * What a forum's post carries besides the post: the member's title and counters (XenForo's
 * `userTitle`, `userBanner`, `message-userExtras`: "Joined", "Messages", "Location") and signature.
 * Set aside on a page that says it is a thread (issue 38, wcxb: blocks so named held 1,763 words
 * outside the gold of its declared threads and 91 in it, while the posts' names and dates are in
 * it): WCXB word F1 0.8420 -> 0.8427, 18 pages up (studentdoctor.net 0.50 -> 0.70, squarespace
 * 0.52 -> 0.76, gamefaqs 0.71 -> 0.86, avforums 0.79 -> 0.90), none down; no other dataset has
 * such a page. So is a quote's expander, the forum's control ("Click to expand...", XenForo's
 * `bbCodeBlock-expandLink`, its older `quoteExpand`): 16 pages up, none down.
 */
const POST_FURNITURE = /usertitle|user-title|userbanner|userextras|signature|expandlink|quoteexpand/;

/**
 * What a post on a question's page carries besides the post: the member's flair, reputation and
 * badges (Stack Exchange's `-flair`: "10.6k22 gold badges3838 silver badges", numbers glued to one
 * another and to the words). Set aside on a page that says it is a question and its answers
 * (`QAPage`); who answered and when stay, as WCXB's gold keeps them on some pages and not on others:
 * WCXB word F1 0.85218 -> 0.85229, its 8 such pages up, none down (the whole card, Stack Exchange's
 * `post-signature`: 0.85235, but serverfault.com's page down, its gold keeping each answer's author
 * and time); no other dataset has such a page.
 */
const QUESTION_FURNITURE = /flair/;

/**
 * What a product's page carries besides the product: its customers' reviews (`product-reviews`,
 * `pipf-seo-reviews`, `jdgm-review-widget`, `#reviews`; not a `preview`). Set aside on a page that
 * says it is a product and not an article (a review of a product is an article): WCXB word F1
 * 0.85548 -> 0.85678, 27 pages changed (rei.com's pack 0.15 -> 0.91; drinco.com, whose gold keeps
 * its reviews, 0.97 -> 0.57); no page of the other datasets (docs/design.md).
 */
const PRODUCT_FURNITURE = /(?:^|[^a-z])reviews?(?:[^a-z]|$)/;

/**
 * True when a block's name says it is furniture of what the page says it is: a post's on a forum
 * thread (`POST_FURNITURE`), on a question's page (`QUESTION_FURNITURE`), a product's on a product's
 * page (`PRODUCT_FURNITURE`).
 */
export function isFurnitureName(tree: BlockTree, name: string): boolean {
  return (
    (tree.discussion && POST_FURNITURE.test(name)) ||
    (tree.declares.questions && QUESTION_FURNITURE.test(name)) ||
    (tree.declares.product && !tree.declares.article && PRODUCT_FURNITURE.test(name))
  );
}

/** The block's id and class without an id that spells its heading (`chosenName`). */
function designedName(blocks: readonly Block[], block: Block): string {
  const space = block.hint.indexOf(' ');
  const idWords = wordsOf(block.hint.slice(0, space));
  if (idWords.length < MIN_SPELLED_WORDS) return block.hint;
  const heading = openingHeading(blocks, block);
  if (!heading) return block.hint;
  const headingWords = wordsOf(ownText(heading));
  // Without its id the hint keeps its "id class" shape: " class".
  return idWords.every((word, i) => headingWords[i] === word) ? block.hint.slice(space) : block.hint;
}

/** The heading among the block and its first `OPENING_BLOCKS` descendants: what the block opens with. */
function openingHeading(blocks: readonly Block[], block: Block): Block | undefined {
  const end = Math.min(block.end, block.index + 1 + OPENING_BLOCKS);
  for (let i = block.index; i < end; i++) if (HEADING.test((blocks[i] as Block).tag)) return blocks[i];
  return undefined;
}

/** Lower-cased words, with `_` a separator (unlike `terms`): ids spell headings with `-` or `_` between the words. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
