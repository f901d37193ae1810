import { PEOPLE, PLACES } from './text.js';

/** What an article page says, independent of how a site lays it out. */
export interface ArticleContent {
  path: string;
  title: string;
  author: string;
  date: string;
  teaser: string;
  body: Array<{ kind: 'paragraph'; text: string } | { kind: 'subheading'; text: string } | { kind: 'list'; items: string[] } | { kind: 'quote'; text: string }>;
  related: Array<{ path: string; title: string }>;
  popular: Array<{ path: string; title: string }>;
  comments: Array<{ author: string; text: string }>;
  advert: string;
}

export interface ListingContent {
  path: string;
  heading: string;
  entries: Array<{ path: string; title: string; date: string; teaser: string }>;
  previous: string | null;
  next: string | null;
}

/** A rendered page and its gold lines (the main text, in reading order). */
export interface Rendered {
  html: string;
  gold: string[];
}

export interface Layout {
  article(content: ArticleContent): Rendered;
  listing(content: ListingContent): Rendered;
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const PERSON = new RegExp(PEOPLE.join('|'), 'g');
const PLACE = new RegExp(PLACES.join('|'), 'g');

/**
 * A paragraph's HTML with the paper's Figure 2 markup: people's names wrapped in `<span>`s and
 * places linked, inside the sentence, so a phrase across them must survive extraction.
 */
function inlineMarkup(text: string): string {
  let n = 0;
  return escapeHtml(text)
    .replace(PERSON, (name) => `<span class="yshortcuts" id="lw_${n++}">${name}</span>`)
    .replace(PLACE, (place) => `<a href="/places/${place.toLowerCase().replace(/ /g, '-')}.html">${place}</a>`);
}

/** Article body as HTML blocks (an advertisement after the second paragraph) plus its gold lines. */
function body(content: ArticleContent, advert: (text: string) => string): Rendered {
  const html: string[] = [];
  const gold: string[] = [];
  let paragraphs = 0;
  for (const block of content.body) {
    switch (block.kind) {
      case 'paragraph':
        html.push(`<p>${inlineMarkup(block.text)}</p>`);
        gold.push(block.text);
        if (++paragraphs === 2) html.push(advert(content.advert));
        break;
      case 'subheading':
        html.push(`<h2>${escapeHtml(block.text)}</h2>`);
        gold.push(block.text);
        break;
      case 'list':
        html.push(`<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`);
        gold.push(...block.items);
        break;
      case 'quote':
        html.push(`<blockquote><p>${escapeHtml(block.text)}</p></blockquote>`);
        gold.push(block.text);
        break;
    }
  }
  return { html: html.join('\n'), gold };
}

const links = (items: ReadonlyArray<{ path: string; title: string }>): string =>
  items.map((item) => `<li><a href="${item.path}">${escapeHtml(item.title)}</a></li>`).join('');

const document = (title: string, bodyHtml: string, style: string): string =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${style}</style>` +
  `<script>window.analytics = { page: ${JSON.stringify(title)} };</script></head>\n<body>\n${bodyHtml}\n</body></html>\n`;

/** The Gazette: a modern news site, div-based, with named containers. */
const gazette: Layout = {
  article(content) {
    const main = body(content, (text) => `<div class="ad-slot"><a href="/ads/1">${escapeHtml(text)}</a></div>`);
    const header = `${content.title}\nBy ${content.author}, ${content.date}`;
    const comments =
      content.comments.length === 0
        ? ''
        : `<section id="comments"><h3>${content.comments.length} comments</h3>${content.comments
            .map((c) => `<div class="comment"><p class="who">${escapeHtml(c.author)} wrote:</p><p>${escapeHtml(c.text)}</p></div>`)
            .join('')}</section>`;
    const html =
      `<div id="page">${GAZETTE_HEADER}<div class="wrap"><main id="content"><article class="story">` +
      `<h1>${escapeHtml(content.title)}</h1><p class="byline">By ${escapeHtml(content.author)}, ${escapeHtml(content.date)}</p>` +
      `<div class="story-body">\n${main.html}\n</div></article>` +
      `<section class="related"><h3>Related stories</h3><ul>${links(content.related)}</ul></section>${comments}</main>` +
      `<aside class="sidebar"><h3>Most read</h3><ol>${links(content.popular)}</ol>${GAZETTE_NEWSLETTER}</aside></div>${GAZETTE_FOOTER}</div>`;
    return { html: document(`${content.title} | The Gazette`, html, 'body{font:16px serif}'), gold: [...header.split('\n'), ...main.gold] };
  },
  listing(content) {
    const html =
      `<div id="page">${GAZETTE_HEADER}<div class="wrap"><main id="content"><h1>${escapeHtml(content.heading)}</h1>` +
      content.entries.map((e) => `<div class="teaser"><h2><a href="${e.path}">${escapeHtml(e.title)}</a></h2><p>${escapeHtml(e.teaser)}</p></div>`).join('\n') +
      pager(content) +
      `</main><aside class="sidebar">${GAZETTE_NEWSLETTER}</aside></div>${GAZETTE_FOOTER}</div>`;
    return {
      html: document(`${content.heading} | The Gazette`, html, 'body{font:16px serif}'),
      gold: [content.heading, ...content.entries.map((e) => e.teaser)],
    };
  },
};

const GAZETTE_HEADER =
  `<header class="masthead"><div class="logo"><a href="/">The Gazette</a></div><p class="motto">News from the valley since 1887</p>` +
  `<nav class="main-nav"><ul><li><a href="/">Home</a></li><li><a href="/page/2.html">Archive</a></li><li><a href="/about.html">About us</a></li><li><a href="/contact.html">Contact the newsroom</a></li></ul></nav></header>`;
const GAZETTE_NEWSLETTER = `<div class="newsletter"><h3>Stay informed</h3><p>Sign up for the morning briefing and get the valley's news before breakfast.</p></div>`;
const GAZETTE_FOOTER = `<footer class="site-footer"><p>Copyright 2026 The Gazette Publishing Company. All rights reserved.</p><p>Registered office: 4 Mill Lane, Alderbrook.</p></footer>`;

/** The Ledger: an old table layout with few class names, where boilerplate has to be learned. */
const ledger: Layout = {
  article(content) {
    const main = body(content, (text) => `<table class="promo"><tr><td><i>${escapeHtml(text)}</i></td></tr></table>`);
    const responses =
      content.comments.length === 0
        ? ''
        : `<tr><td></td><td><hr><b>Reader responses</b>${content.comments
            .map((c) => `<table><tr><td><b>${escapeHtml(c.author)}</b> wrote:<br>${escapeHtml(c.text)}</td></tr></table>`)
            .join('')}</td></tr>`;
    const html =
      `<table width="100%" cellpadding="4">${LEDGER_TOP}<tr><td valign="top" width="180">${LEDGER_LEFT}` +
      `<p><b>See also</b></p><ul>${links(content.related)}</ul></td>` +
      `<td valign="top"><h2>${escapeHtml(content.title)}</h2><span>Filed by ${escapeHtml(content.author)} on ${escapeHtml(content.date)}</span>\n${main.html}\n</td></tr>` +
      `${responses}${LEDGER_BOTTOM}</table>`;
    return {
      html: document(`The Ledger - ${content.title}`, html, 'td{font:13px verdana}'),
      gold: [content.title, `Filed by ${content.author} on ${content.date}`, ...main.gold],
    };
  },
  listing(content) {
    const html =
      `<table width="100%" cellpadding="4">${LEDGER_TOP}<tr><td valign="top" width="180">${LEDGER_LEFT}</td><td valign="top">` +
      `<h2>${escapeHtml(content.heading)}</h2>` +
      content.entries.map((e) => `<p><a href="${e.path}"><b>${escapeHtml(e.title)}</b></a><br>${escapeHtml(e.teaser)}</p>`).join('\n') +
      pager(content) +
      `</td></tr>${LEDGER_BOTTOM}</table>`;
    return {
      html: document(`The Ledger - ${content.heading}`, html, 'td{font:13px verdana}'),
      gold: [content.heading, ...content.entries.map((e) => e.teaser)],
    };
  },
};

const LEDGER_TOP =
  `<tr><td colspan="2" bgcolor="#003366"><font color="white" size="5">The Ledger</font> <font color="white">Independent reporting for Marrowgate county</font><br>` +
  `<a href="/">Front page</a> | <a href="/page/2.html">Older stories</a> | <a href="/subscribe.html">Subscribe</a> | <a href="/letters.html">Letters to the editor</a></td></tr>`;
const LEDGER_LEFT =
  `<p><b>Sections</b></p><a href="/">Local</a><br><a href="/">Business</a><br><a href="/">Weather</a><br><a href="/">Obituaries</a>` +
  `<p>Printed every Thursday and online every day.</p>`;
const LEDGER_BOTTOM = `<tr><td colspan="2" align="center"><small>The Ledger, 12 Harbour Street, Marrowgate. Letters and tips welcome.</small></td></tr>`;

/** The Almanac: HTML5 sectioning elements, breadcrumbs and an in-article aside. */
const almanac: Layout = {
  article(content) {
    const main = body(content, (text) => `<div class="sponsor"><p>${escapeHtml(text)}</p></div>`);
    const notes =
      content.comments.length === 0
        ? ''
        : `<section class="discussion"><h2>Discussion</h2><ol>${content.comments.map((c) => `<li><cite>${escapeHtml(c.author)}</cite><p>${escapeHtml(c.text)}</p></li>`).join('')}</ol></section>`;
    const html =
      `${ALMANAC_HEADER}<div class="layout"><nav class="toc"><h2>Browse</h2><ul>${links(content.popular)}</ul></nav>` +
      `<main><ol class="crumbs"><li><a href="/">Almanac</a></li><li><a href="/page/2.html">Entries</a></li><li>${escapeHtml(content.title)}</li></ol>` +
      `<article><header><h1>${escapeHtml(content.title)}</h1><p><time>${escapeHtml(content.date)}</time> by ${escapeHtml(content.author)}</p></header>` +
      `<section class="entry">\n${main.html}\n</section><aside class="related"><h2>Read next</h2><ul>${links(content.related)}</ul></aside></article>${notes}</main></div>${ALMANAC_FOOTER}`;
    return {
      html: document(`${content.title} - The Almanac`, html, 'main{max-width:40em}'),
      gold: [content.title, `${content.date} by ${content.author}`, ...main.gold],
    };
  },
  listing(content) {
    const html =
      `${ALMANAC_HEADER}<div class="layout"><main><h1>${escapeHtml(content.heading)}</h1><ul class="entries">` +
      content.entries
        .map((e) => `<li><article><h2><a href="${e.path}">${escapeHtml(e.title)}</a></h2><p>${escapeHtml(e.teaser)}</p></article></li>`)
        .join('\n') +
      `</ul>${pager(content)}</main></div>${ALMANAC_FOOTER}`;
    return {
      html: document(`${content.heading} - The Almanac`, html, 'main{max-width:40em}'),
      gold: [content.heading, ...content.entries.map((e) => e.teaser)],
    };
  },
};

const ALMANAC_HEADER = `<header><a href="/">The Almanac</a><p>A field guide to the towns of the coast</p><form action="/search"><label>Search the almanac</label></form></header>`;
const ALMANAC_FOOTER = `<footer><p>The Almanac is written by volunteers and published under a free licence.</p><p><a href="/about.html">About</a> <a href="/privacy.html">Privacy</a></p></footer>`;

function pager(content: ListingContent): string {
  const previous = content.previous ? `<a href="${content.previous}">Newer stories</a>` : '';
  const next = content.next ? `<a href="${content.next}">Older stories</a>` : '';
  return `<div class="pager">${previous} ${next}</div>`;
}

export const LAYOUTS: Readonly<Record<string, Layout>> = { gazette, ledger, almanac };
