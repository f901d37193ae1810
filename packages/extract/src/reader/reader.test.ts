import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BILINGUAL_STORIES, bilingualSitePage } from '../testing/sitePages.js';
import { buildBlockTree } from '../html/blockTree.js';
import { extractReader, readersMainBlock, readings } from './reader.js';

const prose = (topic: string) =>
  `The ${topic} was discussed at length by the town council on Tuesday evening, and members agreed that the budget for the coming year should set aside more money for repairs, for staff and for the long list of projects that residents had asked for at the spring meetings.`;

const assertHas = (text: string, ...phrases: string[]) => {
  for (const phrase of phrases) assert.ok(text.includes(phrase), `missing "${phrase}" in:\n${text}`);
};
const assertLacks = (text: string, ...phrases: string[]) => {
  for (const phrase of phrases) assert.ok(!text.includes(phrase), `kept "${phrase}" in:\n${text}`);
};

/** A news story with navigation, a photo, a linked sentence, a related-links list, a teaser box beside it and a footer. */
const story = `<html><head><title>Council budget</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<div class="layout"><article class="story"><h1>Council agrees budget</h1>
<p>${prose('bridge repair')}</p>
<figure><img src="/bridge.jpg"><figcaption>Photo credit: Valley Photo Agency</figcaption></figure>
<p>${prose('library extension')}</p>
<p><a href="/report">The full council report is published on the town website for everyone to read</a></p>
<p>${prose('road maintenance')}</p>
<h3>Related stories</h3>
<ul><li><a href="/a">Mayor opens new park in the north district</a></li><li><a href="/b">School term dates announced for next year</a></li><li><a href="/c">Bus timetable changes from Monday morning</a></li></ul>
</article>
<div class="teasers"><div><h4>Ferry strike ends</h4><p>Boats run again, and the harbour master says the timetable is back to normal, more or less.</p></div><div><h4>Market moves</h4><p>Stalls return to the square, with cheese, bread, and flowers, on Saturday mornings.</p></div></div>
</div>
<footer><p>Copyright the Valley Courier, all rights reserved, registered in the county.</p></footer></body></html>`;

/**
 * A tour company's landing page: its `<main>` holds a header, the company's story in two long
 * paragraphs, which the scoring takes alone, six tours of a heading and three short lines each, and
 * a form.
 */
const tour = (name: string, ...lines: string[]) =>
  `<section class="tour"><h2>${name}</h2><ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul></section>`;
const landingPage = (head: string, main = 'main') => `<html><head><title>Harbour Tours</title>${head}</head><body>
<nav><a href="/">Home</a> <a href="/tours">Tours</a> <a href="/contact">Contact</a></nav>
<${main}><header><p>Book now and save ten percent on every tour</p></header>
<section class="story"><h2>Our story</h2><p>${prose('harbour tour company')}</p><p>${prose('new ferry landing')}</p></section>
${tour('Sunset cruise', 'Two hours on the water at dusk', 'Drinks and snacks included', 'Leaves the north pier at seven')}
${tour('Island hopping', 'Three islands in one day', 'Lunch on the beach of the largest', 'Snorkelling gear to borrow')}
${tour('Whale watching', 'Guides who know where whales feed', 'Heated cabin for cold mornings', 'Runs from April to October')}
${tour('Fishing trips', 'Rods and bait on board', 'Half a day or a whole day', 'Your catch cleaned at the pier')}
${tour('Lighthouse walk', 'A guided climb to the lamp room', 'Tea at the keeper cottage', 'Sturdy shoes recommended')}
${tour('Seal colony', 'A quiet boat to the sandbanks', 'Binoculars for every guest', 'Pups to see in early summer')}
<form><input type="email" placeholder="Your email"><button>Subscribe to our tour offers</button></form>
</${main.split(' ')[0]}>
<footer><p>Harbour Tours, registered in the county, all rights reserved.</p></footer></body></html>`;

describe('reader', () => {
  it("reads a page that says it is neither an article nor a product as its whole <main> when the reading holds under half of it; not an article's, a product's or a role=main block's", () => {
    const whole = extractReader(landingPage('<meta property="og:type" content="website">'));
    assertHas(whole.text, 'Our story', 'harbour tour company', 'new ferry landing', 'Sunset cruise', 'Two hours on the water', 'Seal colony', 'Pups to see');
    assert.ok(whole.text.indexOf('new ferry landing') < whole.text.indexOf('Sunset cruise'), 'in document order');
    assertLacks(whole.text, 'Book now and save', 'Subscribe to our tour offers', 'Home', 'registered in the county');
    assert.ok(whole.warnings.includes("the reading is part of the page's <main>: read whole"), whole.warnings.join('; '));
    for (const page of [
      landingPage('<meta property="og:type" content="article">'),
      landingPage('<script type="application/ld+json">{"@type":"Product","name":"Sunset cruise"}</script>'),
      landingPage('', 'div role="main"'),
    ]) {
      const { text } = extractReader(page);
      assertHas(text, 'harbour tour company', 'new ferry landing');
      assertLacks(text, 'Sunset cruise', 'Seal colony');
    }
  });

  it('reads the story in order without navigation, caption, related links, teasers or footer', () => {
    const { text } = extractReader(story);
    assertHas(text, 'Council agrees budget', 'bridge repair', 'library extension', 'The full council report is published', 'road maintenance');
    assert.ok(text.indexOf('bridge repair') < text.indexOf('library extension') && text.indexOf('library extension') < text.indexOf('road maintenance'));
    assertLacks(text, 'Photo credit', 'Mayor opens new park', 'Bus timetable', 'Ferry strike', 'Stalls return', 'Copyright', 'Sport');
  });

  it("reads a page of one short sentence as that sentence, not its site's footer or aside", () => {
    const { text } = extractReader(`<html><body><header><nav><a href="/">Home</a> <span>Subscribe to the copper kettle newsletter today</span></nav></header>
<main><article><h1>About</h1><p>We are a small paper.</p></article></main>
<aside><h3>Related</h3><ul><li><a href="/a">The harbour</a></li><li><a href="/b">The mill</a></li></ul></aside>
<footer><p>Copyright Pebble Times. Purple walrus dances at midnight is our motto.</p><p><a href="/about">About us</a></p></footer></body></html>`);
    assertHas(text, 'We are a small paper.');
    assertLacks(text, 'Purple walrus', 'copper kettle', 'Related');
  });

  it("reads a front page of teasers as its list, not its cookie notice, and a short story's page as the story", () => {
    const teaser = (n: number) =>
      `<div class="card"><a href="/story/${n}"><h3>Harbour story number ${n} makes the evening news</h3><span>The ferry, the market and the mill as the town saw them on day ${n}, in brief.</span></a></div>`;
    const front = `<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="consent"><p>We use cookies to give you the best online experience.</p></div>
<main><div class="grid">${Array.from({ length: 12 }, (_, i) => teaser(i + 1)).join('')}</div></main>
<footer><p>Copyright the Valley Courier.</p></footer></body></html>`;
    const { text, warnings } = extractReader(front);
    assertHas(text, 'Harbour story number 1 makes', 'on day 12, in brief.');
    assertLacks(text, 'Copyright', 'Home', 'We use cookies');
    assert.ok(warnings.includes("the reading is part of the page's <main>: read whole"), warnings.join('; '));
    // Without a <main>, the page read as its listing.
    const withoutMain = front.replace('<main>', '<div class="content">').replace('</main>', '</div>');
    const listing = extractReader(withoutMain);
    assertHas(listing.text, 'Harbour story number 1 makes', 'on day 12, in brief.');
    assertLacks(listing.text, 'Copyright', 'Home');
    assert.ok(listing.warnings.includes('no article: the page read as its listing'), listing.warnings.join('; '));
    assert.ok(!readings(buildBlockTree(withoutMain)).article.warnings.includes('no article: the page read as its listing'), 'the pipeline reads without');
    // One paragraph of news (a long one) beside the same teasers is the page's article; in a <main>,
    // on a page that says it is an article.
    const story = withoutMain.replace(
      '<div class="content">',
      `<div class="content"><article><h1>Bridge closed</h1><p>${prose('bridge closure')}</p></article>`,
    );
    const declaredStory = front
      .replace('<html>', '<html><head><meta property="og:type" content="article"></head>')
      .replace('<main>', `<main><article><h1>Bridge closed</h1><p>${prose('bridge closure')}</p></article>`);
    for (const page of [story, declaredStory]) {
      const read = extractReader(page).text;
      assertHas(read, 'Bridge closed', 'bridge closure');
      assertLacks(read, 'Harbour story number 1 makes');
    }
  });

  it('reads a short Chinese story, not the English footer of more letters than it has characters', () => {
    for (const story of BILINGUAL_STORIES) {
      const { text } = extractReader(bilingualSitePage(story));
      assertHas(text, ...story.paragraphs);
      assertLacks(text, 'All rights reserved', 'High Street');
    }
  });

  it('keeps a short blog post and leaves its long comment thread out', () => {
    const comment = (n: number) =>
      `<li class="comment"><p>Reader ${n} wrote that the new cycle lane along the river is a great idea, although the junction by the old mill still needs better lights, signs and a wider path for families.</p></li>`;
    const page = `<html><body><div id="content"><div class="post"><h2>New cycle lane</h2><p>The council opened the new cycle lane along the river today.</p></div>
<div id="comments"><h3>12 comments</h3><ol class="commentlist">${Array.from({ length: 12 }, (_, n) => comment(n + 1)).join('')}</ol></div></div></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'The council opened the new cycle lane along the river today.');
    assertLacks(text, 'Reader 1 wrote');
  });

  it('reads a page built of widget wrappers (page builders name every container so)', () => {
    const section = (topic: string) =>
      `<section class="elementor-section"><div class="elementor-widget-wrap"><div class="elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container"><p>${prose(topic)}</p></div></div></div></section>`;
    const page = `<html><body><header class="site-header"><a href="/">Home</a></header><div class="elementor">${section('harbour wall')}${section('school roof')}${section('park benches')}</div><footer class="site-footer">Copyright Valley Council</footer></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'harbour wall', 'school roof', 'park benches');
    assertLacks(text, 'Copyright Valley Council');
  });

  it("keeps a widget box between the article's paragraphs when it holds prose of its own, and drops one that holds none", () => {
    const award = (topic: string) =>
      `<div class="c-product-widget c-product-widget--big"><h3>Best ${topic}</h3><div class="c-product-widget__text"><p>${prose(topic)}</p></div></div>`;
    const quotes =
      '<div class="marketdata-widget"><h2><a href="/m">Market data</a></h2><table><tr><td>Harbour Index</td><td>10.41</td><td>-0.19</td><td>-1.79</td></tr></table></div>';
    const page = `<html><body><main><div class="feature"><h1>Best of the year</h1><p>${prose('awards jury')}</p>${award('dishwasher')}${award('kettle')}${quotes}<p>${prose('next year')}</p></div></main></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'awards jury', 'Best dishwasher', 'The dishwasher was discussed', 'The kettle was discussed', 'next year');
    assertLacks(text, 'Harbour Index', 'Market data');
  });

  it('does not read "overflow-hidden" as hidden, nor a layout wrapper named after its sidebar as a sidebar', () => {
    const page = `<html><body><div class="o-layout has-sidebar"><main class="overflow-x-hidden"><h1>Harbour plans</h1><p>${prose('harbour plan')}</p><p>${prose('ferry pier')}</p></main>
<aside class="sidebar"><ul><li><a href="/1">Most read: the new ferry timetable for the summer</a></li><li><a href="/2">Most read: a guide to the harbour walk</a></li></ul></aside></div></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'harbour plan', 'ferry pier');
    assertLacks(text, 'Most read');
  });

  it('reads the whole thread of a forum page, not only its first post', () => {
    const reply = (n: number) =>
      `<div class="post"><h4>Reply ${n}</h4><p>Member ${n} answered that the runner beans should go along the south fence again this year, that the compost bins belong next to the shed, and that the watering rota worked well last summer.</p></div>`;
    const page = `<html><body><nav><a href="/">Forum</a></nav><div class="thread"><h1>Spring planting</h1><div class="first-post">${`<p>${prose('allotment planting')}</p>`.repeat(3)}</div>
<div class="community-replies">${Array.from({ length: 14 }, (_, n) => reply(n + 1)).join('')}</div></div><footer>Copyright Allotment Forum</footer></body></html>`;
    const { text } = extractReader(page);
    for (let n = 1; n <= 14; n++) assertHas(text, `Member ${n} answered`);
    assertLacks(text, 'Copyright Allotment Forum');
  });

  it('reads the post of a thread wrapped in a moderation form, and still sets aside such a form on a page that is no thread', () => {
    // The cookie dialog, set aside, still counts in the page's text: the form holds under a quarter of it.
    const post =
      '<article class="cPost"><input type="checkbox" name="multimod[1]"><p>Member 1 wrote that the case has two small holes below the power supply, and asked whether they are for cable ties.</p></article>';
    const consent = `<div role="dialog" class="cookie-preferences">${`<p>${prose('cookie consent')}</p>`.repeat(4)}</div>`;
    const page = (head: string) =>
      `<html><head>${head}</head><body><main><h1>New PC case</h1><form action="/moderate">${post}</form></main>${consent}</body></html>`;
    const thread = page('<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"New PC case"}</script>');
    assertHas(extractReader(thread).text, 'Member 1 wrote');
    assertLacks(extractReader(page('')).text, 'Member 1 wrote');
  });

  it('reads the replies of a page that says it is a forum thread, named as comments or not', () => {
    const reply = (n: number) =>
      `<article class="comment" itemprop="comment"><div class="comment-body"><p>Member ${n} replied that the night bus should stop at the hospital too, since the nurses on the late shift walk to the station in the dark every evening.</p></div></article>`;
    const thread = (declaration: string) =>
      `<html><head>${declaration}</head><body><div class="topic"><h1>Night bus route</h1><div class="first-post"><p>Does anyone know whether the new night bus will stop at the hospital? The timetable on the council website says nothing about it yet.</p></div>
<section id="replies">${Array.from({ length: 12 }, (_, n) => reply(n + 1)).join('')}</section></div><footer>Copyright Transit Forum</footer></body></html>`;
    const jsonLd =
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Night bus route"}</script>';
    for (const declaration of [jsonLd, '<meta itemscope itemtype="https://schema.org/DiscussionForumPosting">']) {
      const { text } = extractReader(thread(declaration));
      assertHas(text, 'Does anyone know whether', 'Member 1 replied', 'Member 12 replied');
      assertLacks(text, 'Copyright Transit Forum');
    }
    // Undeclared, the same markup reads as a short post under its comments.
    const { text } = extractReader(thread(''));
    assertHas(text, 'Does anyone know whether');
    assertLacks(text, 'Member 1 replied');
  });

  it("drops the members' flair beside the posts of a page that says it is a question and its answers, not when they posted", () => {
    const card = (action: string, name: string, reputation: string) =>
      `<div class="post-signature"><div class="user-info"><div class="user-action-time">${action} May 2, 2009 at 0:09</div><div class="user-details"><a href="/users/1">${name}</a><div class="-flair"><span class="reputation-score">${reputation}</span><span title="gold badges">22 gold badges</span><span title="silver badges">38 silver badges</span></div></div></div></div>`;
    const page = (declaration: string) =>
      `<html><head>${declaration}</head><body><div id="mainbar"><h1>Why is RAID not a backup?</h1><div class="question"><p>${prose('backup question')}</p>${card('asked', 'wzzrd', '10.6k')}</div>
<div class="answer"><p>${prose('mirrored disk')}</p><p>${prose('deleted file')}</p>${card('answered', 'Kevin Dente', '2,255')}</div></div><footer>Site design and logo are licensed</footer></body></html>`;
    const { text } = extractReader(page('<meta itemscope itemtype="https://schema.org/QAPage">'));
    assertHas(text, 'backup question', 'mirrored disk', 'asked May 2, 2009', 'answered May 2, 2009');
    assertLacks(text, '10.6k', 'gold badges');
    // Undeclared, the flair is read as the rest of the card.
    assertHas(extractReader(page('')).text, 'gold badges');
  });

  it("drops a product's customer reviews on a page that says it is a product, not the review of a product that is its page", () => {
    const review = (name: string, topic: string) => `<div class="review"><h4>${name}</h4><p>${prose(topic)}</p></div>`;
    const page = (declaration: string) =>
      `<html><head>${declaration}</head><body><main><h1>KALLAX shelf unit</h1><div class="product-summary"><p>Standing or lying, the shelf unit adapts to taste, space and budget.</p><ul><li>Article number 802.758.87</li><li>Designer: Tord Bjorklund</li></ul></div>
<section class="product-reviews"><h2>Reviews</h2>${review('Dorothy', 'oak stained baskets')}${review('Farah', 'toy storage cubbies')}${review('Daphne', 'delivery process')}${review('Richard', 'sturdy assembly')}</section></main></body></html>`;
    // The summary alone is a fragment of the page's main block: the main block leaves the reviews out too.
    const product = extractReader(page('<meta property="og:type" content="product">')).text;
    assertHas(product, 'the shelf unit adapts to taste', 'Designer: Tord Bjorklund');
    assertLacks(product, 'oak stained baskets', 'delivery process');
    // Undeclared, the reviews are read with the product.
    assertHas(extractReader(page('')).text, 'oak stained baskets');
    // A product page whose column of text is named for the review it is: read.
    const reviewed = `<html><head><meta property="og:type" content="product"></head><body><div id="leftcol" class="item yrmd-review"><h1>2014 Acura RLX</h1><p>${prose('luxury sedan handling')}</p><p>${prose('cabin noise')}</p></div><div class="sidebar"><p>Find a dealer</p></div></body></html>`;
    assertHas(extractReader(reviewed).text, 'luxury sedan handling', 'cabin noise');
  });

  it("never reads the page's footer, even when it holds most of the page's text", () => {
    const footnotes = ['battery testing', 'trade-in values', 'carrier financing', 'display measurements'].map((topic) => `<li>${prose(topic)}</li>`).join('');
    const page = (footer: string) =>
      `<html><body><main><h1>MacBook Air</h1><div class="hero"><p>Strikingly thin and fast, with up to 18 hours of battery life.</p></div></main>${footer}</body></html>`;
    for (const footer of [
      `<footer id="globalfooter"><ol class="footnotes">${footnotes}</ol></footer>`,
      `<div id="globalfooter" role="contentinfo"><ol class="footnotes">${footnotes}</ol></div>`,
    ]) {
      const { text } = extractReader(page(footer));
      assertHas(text, 'up to 18 hours of battery life');
      assertLacks(text, 'battery testing', 'carrier financing');
    }
    // A shell its scripts fill: the footer is all the page holds, and the page reads as empty.
    assert.equal(extractReader(`<html><body><div id="root"></div><footer><ol>${footnotes}</ol></footer></body></html>`).text, '');
  });

  it("drops an ad slot's label between paragraphs, but not a line that mentions ads", () => {
    const page = `<html><body><article><p>${prose('bridge repair')}</p><div class="Off5dpXq"><center><span>ADVERTISEMENT</span></center></div><p>${prose('library extension')}</p><p>Ads pay for this newsletter.</p><p>${prose('school roof')}</p></article></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'bridge repair', 'library extension', 'Ads pay for this newsletter.');
    assertLacks(text, 'ADVERTISEMENT');
  });

  it('keeps both halves of a story split into two wrappers by an interruption, and not a teaser beside them', () => {
    const half = (n: number, topics: string[]) =>
      `<div class="story-body-supplemental"><div class="story-body story-body-${n}">${topics.map((topic) => `<p>${prose(topic)}</p>`).join('')}</div><div class="story-ad">Advertisement</div></div>`;
    const page = `<html><body><article class="story"><header><h1>Budget night</h1></header>${half(1, ['bridge repair'])}
<div class="story-interrupter"><a href="/subscribe">Subscribe today</a></div>${half(2, ['library extension', 'road maintenance', 'harbour wall', 'school roof'])}</article>
<aside class="promo-column"><div class="story-teaser"><p>${prose('ferry timetable')}</p></div><div class="story-body"><p>${prose('market square')}</p></div></aside></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'bridge repair', 'library extension', 'school roof');
    assert.ok(text.indexOf('bridge repair') < text.indexOf('library extension'));
    assertLacks(text, 'ferry timetable', 'market square', 'Subscribe today', 'Advertisement');
  });

  it("reads a story's own tab, not the column around its tabs, nor a tab of teasers beside it", () => {
    /** A story in the first of two tabs, the other a list of `cards` related stories; `nested` puts each card's text in a wrapper of its own. */
    const tabbed = (cards: number, nested: boolean) => {
      const story = [
        'bridge repair',
        'library extension',
        'harbour wall',
        'road maintenance',
        'park benches',
        'street lights',
        'bus shelter',
        'town hall clock',
        'swimming pool',
      ];
      const card = (i: number) => {
        const inner = `<h3><a href="/s/${i}">News of story ${i}</a></h3><p class="announce">The ferry timetable ${i} was discussed at length by the harbour board on Monday, and members agreed, after a long debate, that work should start again from Wednesday, with extra crews, extra hours, and extra money at the weekend.</p>`;
        return nested ? `<div class="item"><div class="item-text">${inner}</div></div>` : `<div class="item">${inner}</div>`;
      };
      return `<html><body><div class="article"><div class="story-header"><h1>Budget night</h1><p>By the council desk, with a short summary of the night, the votes, the budget, the roads, and the bridge.</p><p>Filed late on Tuesday, with reporting from the public gallery, the clerk, and the mayor.</p></div>
<div class="story-full"><div class="tabs-content"><div class="article-body tab-content">${story.map((topic) => `<p>${prose(topic)}</p>`).join('')}</div><div class="story-list tab-content">${Array.from({ length: cards }, (_, i) => card(i + 1)).join('')}</div></div></div>
<div class="box"><h4>Most read</h4><p>The weather over the valley stays mild all week, with a little rain on Thursday and sunshine for the weekend fair.</p></div></div></body></html>`;
    };
    // The column outscores the wrapper between it and the story, but not the story: it is not the article.
    const beside = extractReader(tabbed(6, false)).text;
    assertHas(beside, 'bridge repair', 'swimming pool');
    assertLacks(beside, 'council desk', 'weather over the valley', 'ferry timetable');
    // Twelve teasers with long standfirsts score like a sibling of the story, and would outweigh it.
    const teasers = extractReader(tabbed(12, true)).text;
    assertHas(teasers, 'bridge repair', 'swimming pool');
    assertLacks(teasers, 'ferry timetable');
  });

  it("keeps the story's paragraphs written as <div>s beside it: one holding a <p>, or one named like its own paragraphs", () => {
    const page = `<html><body><div class="story"><div class="lead"><p>${prose('bridge repair')}</p></div>
<div class="story-paragraph">Nobody on the council believed it.</div>
<div class="story-rest">${['library extension', 'road maintenance', 'harbour wall'].map((topic) => `<div class="story-paragraph">${prose(topic)}</div>`).join('')}</div>
<div class="note">This story is part of our coverage of the town, read more of it every day.</div></div>
<footer><p>Copyright the Valley Courier, all rights reserved, registered in the county.</p></footer></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'bridge repair', 'Nobody on the council believed it.', 'library extension', 'harbour wall');
    assert.ok(
      text.indexOf('bridge repair') < text.indexOf('Nobody on the council') && text.indexOf('Nobody on the council') < text.indexOf('library extension'),
    );
    assertLacks(text, 'part of our coverage', 'Copyright');
  });

  it('keeps a paragraph written as a <div> that cites sources in links, and drops a div that is a line of links', () => {
    const cited =
      'Strong words, and below you can read the basis for them, which the council has now published in full for the residents: the <a href="/a">testimony of the harbour master</a>, the <a href="/b">statement of the ferry company</a> and the <a href="/c">letters of the county engineers</a>.';
    const page = `<html><body><div class="post-body"><div>${prose('bridge repair')}</div><div>${cited}</div><div>${prose('library extension')}</div>
<div><a href="/x">Bridge news</a> <a href="/y">Library news</a> <a href="/z">Road news from the county engineers</a></div><div>${prose('road maintenance')}</div></div></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'bridge repair', 'Strong words, and below', 'letters of the county engineers', 'road maintenance');
    assertLacks(text, 'Library news');
  });

  it('does not take a section whose id spells its heading for the kind of block the id names, unless the id is that short', () => {
    const section = (id: string, heading: string, topics: string[]) =>
      `<div class="section" id="${id}"><h2>${heading}</h2>${topics.map((topic) => `<p>${prose(topic)}</p>`).join('')}</div>`;
    const page = `<html><body><div class="document">${section('working-alone', 'Working alone', ['first draft', 'second draft'])}
${section('sharing-with-a-team', 'Sharing with a team', ['shared draft', 'team review'])}
<section id="related-links"><h2>Related links</h2><p>${prose('old draft')}</p></section></div>
<div class="sharing"><a href="/share">Share this page</a></div></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'Sharing with a team', 'shared draft', 'team review', 'first draft');
    assertLacks(text, 'Share this page', 'old draft');
  });

  it('sets aside a gallery list named as such even when it holds most of the page', () => {
    const slide = (n: number) => `<li><h4>${n}/30 Harbour in winter</h4><p>${prose(`photo ${n}`)}</p></li>`;
    const page = `<html><body><article><h1>Harbour reopens</h1><p>${prose('harbour reopening')}</p><p>${prose('ferry pier')}</p>
<div class="gallery"><ul class="legends">${Array.from({ length: 30 }, (_, n) => slide(n + 1)).join('')}</ul></div></article></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'harbour reopening', 'ferry pier');
    assertLacks(text, 'photo 1 ', 'Harbour in winter');
  });

  it('sets aside a sign-up form built without a form element, and keeps a checklist of check boxes', () => {
    const task = (n: number) => `<li><input type="checkbox"> Task ${n}: book the hall, order the chairs and tell the neighbours in good time</li>`;
    const page = `<html><body><article><h1>Planning the street party</h1><p>${prose('street party')}</p>
<div class="box"><p>Get our weekly letter about the valley, its events and its people in your inbox</p><input type="email" placeholder="Your e-mail"><input type="hidden" name="list" value="7"></div>
<p>${prose('party licence')}</p><ul>${Array.from({ length: 4 }, (_, n) => task(n + 1)).join('')}</ul></article></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'street party', 'party licence', 'Task 1: book the hall', 'Task 4: book the hall');
    assertLacks(text, 'weekly letter');
  });

  it('keeps the comments of highlighted code, which a syntax highlighter names as comments', () => {
    const page = `<html><body><article><h1>Git in ten lines</h1><p>${prose('version control')}</p>
<pre><code class="hljs"><span class="hljs-comment"># start a repository</span>\ngit init\n<span class="token comment"># stage every change</span>\ngit add -A</code></pre><p>${prose('commit message')}</p></article>
<div class="comments"><p>Reader 1 wrote that the guide helped a lot with the first steps on the command line.</p></div></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, '# start a repository', '# stage every change', 'git add -A');
    assertLacks(text, 'Reader 1 wrote');
  });

  it('keeps a figure of a table, of code or of a quotation, and still sets aside a photo and its caption', () => {
    const page = `<html><body><article><h1>Largest insurers</h1><p>${prose('insurance market')}</p>
<figure class="wp-block-table"><table><thead><tr><th>Rank</th><th>Insurer</th></tr></thead><tbody><tr><td>1</td><td>Valley Mutual Group</td></tr><tr><td>2</td><td>Harbour Insurance</td></tr></tbody></table></figure>
<figure class="highlight"><pre><code>premiums.sort(byRank)</code></pre></figure>
<figure class="quote"><blockquote><p>Premiums follow the weather, and this was a wet year for the valley.</p></blockquote><figcaption>An underwriter</figcaption></figure>
<figure><img src="/office.jpg"><figcaption>Photo credit: Valley Photo Agency</figcaption></figure><p>${prose('premium growth')}</p></article></body></html>`;
    const { text } = extractReader(page);
    assertHas(text, 'Valley Mutual Group', 'Harbour Insurance', 'premiums.sort(byRank)', 'Premiums follow the weather', 'premium growth');
    assertLacks(text, 'Photo credit');
  });

  it('keeps a data table of linked names in a wrapper that holds only it', () => {
    const rows = ['Quanta Services Inc.', 'MYR Group Inc.', 'MasTec Inc.', 'Rosendin Electric']
      .map((company, i) => `<tr><td><a href="https://example.com/${i}">${company}</a></td><td>$${7 - i}.1B</td></tr>`)
      .join('');
    const page = `<html><body><article><h1>Top electrical contractors</h1><p>${prose('contractor ranking')}</p>
<div class="w-embed"><div class="table-scroll"><table><thead><tr><th>Company</th><th>Revenue</th></tr></thead><tbody>${rows}</tbody></table></div></div>
<p>${prose('revenue growth')}</p></article></body></html>`;
    assertHas(extractReader(page).text, 'Quanta Services Inc.', 'Rosendin Electric', '$7.1B', 'revenue growth');
  });

  it('keeps the links of an article that is mostly links', () => {
    const titles = [
      'Parish registers from the eighteenth century',
      'Maps of the valley and its farms',
      'Minutes of the town council meetings',
      'Photographs of the old railway station',
      'Letters of the founding families of the town',
    ];
    const page = `<html><body><article><h1>Guide to the town archive</h1><p>This guide lists the archive's collections, each on its own page, in the order the archive keeps them on its shelves.</p>
<ul>${titles.map((title, n) => `<li><a href="/c/${n}">${title}</a></li>`).join('')}</ul></article></body></html>`;
    assertHas(extractReader(page).text, ...titles);
  });

  it('reads a page built of sections whole, but not a body of two sections, a story and its teasers', () => {
    const section = (heading: string, ...topics: string[]) =>
      `<section><div><div><h2>${heading}</h2>${topics.map((topic) => `<p>${prose(topic)}</p>`).join('')}</div></div></section>`;
    const service = `<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><div id="offer">
${section('What we do', 'harbour cleanup, the dredging, the new pontoons', 'volunteer rota')}${section('Pricing', 'hourly rate')}${section('Timing', 'schedule')}
</div></main><footer><p>Copyright the Harbour Trust, all rights reserved, registered in the county.</p></footer></body></html>`;
    const read = extractReader(service).text;
    assertHas(read, 'What we do', 'dredging', 'hourly rate', 'Timing', 'schedule');
    assertLacks(read, 'Copyright');

    const teaser = (topic: string) => `<div class="card"><h3>${topic}</h3><p>${prose(topic)}</p></div>`;
    const storyAndTeasers = `<html><body><section><article><h1>Council agrees budget</h1><p>${prose('bridge repair')}</p><p>${prose('library extension')}</p><p>${prose('road maintenance')}</p></article></section>
<section><h2>More news</h2>${teaser('ferry timetable')}${teaser('market square')}</section></body></html>`;
    const story = extractReader(storyAndTeasers).text;
    assertHas(story, 'bridge repair', 'road maintenance');
    assertLacks(story, 'More news', 'ferry timetable');
  });

  it('reads a page without any paragraph of prose, and plain text', () => {
    assert.equal(extractReader('just some plain words').text, 'just some plain words');
    assert.equal(extractReader('<div><span>Opening hours</span><br><span>Mon-Fri 9-5</span></div>').text, 'Opening hours\nMon-Fri 9-5');
  });

  describe('cards of other stories inside the article', () => {
    const card = (slug: string, headline: string, standfirst: string, href = `/news/${slug}.html`) =>
      `<div class="item"><h3><a href="${href}">${headline}</a></h3><div class="date">14:37 19.12.2011</div><div class="announce">${standfirst}</div></div>`;
    const page = (inside: string) =>
      `<html><body><nav><a href="/">Home</a></nav><div class="main"><div class="story"><h1>Council agrees budget</h1><p>${prose('bridge repair')}</p><p>${prose('library extension')}</p><p>${prose('road maintenance')}</p><div class="context">${inside}</div></div></div></body></html>`;

    it('drops two or more headline cards linking elsewhere, with their standfirsts, which link density keeps', () => {
      const { text } = extractReader(page(card('quay', 'Harbour quay reopens', prose('quay')) + card('tram', 'Tram line extension', prose('tram'))));
      assertHas(text, 'bridge repair', 'road maintenance');
      assertLacks(text, 'Harbour quay reopens', 'The quay was discussed', 'The tram was discussed', '14:37');
    });

    it('keeps a single card, headings linking to their own place on the page, and cards beside a long section', () => {
      assertHas(extractReader(page(card('quay', 'Harbour quay reopens', prose('quay')))).text, 'The quay was discussed');
      const permalinks = card('a', 'Harbour quay reopens', prose('quay'), '#quay') + card('b', 'Tram line extension', prose('tram'), '#tram');
      assertHas(extractReader(page(permalinks)).text, 'The quay was discussed', 'The tram was discussed');
      const long = card('a', 'Harbour quay reopens', prose('quay')) + card('b', 'Tram line extension', `${prose('tram')} ${prose('campus')} ${prose('depot')}`);
      assertHas(extractReader(page(long)).text, 'The quay was discussed', 'The tram was discussed');
    });

    it('leaves them out of the main block that may stand in for the article', () => {
      const html = page(card('quay', 'Harbour quay reopens', prose('quay')) + card('tram', 'Tram line extension', prose('tram')));
      const text = readersMainBlock(buildBlockTree(html))
        .lines.map((line) => line.text)
        .join('\n');
      assertHas(text, 'The bridge repair was discussed', 'The road maintenance was discussed');
      assertLacks(text, 'The quay was discussed', 'The tram was discussed', '14:37');
    });

    it('keeps cards that are most of the article: a listing, a list article', () => {
      const restaurants = [1, 2, 3, 4].map((n) => card(`r${n}`, `Restaurant number ${n} by the quay`, prose(`restaurant number ${n}`))).join('');
      const listing = `<html><body><div class="main"><h1>Best harbour restaurants</h1><p>${prose('restaurant guide')}</p>${restaurants}</div></body></html>`;
      assertHas(extractReader(listing).text, 'The restaurant number 3 was discussed');
    });
  });

  it('keeps a section with some link text between paragraphs of prose, and drops the same section after the last one', () => {
    const section = (n: number) =>
      `<div><h3>Chapter ${n} of the harbour guide</h3><p>Read <a href="/chapter-${n}">the chapter on moorings</a> before you sail in.</p></div>`;
    const page = (middle: string, end: string) =>
      `<html><body><article><h1>The harbour guide</h1><p>${prose('harbour dredging')}</p>${middle}<p>${prose('lighthouse repair')}</p>${end}</article></body></html>`;
    const inside = extractReader(page(section(2), '')).text;
    assertHas(inside, 'Chapter 2 of the harbour guide', 'the chapter on moorings', 'harbour dredging', 'lighthouse repair');
    const after = extractReader(page('', section(3))).text;
    assertHas(after, 'harbour dredging', 'lighthouse repair');
    assertLacks(after, 'Chapter 3 of the harbour guide');
  });

  it('keeps a row of photos with their names between paragraphs of prose, and drops it after the last one', () => {
    const photos = (n: number) =>
      `<div><img src="/a${n}.jpg"><img src="/b${n}.jpg"><img src="/c${n}.jpg"><span>Kettle model ${n} in copper, brass and brushed steel finishes, with a wooden handle</span></div>`;
    const page = (middle: string, end: string) =>
      `<html><body><article><h1>Kettles</h1><p>${prose('kettle testing')}</p>${middle}<p>${prose('kettle pricing')}</p>${end}</article></body></html>`;
    assertHas(extractReader(page(photos(2), '')).text, 'Kettle model 2 in copper', 'kettle testing', 'kettle pricing');
    assertLacks(extractReader(page('', photos(3))).text, 'Kettle model 3 in copper');
  });
});
