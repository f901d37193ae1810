import { LAYOUTS, type ArticleContent, type Layout, type ListingContent } from './layouts.js';
import { between, forecastParagraph, headline, paragraph, personName, pick, placeName, seededRandom, sentence, subheading } from './text.js';

/** A page of the synthetic web, with the main text a reader would call the page's content. */
export interface DemoPage {
  /** Path on the site, e.g. `/articles/17.html`; the home page is `/`. */
  path: string;
  kind: 'article' | 'list';
  html: string;
  /** Gold main text: one block per line, in reading order. */
  gold: string;
}

export interface DemoSite {
  name: string;
  /** Home page first, then listing pages, then articles. */
  pages: DemoPage[];
}

export interface DemoSiteOptions {
  /** Articles on the site (default 200); listing pages show 10 each. */
  articles?: number;
}

/** How a demo site lays out its pages and what its articles say. */
interface SiteDesign {
  /** The layout of article `index` of `count` (older articles first) and of the listing pages. */
  articleLayout(index: number, count: number): Layout;
  listingLayout: Layout;
  articles: 'news' | 'forecasts';
}

const steady = (layout: Layout): SiteDesign => ({ articleLayout: () => layout, listingLayout: layout, articles: 'news' });

const SITES: Readonly<Record<string, SiteDesign>> = {
  gazette: steady(LAYOUTS.gazette as Layout),
  ledger: steady(LAYOUTS.ledger as Layout),
  almanac: steady(LAYOUTS.almanac as Layout),
  /** A redesign half-way through its archive: the older half in the Ledger's tables, the newer in the Almanac's sections. */
  relaunch: {
    articleLayout: (index, count) => (index < count / 2 ? (LAYOUTS.ledger as Layout) : (LAYOUTS.almanac as Layout)),
    listingLayout: LAYOUTS.almanac as Layout,
    articles: 'news',
  },
  /** Formulaic articles: every forecast says much the same words. */
  forecast: { ...steady(LAYOUTS.gazette as Layout), articles: 'forecasts' },
};

export const DEMO_SITE_NAMES: readonly string[] = Object.keys(SITES);

const ARTICLES_PER_LISTING = 10;

/**
 * Builds one demo site, deterministically: the same name and options give the same bytes. Sites
 * differ in layout (see layouts.ts); every site has article pages and paginated listing pages,
 * per-page related links, rotating advertisements, comments on some articles, and a constant
 * header, navigation and footer — the boilerplate a template must learn to remove.
 */
export function demoSite(name: string, options: DemoSiteOptions = {}): DemoSite {
  const design = SITES[name];
  if (!design) throw new RangeError(`unknown demo site "${name}"; known: ${DEMO_SITE_NAMES.join(', ')}`);
  const count = options.articles ?? 200;
  if (!Number.isInteger(count) || count < 1) throw new RangeError('articles must be a positive integer');
  const articles = Array.from({ length: count }, (_, i) => articleContent(name, i, count, design.articles));
  const listings = Math.ceil(count / ARTICLES_PER_LISTING);
  const pages: DemoPage[] = [];
  for (let page = 1; page <= listings; page++) {
    pages.push(listingPage(design.listingLayout, articles, page, listings));
  }
  for (const [index, article] of articles.entries()) {
    const rendered = design.articleLayout(index, count).article(article);
    pages.push({ path: article.path, kind: 'article', html: rendered.html, gold: rendered.gold.join('\n') });
  }
  return { name, pages };
}

export function listingPath(page: number): string {
  return page === 1 ? '/' : `/page/${page}.html`;
}

function listingPage(layout: Layout, articles: readonly ArticleContent[], page: number, pages: number): DemoPage {
  const entries = articles.slice((page - 1) * ARTICLES_PER_LISTING, page * ARTICLES_PER_LISTING);
  const listing: ListingContent = {
    path: listingPath(page),
    heading: page === 1 ? 'Latest stories' : `Stories, page ${page}`,
    entries: entries.map((article) => ({ path: article.path, title: article.title, date: article.date, teaser: article.teaser })),
    previous: page > 1 ? listingPath(page - 1) : null,
    next: page < pages ? listingPath(page + 1) : null,
  };
  const rendered = layout.listing(listing);
  return { path: listing.path, kind: 'list', html: rendered.html, gold: rendered.gold.join('\n') };
}

function articleContent(site: string, index: number, count: number, kind: SiteDesign['articles']): ArticleContent {
  const random = seededRandom(hashSeed(`${site}:${index}`));
  const titleRandom = seededRandom(hashSeed(`${site}:title:${index}`));
  const titleOf = (i: number): string => headline(seededRandom(hashSeed(`${site}:title:${i}`)));
  const place = placeName(random);
  const sections = kind === 'forecasts' ? 0 : between(random, 2, 4);
  const body: ArticleContent['body'] = [];
  if (kind === 'forecasts') for (let p = between(random, 3, 5); p > 0; p--) body.push({ kind: 'paragraph', text: forecastParagraph(random, place) });
  for (let s = 0; s < sections; s++) {
    if (s > 0) body.push({ kind: 'subheading', text: subheading(random) });
    for (let p = between(random, 2, 4); p > 0; p--) body.push({ kind: 'paragraph', text: paragraph(random) });
    if (random() < 0.3) body.push({ kind: 'list', items: Array.from({ length: between(random, 3, 5) }, () => sentence(random)) });
    if (random() < 0.25) body.push({ kind: 'quote', text: sentence(random) });
  }
  const related = Array.from({ length: 5 }, (_, k) => (index + 1 + k * 7 + between(random, 0, 6)) % count)
    .filter((i) => i !== index)
    .map((i) => ({ path: articlePath(i), title: titleOf(i) }));
  const comments =
    random() < 0.6 ? Array.from({ length: between(random, 1, 5) }, () => ({ author: personName(random), text: paragraph(random, between(random, 1, 3)) })) : [];
  const day = 1 + (index % 28);
  const month = pick(seededRandom(index + 1), [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ]);
  return {
    path: articlePath(index),
    title: kind === 'forecasts' ? `The weather in ${place} this week` : headline(titleRandom),
    author: personName(random),
    // Older articles first: the first half of the archive is from the year before.
    date: `${day} ${month} ${index < count / 2 ? 2025 : 2026}`,
    teaser: sentence(random),
    body,
    related,
    comments,
    advert: ADVERTS[index % ADVERTS.length] as string,
    popular: Array.from({ length: 5 }, (_, k) => (index * 3 + k * 11) % count).map((i) => ({ path: articlePath(i), title: titleOf(i) })),
  };
}

export function articlePath(index: number): string {
  return `/articles/${index + 1}.html`;
}

const ADVERTS = [
  'Advertisement: Winter tyres at half price this week only at Brindle Motors.',
  'Advertisement: Learn the violin in thirty days with the Quillby Music School.',
  'Advertisement: Fresh bread delivered to your door every morning by Oakhurst Bakery.',
  'Advertisement: Book your ferry to the islands now and save on summer crossings.',
];

/** FNV-1a of a string, as a PRNG seed. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
