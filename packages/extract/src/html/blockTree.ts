import { Parser, type QuoteType } from 'htmlparser2';
import { BLOCK_TAGS, INLINE_BLOCK_TAGS, LINE_BREAK_TAGS, SKIPPED_TAGS } from './blockTags.js';
import { isIgnoredInHead, startTagEndsHead, textEndsHead } from './documentHead.js';
import { elementClosedBy, type OpenElements } from './impliedEnds.js';
import { PageTokenizer } from './pageTokenizer.js';
import { isHiddenElement, noteOpenedPanels, showsNoText } from './hidden.js';
import { checkedHtml, flatReadingWarning, flatText } from './input.js';
import { DEFAULT_LIMITS, type Limits } from './limits.js';
import { nonSpaceChars } from './whitespace.js';

/** Marks a forced line break (`<br>`) among a block's items. */
export const LINE_BREAK = 0;

/** What a block holds, in document order: its own text runs, line breaks, and its sub-blocks. */
export type BlockItem = string | typeof LINE_BREAK | Block;

/**
 * A node of the block tree (FastCE paper, Section III): an element that opens a block (see
 * `BLOCK_TAGS`), with everything inside it that is not inside a deeper block. Inline elements
 * (links, emphasis, images) do not make blocks; they add to the counters of the block they sit in.
 */
export interface Block {
  /** Lower-case tag name. */
  readonly tag: string;
  /** Traversal path from the root, e.g. `HTML.BODY.TABLE.TR.P` (paper, Section III). */
  readonly path: string;
  /**
   * Where the element's start tag begins in the page as parsed (-1 for the HTML and BODY blocks
   * every tree starts with): the page inspector marks the element there.
   */
  readonly start: number;
  readonly parent: Block | null;
  /** Position in the pre-order walk of the tree; `blocks[i].index === i`. */
  readonly index: number;
  /** One past the pre-order index of the last block in this subtree. */
  end: number;
  readonly items: BlockItem[];
  /** Characters of own text (whitespace included) that sit inside links (`<a href>`). */
  linkChars: number;
  /** Of `linkChars`, those inside links to a place on the same page (`href="#…"`): a heading's permalink, a table of contents. */
  fragmentLinkChars: number;
  /** Characters of own text, whitespace included. */
  textChars: number;
  /** Own `<a href>` elements, `<img>` elements and `<script>` elements (ContentExtractor's features). */
  links: number;
  images: number;
  scripts: number;
  /**
   * Own shown `<input>` fields a reader types into (text, e-mail, search, password...): a block of
   * them is a form, whatever its tag. Check boxes and radio buttons are left out: a checklist is
   * content.
   */
  inputs: number;
  /** True when the block renders on its own line (everything but inline blocks such as SPAN). */
  readonly breaksLine: boolean;
  /** The element's id and class attribute, lower-cased and space-separated ('' when none). */
  readonly hint: string;
  /** The element's `role` attribute, lower-cased ('' when none): `navigation`, `dialog`... */
  readonly role: string;
}

/** Whether `block` is `container` or lies in its subtree (pre-order indices: `container.index` up to `container.end`). */
export function isInSubtree(block: Block, container: Block): boolean {
  return block.index >= container.index && block.index < container.end;
}

export interface BlockTree {
  readonly root: Block;
  /** Every block in pre-order (document order of their start tags). */
  readonly blocks: readonly Block[];
  /** Caps hit and other best-effort notes. */
  readonly warnings: readonly string[];
  /** How the blocks' paths are spelled. */
  readonly pathMode: PathMode;
  /**
   * The page says it is a forum thread: schema.org's `DiscussionForumPosting`, as an element's
   * `itemtype` (microdata) or a JSON-LD `@type`, which forum software writes for search engines.
   * On such a page the replies are the content, not comments under it (`reader/names.ts`).
   */
  readonly discussion: boolean;
  /**
   * What else the page says it is for search engines: an article (schema.org's `Article` and its
   * kinds, `NewsArticle`, `BlogPosting`..., or `og:type` `article`), a product (`Product`, or
   * `og:type` `product`) or a question and its answers (`QAPage`), as an element's `itemtype`, a
   * JSON-LD `@type` or the head's `<meta property="og:type">`. A page declaring neither article nor
   * product (a service's landing page, a listing, a documentation page) may be read whole where an
   * article would be read alone (`reader.ts`); on a question's page, the members' flair beside each
   * post is furniture (`reader/names.ts`).
   */
  readonly declares: { readonly article: boolean; readonly product: boolean; readonly questions: boolean };
  /**
   * The blocks the page's microdata marks as a posting's text (`itemprop="text"` or `articleBody`),
   * in document order: on a forum thread, the body of each post, as forum software marks them for
   * search engines (`reader/declaredPosts.ts`).
   */
  readonly postTexts: readonly Block[];
}

/** How a block's path segment is spelled. */
export type PathMode =
  /** The paper's traversal path: tag names only. */
  | 'tags'
  /** Tag names refined with the element's id and class tokens that look hand-written (no digits). */
  | 'tags+classes';

export interface BlockTreeOptions {
  limits?: Partial<Limits>;
  pathMode?: PathMode;
}

interface OpenElement {
  opensBlock: boolean;
  skips: boolean;
  isLink: boolean;
  isFragmentLink?: boolean;
  /** An `<html>` or `<head>` start tag inside the head, which a browser ignores (`documentHead.ts`). */
  ignoredInHead?: boolean;
  /** How many such ignored entries lay right beneath this one on the stack when it was pushed. */
  ignoredBelow?: number;
  /** For an inline element (not a block): the block its text goes to, and where that text starts (`gluedCounter`). */
  inline?: TextStart;
}

/** Where an inline element's text starts in its block: the item index and the offset in that item's string. */
interface TextStart {
  block: Block;
  item: number;
  offset: number;
}

/**
 * Parses an HTML string into its block tree in one streaming pass of htmlparser2 (no DOM is built),
 * with an explicit stack, so the nesting depth of the input cannot overflow the call stack. Blocks
 * that a browser closes implicitly (an open `<p>` at the next block, an open `<li>` or cell at the
 * next one, `impliedEnds.ts`) are closed here too, even when htmlparser2 keeps them open.
 *
 * Choices the paper leaves open:
 * - The tree always starts `HTML.BODY`, whether or not the page spells those tags, so paths of pages
 *   with and without them agree.
 * - Hidden elements (`hidden`, inline `display:none` / `visibility:hidden`), `SKIPPED_TAGS` and
 *   objects a browser displays itself (`isDisplayedObject`) are not text; their subtrees are
 *   skipped — unless that leaves the page almost empty and the
 *   `<noscript>` and hidden content do not (`MIN_SHOWN_CHARS`). The head ends where a browser ends
 *   it (`documentHead.ts`), so a page that omits `</head>` and `<body>` keeps its text.
 * - Past `maxBlocks` or `maxBlockDepth`, block tags stop opening blocks; their text stays in the
 *   enclosing block and a warning is recorded, so no text is lost. Past `maxOpenElements`, the rest
 *   of the input is read as plain text into the innermost block (the parser would slow down
 *   quadratically on deeper nesting).
 */
export function buildBlockTree(html: string, options: BlockTreeOptions = {}): BlockTree {
  const shown = parseBlockTree(html, options, false);
  if (shown.shownChars >= MIN_SHOWN_CHARS) return shown.tree;
  const revealed = parseBlockTree(html, options, true);
  if (revealed.shownChars < Math.max(MIN_SHOWN_CHARS, REVEALED_GAIN * shown.shownChars)) return shown.tree;
  return { ...revealed.tree, warnings: [...revealed.tree.warnings, REVEALED_WARNING] };
}

/**
 * A page showing fewer non-space characters than this is read again with its `<noscript>` content
 * and hidden elements, as a browser shows it once scripts have run or without them: JavaScript
 * apps put their crawler view in `<noscript>` (Discourse forums) or hide the whole page until
 * their styles load (`visibility:hidden` on Next.js pages). The second reading is kept when it
 * shows a page's worth of text, and `REVEALED_GAIN` times the first's (wcxb shingle F1 0.798 ->
 * 0.807: 18 of its 23 pages read empty were such pages; the other datasets unchanged).
 */
const MIN_SHOWN_CHARS = 200;
const REVEALED_GAIN = 2;
/** Shown characters are counted up to this many and no further: no decision above depends on more. */
const COUNTED_CHARS = REVEALED_GAIN * MIN_SHOWN_CHARS;
/** Input types that ask the reader to type (a missing type is `text`). */
const TYPED_INPUTS: ReadonlySet<string> = new Set(['text', 'email', 'search', 'password', 'tel', 'url', 'number']);

/** schema.org's type of a forum thread, in an `itemtype` URL or a JSON-LD `"@type"` (a string, or one in a list). */
const DISCUSSION_ITEMTYPE = /schema\.org\/DiscussionForumPosting\b/i;
/** schema.org's properties of a posting's or a comment's text, among an `itemprop`'s space-separated names. */
const POST_TEXT_ITEMPROP = /(?:^|\s)(?:text|articleBody)(?:\s|$)/;
const DISCUSSION_JSON_LD = /"@type"\s*:\s*\[?\s*"(?:https?:\/\/schema\.org\/)?DiscussionForumPosting"/;
/** schema.org's article types (`BlogPosting`, `NewsArticle` and its kinds, `Report`...) and product types, as a type's name ends. */
const ARTICLE_TYPE = '(?:\\w*Article|BlogPosting|LiveBlogPosting|Report)';
const PRODUCT_TYPE = '(?:Product|ProductGroup|ProductModel|IndividualProduct)';
const ARTICLE_ITEMTYPE = new RegExp(`schema\\.org/${ARTICLE_TYPE}(?:\\s|$)`, 'i');
const PRODUCT_ITEMTYPE = new RegExp(`schema\\.org/${PRODUCT_TYPE}(?:\\s|$)`, 'i');
/** schema.org's page of a question and its answers (Stack Exchange, Discourse's Q&A topics). */
const QUESTIONS_ITEMTYPE = /schema\.org\/QAPage\b/i;
const QUESTIONS_JSON_LD = /"@type"\s*:\s*\[?\s*"(?:https?:\/\/schema\.org\/)?QAPage"/;
const ARTICLE_JSON_LD = new RegExp(`"@type"\\s*:\\s*\\[?\\s*"(?:https?://schema\\.org/)?${ARTICLE_TYPE}"`);
const PRODUCT_JSON_LD = new RegExp(`"@type"\\s*:\\s*\\[?\\s*"(?:https?://schema\\.org/)?${PRODUCT_TYPE}"`);
/** Open Graph's `og:type` values of an article and of a product (`product`, `og:product`, `product.item`, `product.group`). */
const ARTICLE_OG_TYPE = /^article$/i;
const PRODUCT_OG_TYPE = /^(?:og:)?product(?:\.\w+)?$/i;

const REVEALED_WARNING = 'the page shows almost no text until its scripts run: read with its <noscript> content and hidden elements';

function parseBlockTree(html: string, options: BlockTreeOptions, reveal: boolean): { tree: BlockTree; shownChars: number } {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const pathMode = options.pathMode ?? 'tags';
  const warnings: string[] = [];
  html = checkedHtml(html, limits, warnings);

  const blocks: Block[] = [];
  const newBlock = (tag: string, path: string, parent: Block | null, start: number, hint = '', role = ''): Block => {
    const block: Block = {
      tag,
      path,
      start,
      parent,
      index: blocks.length,
      end: 0,
      items: [],
      linkChars: 0,
      fragmentLinkChars: 0,
      textChars: 0,
      links: 0,
      images: 0,
      scripts: 0,
      inputs: 0,
      breaksLine: !INLINE_BLOCK_TAGS.has(tag),
      hint,
      role,
    };
    blocks.push(block);
    parent?.items.push(block);
    return block;
  };
  const root = newBlock('html', 'HTML', null, -1);
  const body = newBlock('body', 'HTML.BODY', root, -1);

  const stack: OpenElement[] = [];
  let current = body;
  let depth = 2;
  let skipDepth = 0;
  let linkDepth = 0;
  let fragmentLinkDepth = 0;
  let shownChars = 0;
  let discussion = false;
  const declares = { article: false, product: false, questions: false };
  const postTexts: Block[] = [];
  /** Inside a `<script type="application/ld+json">`, read for its `@type` though skipped as text. */
  let inJsonLd = false;
  /** The open `<head>` that started a skipped subtree, until it ends. */
  let openHead: OpenElement | null = null;
  /** Ignored `<html>`/`<head>` entries on top of the stack, counted as they come and go: walking them on every tag made a head of 80,000 `<html>` tags take seconds. */
  let ignoredOnTop = 0;
  const push = (element: OpenElement): void => {
    if (element.ignoredInHead) ignoredOnTop++;
    else {
      element.ignoredBelow = ignoredOnTop;
      ignoredOnTop = 0;
    }
    stack.push(element);
  };
  const pop = (): OpenElement | undefined => {
    const element = stack.pop();
    if (element) ignoredOnTop = element.ignoredInHead ? ignoredOnTop - 1 : (element.ignoredBelow ?? 0);
    return element;
  };
  const headIsInnermost = (): boolean => openHead !== null && stack[stack.length - 1 - ignoredOnTop] === openHead;
  const endHead = (): void => {
    (openHead as OpenElement).skips = false;
    skipDepth = 0;
    openHead = null;
  };
  /** Closes the open blocks a start tag ends in a browser (`impliedEnds.ts`), which htmlparser2 leaves open. */
  const closeBlocksEndedBy = (tag: string): void => {
    const closed = elementClosedBy(tag, current, OPEN_BLOCKS);
    if (!closed?.parent) return;
    // The entries that opened blocks, innermost first, are the chain from `current` up; the new element is on top.
    for (let k = stack.length - 2; k >= 0 && current !== closed.parent; k--) {
      const open = stack[k] as OpenElement;
      if (!open.opensBlock) continue;
      open.opensBlock = false;
      current.end = blocks.length;
      current = current.parent as Block;
      depth--;
    }
  };
  let blockCapWarned = false;
  let depthCapWarned = false;
  /** An inline element of digits alone that just closed, dropped if a word follows it with no space (`gluedCounter`). */
  let counter: Counter | null = null;
  /** Ids that a control read so far opens (`aria-controls`): such an element shows its text though hidden. */
  const opened = new Set<string>();
  const dropCounter = ({ start, length, inLink, inFragmentLink }: Counter): void => {
    const last = start.block.items[start.item] as string;
    start.block.items[start.item] = last.slice(0, start.offset) + last.slice(start.offset + length);
    start.block.textChars -= length;
    if (inLink) start.block.linkChars -= length;
    if (inFragmentLink) start.block.fragmentLinkChars -= length;
  };

  let flatFrom = -1;
  const parser: Parser = new BlockTreeParser(
    {
      onopentag(tag, attribs) {
        const ignored = headIsInnermost() && isIgnoredInHead(tag);
        if (!ignored && headIsInnermost() && startTagEndsHead(tag)) endHead();
        const element: OpenElement = { opensBlock: false, skips: false, isLink: false, ignoredInHead: ignored };
        push(element);
        // Ignored entries count: htmlparser2 keeps them open, and its cost grows with its stack.
        if (stack.length > limits.maxOpenElements && flatFrom < 0) {
          flatFrom = parser.endIndex + 1;
          parser.pause();
        }
        if (ignored) return;
        // Read wherever they are, the head's scripts and hidden elements included.
        if (attribs.itemtype !== undefined) {
          discussion ||= DISCUSSION_ITEMTYPE.test(attribs.itemtype);
          declares.article ||= ARTICLE_ITEMTYPE.test(attribs.itemtype);
          declares.product ||= PRODUCT_ITEMTYPE.test(attribs.itemtype);
          declares.questions ||= QUESTIONS_ITEMTYPE.test(attribs.itemtype);
        }
        if (tag === 'meta' && attribs.property?.toLowerCase() === 'og:type' && attribs.content !== undefined) {
          const type = attribs.content.trim();
          declares.article ||= ARTICLE_OG_TYPE.test(type);
          declares.product ||= PRODUCT_OG_TYPE.test(type);
        }
        if (tag === 'script') inJsonLd = attribs.type?.toLowerCase().includes('ld+json') === true;
        if (skipDepth > 0) {
          skipDepth++;
          element.skips = true;
          return;
        }
        if (tag === 'script') current.scripts++;
        // Inputs are skipped as text but counted; a hidden one (a spam trap) asks no reader to type.
        else if (tag === 'input' && !isHiddenElement(attribs) && TYPED_INPUTS.has(attribs.type?.toLowerCase() ?? 'text')) current.inputs++;
        const skipped = showsNoText(tag, attribs, SKIPPED_TAGS);
        noteOpenedPanels(attribs, opened);
        if (reveal ? tag !== 'noscript' && skipped : skipped || isHiddenElement(attribs, opened)) {
          skipDepth = 1;
          element.skips = true;
          if (tag === 'head') openHead = element;
          return;
        }
        if (tag === 'a') {
          // A named anchor (`<a name>`, no href) is a target, not a link; old pages often leave it
          // unclosed, and htmlparser2 would then count the rest of the page as link text.
          if (attribs.href !== undefined) {
            current.links++;
            element.isLink = true;
            linkDepth++;
            if (attribs.href.trim().startsWith('#')) {
              element.isFragmentLink = true;
              fragmentLinkDepth++;
            }
          }
        } else if (tag === 'img') {
          current.images++;
        } else if (LINE_BREAK_TAGS.has(tag)) {
          current.items.push(LINE_BREAK);
        }
        if (!BLOCK_TAGS.has(tag)) {
          if (!LINE_BREAK_TAGS.has(tag)) element.inline = textStart(current);
          return;
        }
        closeBlocksEndedBy(tag);
        if (blocks.length >= limits.maxBlocks) {
          if (!blockCapWarned) warnings.push(`more than ${limits.maxBlocks} blocks: deeper block tags were read as inline`);
          blockCapWarned = true;
          return;
        }
        if (depth >= limits.maxBlockDepth) {
          if (!depthCapWarned) warnings.push(`blocks nested deeper than ${limits.maxBlockDepth}: deeper block tags were read as inline`);
          depthCapWarned = true;
          return;
        }
        current = newBlock(tag, `${current.path}.${pathSegment(tag, attribs, pathMode)}`, current, parser.startIndex, hintOf(attribs), roleOf(attribs));
        if (attribs.itemprop !== undefined && POST_TEXT_ITEMPROP.test(attribs.itemprop)) postTexts.push(current);
        element.opensBlock = true;
        depth++;
      },
      ontext(text) {
        if (headIsInnermost() && textEndsHead(text)) endHead();
        if (inJsonLd) {
          discussion ||= DISCUSSION_JSON_LD.test(text);
          declares.article ||= ARTICLE_JSON_LD.test(text);
          declares.product ||= PRODUCT_JSON_LD.test(text);
          declares.questions ||= QUESTIONS_JSON_LD.test(text);
        }
        if (skipDepth > 0) return;
        if (shownChars < COUNTED_CHARS) shownChars += nonSpaceChars(text);
        if (counter) {
          if (GLUED_WORD.test(text) && isRightAfter(counter.start, current)) dropCounter(counter);
          counter = null;
        }
        const items = current.items;
        const last = items.length > 0 ? items[items.length - 1] : undefined;
        if (typeof last === 'string') items[items.length - 1] = last + text;
        else items.push(text);
        current.textChars += text.length;
        if (linkDepth > 0) current.linkChars += text.length;
        if (fragmentLinkDepth > 0) current.fragmentLinkChars += text.length;
      },
      onclosetag() {
        inJsonLd = false;
        const element = pop();
        if (!element) return;
        if (element.ignoredInHead) {
          if (openHead) endHead();
          return;
        }
        if (element === openHead) openHead = null;
        if (element.skips) {
          skipDepth--;
          return;
        }
        if (element.inline) {
          const found = counterAt(element.inline, current);
          if (found) counter = { ...found, inLink: linkDepth > 0, inFragmentLink: fragmentLinkDepth > 0 };
        }
        if (element.isLink) linkDepth--;
        if (element.isFragmentLink) fragmentLinkDepth--;
        if (element.opensBlock && current.parent) {
          current.end = blocks.length;
          current = current.parent;
          depth--;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, Tokenizer: PageTokenizer },
  );
  parser.write(html);
  if (flatFrom >= 0) {
    warnings.push(flatReadingWarning(limits));
    // Stopped inside the head (a head of ignored `<html>` tags), the page reads on as well: the
    // rest holds the body, and flat text leaves out the head's scripts and styles.
    if (skipDepth === 0 || openHead !== null) {
      const rest = flatText(html.slice(flatFrom));
      if (rest !== '') current.items.push(` ${rest}`);
      if (shownChars < COUNTED_CHARS) shownChars += nonSpaceChars(rest);
    }
  } else {
    parser.end();
  }
  // Blocks still open when the flat reading stopped the parser end with the page.
  for (let block: Block | null = current; block; block = block.parent) block.end = blocks.length;
  return { tree: { root, blocks, warnings, pathMode, discussion, declares, postTexts }, shownChars };
}

/**
 * The attributes `parseBlockTree` reads: `hidden`, `style` and `aria-controls` (`isHiddenElement`),
 * `type`, `href`, `id`, `class`, `role`, `itemtype` (`BlockTree.discussion`, `BlockTree.declares`),
 * `itemprop` (`BlockTree.postTexts`), a `<meta>`'s `property` and `content` (`og:type`) and an
 * object's `data` (`isDisplayedObject`).
 */
const READ_ATTRIBUTES: ReadonlySet<string> = new Set([
  'hidden',
  'aria-controls',
  'style',
  'type',
  'href',
  'id',
  'class',
  'role',
  'itemtype',
  'itemprop',
  'property',
  'content',
  'data',
]);
/** The lengths of their names. */
const READ_NAME_LENGTHS: ReadonlySet<number> = new Set([...READ_ATTRIBUTES].map((name) => name.length));

/**
 * htmlparser2's parser keeping only the attributes the block tree reads (`READ_ATTRIBUTES`): the
 * others' values are neither sliced nor stored. Every tag, text and index it reports is the same.
 * Storing every attribute took 12% of building a block tree of a wcxb page (issue 38).
 */
class BlockTreeParser extends Parser {
  /** Whether the attribute being read is one of `READ_ATTRIBUTES`. */
  private reading = false;
  override onattribname(start: number, endIndex: number): void {
    // A name of another length is none of them: it is neither sliced nor lower-cased.
    if (READ_NAME_LENGTHS.has(endIndex - start)) {
      super.onattribname(start, endIndex);
      this.reading = READ_ATTRIBUTES.has((this as unknown as { attribname: string }).attribname);
    } else {
      this.startIndex = start;
      this.reading = false;
    }
  }
  override onattribdata(start: number, endIndex: number): void {
    if (this.reading) super.onattribdata(start, endIndex);
  }
  override onattribentity(cp: number): void {
    if (this.reading) super.onattribentity(cp);
  }
  override onattribend(quote: QuoteType, endIndex: number): void {
    if (this.reading) super.onattribend(quote, endIndex);
    else this.endIndex = endIndex;
  }
}

/** Where the next text of `block` will start: at the end of its last item when that is text, else in a new item. */
function textStart(block: Block): TextStart {
  const items = block.items;
  const last = items[items.length - 1];
  return typeof last === 'string' ? { block, item: items.length - 1, offset: last.length } : { block, item: items.length, offset: 0 };
}

interface Counter {
  start: TextStart;
  length: number;
  inLink: boolean;
  inFragmentLink: boolean;
}

/** Digits alone: a count, a badge's number. */
const DIGITS = /^\p{Nd}+$/u;
/** Text that opens with a letter, or an opening quotation mark and a letter, with no space before it (a bracket after a number is a citation's: "6(Suppl 1)"). */
const GLUED_WORD = /^[\p{Pi}"']?\p{L}/u;

/**
 * Whether text arriving in `block` comes right after the text that ends at `start`'s item: in the
 * same block, or as the first text of spans (inline blocks) opened right after it, such as
 * `<a>0</a><span>Все…</span>`.
 */
function isRightAfter(start: TextStart, block: Block): boolean {
  let at = block;
  while (at !== start.block) {
    const parent = at.parent;
    if (at.breaksLine || at.items.length > 0 || !parent || parent.items[parent.items.length - 1] !== at) return false;
    at = parent;
  }
  const last = at === block ? at.items.length - 1 : at.items.length - 2;
  return start.item === last;
}

/**
 * An inline element that closed with digits alone as its text, starting a line or after a space:
 * a counter (comments, likes, shares) that the page's style sets apart as a badge, though its
 * markup runs it into the next word (`<a class="comments_count">0</a>Forward…`). Returned when it
 * can still be cut out (its text is the end of its block's last item); the caller drops it when a
 * letter, or a quotation mark and a letter, follows with no space (`GLUED_WORD`), in its block or
 * in a span opened right after it (`isRightAfter`), where keeping it glues "0" to the sentence's
 * first word and loses that word to a search. A number that belongs to the text (`<b>3</b> apples`,
 * `page <a>2</a>`) has a space after it and stays. Issue 38: glued words.
 */
function counterAt(start: TextStart, current: Block): Omit<Counter, 'inLink' | 'inFragmentLink'> | null {
  if (start.block !== current || start.item !== current.items.length - 1) return null;
  const text = current.items[start.item];
  if (typeof text !== 'string') return null;
  const own = text.slice(start.offset);
  if (!DIGITS.test(own)) return null;
  const before = start.offset > 0 ? text.slice(0, start.offset) : current.items[start.item - 1];
  const startsLine = before === undefined || before === LINE_BREAK || (typeof before === 'object' ? before.breaksLine : /\s$/.test(before));
  return startsLine ? { start, length: own.length } : null;
}

const OPEN_BLOCKS: OpenElements<Block> = { tagOf: (block) => block.tag, parentOf: (block) => block.parent };

/** The element's role: the first of its tokens (ARIA lets a page list fallbacks, `dialog alertdialog`), lower-cased. */
function roleOf(attribs: Record<string, string>): string {
  return attribs.role?.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
}

function hintOf(attribs: Record<string, string>): string {
  const id = attribs.id;
  const className = attribs.class;
  if (id === undefined && className === undefined) return '';
  return `${id ?? ''} ${className ?? ''}`.toLowerCase();
}

const STABLE_TOKEN = /^[a-z_-]+$/i;

/** `DIV` in the paper's mode; `DIV#main[article body]` when refined with stable id and class tokens. */
function pathSegment(tag: string, attribs: Record<string, string>, mode: PathMode): string {
  const upper = tag.toUpperCase();
  if (mode === 'tags') return upper;
  const id = attribs.id;
  const classes = (attribs.class ?? '')
    .split(/\s+/)
    .filter((token) => STABLE_TOKEN.test(token))
    .sort();
  return upper + (id && STABLE_TOKEN.test(id) ? `#${id}` : '') + (classes.length > 0 ? `[${classes.join(' ')}]` : '');
}
