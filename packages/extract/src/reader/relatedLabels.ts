import type { Block } from '../html/blockTree.js';
import { HEADINGS, type SubtreeMeasures } from './measures.js';

/** A label line ("You may also like...", "More News from Sci-Tech") holds at most this many non-space characters. */
const MAX_LABEL_CHARS = 60;

/** A line of at least this many non-space characters is prose: the box of links the label heads has ended. */
const PROSE_LINE_CHARS = 200;

/** A "Read more: <headline>" line holds at most this many non-space characters. */
const MAX_LINK_LINE_CHARS = 200;

/** Boxes under such labels holding more than this share of the article's text are what the page is: they stay. */
const MAX_BOX_SHARE = 0.5;

/**
 * A container opening with a related label is dropped whole when links are at least this share of
 * its text (link characters against non-space characters): cards of headlines with a standfirst
 * each. Without it, shops' boxes of buying advice went (wcxb -0.0013).
 */
const MIN_BOX_LINK_SHARE = 0.3;

/** What must be left of the article (non-space characters) besides the boxes dropped whole. */
const MIN_ARTICLE_LEFT = 500;

/** An entry of a related box is mostly a link: at least this share of its text. */
const LINKED_SHARE = 0.5;

/**
 * What a box of links to the site's other pages is headed with, in the languages of the shared
 * datasets and their neighbours: "Related", "You may also like", "More News from Sci-Tech", "Read
 * more", "See also", "Don't miss", "Leia também", "Te puede interesar", "À lire aussi", "Lesen Sie
 * auch", "Leggi anche", "Читайте также", "Czytaj też", "Baca juga", "相关文章", "関連記事", "관련 기사".
 * Matched against the whole label, its trailing colon, dots or arrow aside.
 */
const RELATED_LABEL = new RegExp(
  `^(?:${[
    // English
    'related',
    '(?:you|we think you) (?:may|might|will|could|would) (?:also )?(?:like|love|enjoy|be interested(?: in)?)(?: (?:these|this|reading))?',
    'you may have missed',
    '(?:related|similar|recommended|suggested|popular|trending|latest|top|more|other|further|recent) (?:\\S+ ){0,2}(?:news|stories|articles|posts|reads|reading|content|coverage|links|videos|topics|headlines)(?: (?:from|on|in|about|for|at) .{1,40})?(?: for you)?',
    'recommended(?: for you)?',
    'read (?:more|next|also|this next)',
    'also read',
    '(?:see|view) (?:also|more)',
    "don[’']t miss(?: this)?",
    'more (?:from|on|in|about) .{1,40}',
    'most (?:read|popular|viewed|shared|watched)(?: .{1,30})?',
    'popular (?:on|in|at) .{1,40}',
    'trending(?: now| on .{1,30})?',
    'what to read next',
    'up next',
    "editor[’']?s[’']? picks?",
    // Portuguese
    '(?:veja|leia|confira)(?: tamb[ée]m| mais)',
    '(?:posts?|artigos?|mat[ée]rias?|not[ií]cias?|mensagens?|textos?) (?:relacionad[oa]s|semelhantes)',
    '(?:voc[eê] )?(?:tamb[ée]m )?(?:pode|vai|poder[aá]) (?:tamb[ée]m )?gostar(?: de)?',
    'mais (?:not[ií]cias|lidas|vistas|populares|lidos|vistos)',
    'relacionad[oa]s',
    // Spanish
    '(?:te|le|les) (?:puede|podr[ií]a)n? (?:interesar|gustar)',
    '(?:noticias|art[ií]culos|entradas|publicaciones|notas) (?:relacionad[oa]s|similares)',
    '(?:lee|lea|leer|ver|vea|mira) tambi[ée]n',
    'm[aá]s (?:noticias|art[ií]culos|le[ií]dos|vistos)',
    'lo m[aá]s (?:le[ií]do|visto)',
    // French
    '(?:[àa] )?(?:lire|voir|d[ée]couvrir) aussi',
    '(?:articles?|billets?) (?:similaires|li[ée]s|connexes)',
    'sur le m[êe]me (?:sujet|th[èe]me)',
    'vous (?:aimerez|pourriez aimer|aimeriez) (?:aussi|[ée]galement)',
    "plus d[’']articles",
    'les plus lus',
    // German
    '(?:das )?k[öo]nnte (?:sie|dich) (?:auch )?interessieren',
    '(?:lesen sie|lies) (?:auch|mehr)',
    'mehr zum thema(?: .{1,30})?',
    '(?:weitere|[äa]hnliche|verwandte) (?:artikel|beitr[äa]ge|nachrichten|meldungen|themen)',
    'auch interessant',
    'meistgelesen',
    // Italian
    'leggi anche',
    '(?:articoli|post|notizie) (?:correlati|correlate|simili)',
    '(?:ti )?potrebbero? (?:anche )?(?:interessare|piacere|piacerti)',
    'potrebbe piacerti',
    'vedi anche',
    'altre notizie',
    '(?:i )?pi[ùu] letti',
    // Dutch
    '(?:lees|bekijk) ook',
    '(?:gerelateerde|meer) (?:artikelen|berichten|nieuws)',
    // Russian, Polish, Czech
    '(?:читайте|читать|смотрите) также',
    'см\\. также',
    '(?:похожие|другие|последние) (?:статьи|записи|новости|материалы|публикации)',
    '(?:ещ[её] )?по теме',
    '(?:czytaj|zobacz|przeczytaj) (?:też|także|również)',
    '(?:podobne|powiązane) (?:artykuły|wpisy|posty)',
    'polecamy',
    '(?:čtěte|přečtěte si) (?:také|též)',
    'související(?: články)?',
    // Indonesian, Malay, Turkish
    '(?:baca|lihat) juga',
    '(?:artikel|berita) (?:terkait|lainnya|populer)',
    '(?:ilgili|benzer) haberler',
    // Chinese, Japanese, Korean
    '相[关關](?:文章|阅读|閱讀|新闻|新聞|推荐|推薦|链接|連結)',
    '延伸[阅閱][读讀]',
    '推[荐薦][阅閱][读讀]',
    '猜你喜[欢歡]',
    '[热熱][门門](?:文章|推荐|推薦)',
    '関連記事',
    'あわせて読みたい',
    'おすすめ記事',
    '관련 ?기사',
    '추천 ?기사',
  ].join('|')})$`,
  '',
);

/** A label's dressing: leading and trailing punctuation, arrows and counters ("Related (5)", "» See also:"), spaces. */
const DRESSING: ReadonlySet<string> = new Set([...' \t\n\r\u00a0:：.…!?«»‹›<>|-–—•·▶►▸→()[]']);

/** A "Read more: <headline>" line: a label, a colon or dash, then the headline it links to. */
const LABELLED_LINK = /^[\s([«]*([^:：|–—]{2,40}?)\s*[:：|–—]\s*\S/u;

/**
 * Tags of a list's, a table's or a menu's entries: a label heads a list, it is not one of its
 * items, and a menu's items, each followed by another link, are most of a page's short lines.
 */
const ENTRY_TAGS: ReadonlySet<string> = new Set(['li', 'td', 'th', 'tr', 'dd', 'option']);

/** The separators `LABELLED_LINK` reads after a label. */
const SEPARATOR = /[:：|–—]/;

/** Whether a short text is a label of a box of related links, its dressing aside. */
export function isRelatedLabel(text: string): boolean {
  let from = 0;
  let to = text.length;
  while (from < to && DRESSING.has(text[from] as string)) from++;
  while (to > from && (DRESSING.has(text[to - 1] as string) || isDigit(text.charCodeAt(to - 1)))) to--;
  if (from === to) return false;
  return RELATED_LABEL.test(text.slice(from, to).replace(/\s+/g, ' ').toLowerCase());
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Boxes of links to the site's other pages under a label that says so ("You may also like...",
 * "More News from Sci-Tech", "More Great WIRED Stories", "Leia também", "相关文章") inside the
 * article: the label line (at most `MAX_LABEL_CHARS`, `RELATED_LABEL`) and the siblings after it
 * that are mostly links (`LINKED_SHARE`), up to the first that is not, holds a line of prose
 * (`PROSE_LINE_CHARS`) or is a heading of its own; a label's wrapper holding nothing else is the
 * label, judged by its own siblings. A label without such entries stays. A "Read more:
 * <headline>" line that is mostly its link (`LABELLED_LINK`, at most `MAX_LINK_LINE_CHARS`) goes
 * alone. Nothing goes when the boxes hold more than `MAX_BOX_SHARE` of the article: a page of
 * links headed so is what the page is. A container inside the article that opens with such a label
 * is the box, whole, when it is a third links (`MIN_BOX_LINK_SHARE`: headlines with standfirsts)
 * and the article keeps `MIN_ARTICLE_LEFT` without it.
 *
 * Why: such boxes after the story's last paragraph were scrapinghub's largest class of text kept
 * that its gold leaves out (cleveland.com's "You may also like..." of five linked paragraphs,
 * ctvnews.ca's "More News from Sci-Tech", wired.com's "More Great WIRED Stories", space.com's and
 * livescience.com's), and they pass the cleaning: their entries are paragraphs, not a list, or the
 * indentation around each link in the page's source dilutes the link density the cleaning reads
 * (`textChars` counts it; ctvnews.ca's list reads as 0.22 links). Their names, when they have any,
 * say nothing. Reader shingle F1 without and with: scrapinghub 0.9666 and 0.9690 (16 pages up, none
 * down), daniel 0.9055 and 0.9066, dragnet 0.9103 and 0.9109, cleanportaleval 0.9374 and 0.9378,
 * wcxb 0.8213 and 0.8215, cleaneval unchanged, Readability's fixtures 0.9680 and 0.9675 (its gold,
 * Readability's own output, keeps "Related: <headline>" and "Lire aussi : <headline>" lines).
 * Without the link share, wcxb lost 0.0010: a shop's "Related Expert Advice articles" of buying
 * advice and a "Further reading" paragraph are its gold. The whole containers, on top: daniel
 * 0.9066 -> 0.9074 (news.google.com's, bbc.co.uk's and heraldsun.com.au's "more news" boxes, 28 pages
 * up, none down), Readability's fixtures 0.9675 -> 0.9702 (gma.yahoo.com), dragnet +0.0001, wcxb
 * +0.0000 (6 up), the others unchanged. Figures: docs/design.md, "The reader: related boxes
 * (issue 38)".
 */
export function dropRelatedBoxes(blocks: readonly Block[], measures: SubtreeMeasures, parts: readonly Block[], dropped: Uint8Array): void {
  const boxes: Array<{ from: Block; to: Block }> = [];
  let articleChars = 0;
  let boxChars = 0;
  let boxedUntil = -1;
  const labels: Block[] = [];
  const wholeBoxes: Block[] = [];
  let wholeChars = 0;
  for (const part of parts) {
    articleChars += measures.chars[part.index] as number;
    for (let i = part.index; i < part.end; i++) {
      const parent = blocks[i] as Block;
      if (dropped[i] || i < boxedUntil) continue;
      const chars = measures.chars[i] as number;
      if (i > part.index && chars <= MAX_LINK_LINE_CHARS && !measures.hasLineBlock[i] && isMostlyLinks(parent, measures)) {
        const text = textOf(parent);
        const labelled = SEPARATOR.test(text.slice(0, MAX_LABEL_CHARS)) ? LABELLED_LINK.exec(text) : null;
        if (labelled && isRelatedLabel(labelled[1] as string)) {
          boxes.push({ from: parent, to: parent });
          boxChars += chars;
          boxedUntil = parent.end;
          continue;
        }
      }
      // Labels among the children, each with the first child with text after it: its entries' first.
      labels.length = 0;
      let next: Block | undefined;
      let first: Block | undefined;
      for (let k = parent.items.length - 1; k >= 0; k--) {
        const child = parent.items[k];
        if (typeof child !== 'object') continue;
        const childChars = measures.chars[child.index] as number;
        if (childChars === 0) continue;
        first = child;
        if (dropped[child.index]) continue;
        if (
          next &&
          childChars <= MAX_LABEL_CHARS &&
          child.breaksLine &&
          !ENTRY_TAGS.has(child.tag) &&
          isMostlyLinks(next, measures) &&
          isRelatedLabel(textOf(child)) &&
          isEntry(next, measures)
        )
          labels.push(child);
        next = child;
      }
      // A container that opens with a label (dropped by its name or not) is the box, whole.
      if (
        i > part.index &&
        first &&
        (measures.chars[first.index] as number) <= MAX_LABEL_CHARS &&
        chars > (measures.chars[first.index] as number) &&
        first.breaksLine &&
        !ENTRY_TAGS.has(first.tag) &&
        (measures.linkChars[i] as number) >= MIN_BOX_LINK_SHARE * chars &&
        isRelatedLabel(textOf(first))
      ) {
        wholeBoxes.push(parent);
        wholeChars += chars;
        boxedUntil = parent.end;
        continue;
      }
      for (let k = labels.length - 1; k >= 0; k--) {
        const label = labels[k] as Block;
        if (label.index < boxedUntil) continue;
        const box = boxUnder(label, measures, dropped);
        boxes.push(box);
        boxChars += spanChars(box, measures);
        boxedUntil = box.to.end;
      }
    }
  }
  if (wholeBoxes.length > 0 && articleChars - wholeChars - boxChars >= MIN_ARTICLE_LEFT) for (const box of wholeBoxes) dropped.fill(1, box.index, box.end);
  if (boxes.length === 0 || boxChars > MAX_BOX_SHARE * articleChars) return;
  for (const { from, to } of boxes) {
    let inside = false;
    for (const item of from.parent?.items ?? [from]) {
      if (typeof item !== 'object') continue;
      if (item === from) inside = true;
      if (inside) dropped.fill(1, item.index, item.end);
      if (item === to) break;
    }
  }
}

/** Non-space characters of the siblings from `from` to `to`. */
function spanChars({ from, to }: { from: Block; to: Block }, measures: SubtreeMeasures): number {
  let sum = 0;
  let inside = false;
  for (const item of from.parent?.items ?? [from]) {
    if (typeof item !== 'object') continue;
    if (item === from) inside = true;
    if (inside) sum += measures.chars[item.index] as number;
    if (item === to) break;
  }
  return sum;
}

/** The label and the siblings after it that read as its entries (the first is one). */
function boxUnder(label: Block, measures: SubtreeMeasures, dropped: Uint8Array): { from: Block; to: Block } {
  let to = label;
  let after = false;
  for (const item of label.parent?.items ?? []) {
    if (item === label) {
      after = true;
      continue;
    }
    if (!after) continue;
    if (typeof item === 'string') {
      if (item.trim() !== '') break;
      continue;
    }
    if (typeof item !== 'object') continue;
    if ((measures.chars[item.index] as number) === 0 || dropped[item.index]) {
      to = item;
      continue;
    }
    if (!isEntry(item, measures)) break;
    to = item;
  }
  return { from: label, to };
}

/** An entry of a related box: mostly links, no heading of its own, no line of prose. */
function isEntry(block: Block, measures: SubtreeMeasures): boolean {
  return !HEADINGS.has(block.tag) && isMostlyLinks(block, measures) && !holdsProse(block, measures);
}

/**
 * Whether most of a block's text is link text: link characters (spaces inside links included, as
 * `Block.linkChars` counts them) at least `LINKED_SHARE` of its non-space characters. Not against
 * `textChars`, which counts the indentation between tags: a list of links indented in the page's
 * source reads as a fifth links by that measure.
 */
function isMostlyLinks(block: Block, measures: SubtreeMeasures): boolean {
  return (measures.linkChars[block.index] as number) >= LINKED_SHARE * (measures.chars[block.index] as number);
}

/** Whether a block holds a line of prose: a block without line-breaking blocks inside, of `PROSE_LINE_CHARS` or more. */
function holdsProse(block: Block, measures: SubtreeMeasures): boolean {
  if ((measures.chars[block.index] as number) < PROSE_LINE_CHARS) return false;
  const blocks: Block[] = [block];
  while (blocks.length > 0) {
    const next = blocks.pop() as Block;
    if ((measures.chars[next.index] as number) < PROSE_LINE_CHARS) continue;
    if (!measures.hasLineBlock[next.index]) return true;
    for (const item of next.items) if (typeof item === 'object') blocks.push(item);
  }
  return false;
}

/** A short block's text, its sub-blocks' text joined with spaces. */
function textOf(block: Block): string {
  let text = '';
  for (const item of block.items) {
    if (typeof item === 'string') text += item;
    else text += typeof item === 'object' ? ` ${textOf(item)} ` : ' ';
  }
  return text.trim();
}
