import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree, type Block } from './blockTree.js';
import { ExtractionError } from '../result/errors.js';
import { blockLines, pageLines } from './blockLines.js';

const texts = (html: string): string[] => blockLines(buildBlockTree(html).root).lines.map((line) => line.text);

describe('buildBlockTree', () => {
  it('spells traversal paths as the paper does, starting HTML.BODY even when the page omits them', () => {
    const tree = buildBlockTree('<table><tr><p>cell text</p></tr></table>');
    const paths = tree.blocks.map((block) => block.path);
    assert.ok(paths.includes('HTML.BODY.TABLE.TR.P'), paths.join(' '));
    assert.equal(tree.blocks[0]?.path, 'HTML');
  });

  it('tells a page that says it is a forum thread, by microdata or by JSON-LD in the head or the body, from one that does not', () => {
    const declared = [
      '<div itemscope itemType="http://schema.org/DiscussionForumPosting"><p>first post</p></div>',
      '<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting"}</script></head><body><p>first post</p></body></html>',
      '<p>first post</p><script type="application/ld+json">[{"@type": ["DiscussionForumPosting"]}]</script>',
    ];
    for (const html of declared) assert.equal(buildBlockTree(html).discussion, true, html);
    const undeclared = [
      '<div itemscope itemtype="https://schema.org/Article"><p>DiscussionForumPosting is a type</p></div>',
      '<script>var type = {"@type":"DiscussionForumPosting"};</script><p>a script that is not JSON-LD</p>',
      '<div itemscope itemtype="https://schema.org/QAPage"><p>a question</p></div>',
    ];
    for (const html of undeclared) assert.equal(buildBlockTree(html).discussion, false, html);
  });

  it('tells a page that says it is an article, a product or a question, by og:type, JSON-LD or microdata, from one that says neither', () => {
    const article = [
      '<html><head><meta property="og:type" content="article"></head><body><p>story</p></body></html>',
      '<html><head><META content="article" PROPERTY="og:type"></head><body><p>story</p></body></html>',
      '<html><head><script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"NewsArticle"}]}</script></head><body><p>story</p></body></html>',
      '<div itemscope itemtype="https://schema.org/BlogPosting"><p>post</p></div>',
      '<script type="application/ld+json">{"@type":["TechArticle","HowTo"]}</script><p>guide</p>',
    ];
    for (const html of article) assert.deepEqual(buildBlockTree(html).declares, { article: true, product: false, questions: false }, html);
    const product = [
      '<html><head><meta property="og:type" content="product.item"></head><body><p>a lamp</p></body></html>',
      '<html><head><meta property="og:type" content="og:product"></head><body><p>a lamp</p></body></html>',
      '<script type="application/ld+json">{"@context":"https://schema.org/","@type":"Product","name":"Lamp"}</script><p>a lamp</p>',
      '<div itemscope itemtype="http://schema.org/Product"><p>a lamp</p></div>',
    ];
    for (const html of product) assert.deepEqual(buildBlockTree(html).declares, { article: false, product: true, questions: false }, html);
    const neither = [
      '<html><head><meta property="og:type" content="website"></head><body><p>our services</p></body></html>',
      '<html><head><meta name="og:type" content="articles"></head><body><p>our services</p></body></html>',
      '<script type="application/ld+json">{"@type":"Organization","name":"Product Article Ltd"}</script><p>about us</p>',
      '<script>var page = {"@type":"Article"};</script><p>a script that is not JSON-LD</p>',
      '<div itemscope itemtype="https://schema.org/ArticleList"><p>a list</p></div>',
    ];
    for (const html of neither) assert.deepEqual(buildBlockTree(html).declares, { article: false, product: false, questions: false }, html);
    const questions = [
      '<body itemscope itemtype="https://schema.org/QAPage"><div itemprop="mainEntity"><p>How do I back up?</p></div></body>',
      '<script type="application/ld+json">{"@context":"http://schema.org","@type":"QAPage","name":"How do I back up?"}</script><p>How do I back up?</p>',
    ];
    for (const html of questions) assert.deepEqual(buildBlockTree(html).declares, { article: false, product: false, questions: true }, html);
  });

  it("lists the blocks microdata marks as a post's text, in document order", () => {
    const tree = buildBlockTree(
      '<div itemprop="articleBody"><p>first post</p></div><div itemprop="name">title</div><div itemprop="text commentText">reply</div>',
    );
    assert.deepEqual(
      tree.postTexts.map((block) => block.items.filter((item) => typeof item === 'string').join('') || block.tag),
      ['div', 'reply'],
    );
  });

  it('reads the attributes it keeps among others, first occurrence first, entities decoded', () => {
    const tree = buildBlockTree(
      '<div data-a="&amp;x" ID="Main" data-b=y class="Story &amp; more" class="ignored" title=t role="Main note"><a target=_blank href="#top">top</a><input data-x=1 type="SEARCH"><span style="display:none" STYLE="x">hidden</span>text</div>',
    );
    const block = tree.blocks[2] as Block;
    assert.equal(block.hint, 'main story & more');
    assert.equal(block.role, 'main');
    assert.equal(block.inputs, 1);
    assert.equal(block.fragmentLinkChars, 3);
    assert.deepEqual(
      texts(
        '<div data-a="&amp;x" ID="Main" data-b=y class="Story &amp; more" class="ignored" title=t role="Main note"><a target=_blank href="#top">top</a><span style="display:none" STYLE="x">hidden</span>text</div>',
      ),
      ['toptext'],
    );
  });

  it('keeps text in document order and inline elements inside their block', () => {
    assert.deepEqual(texts('<div>one <b>two</b> three<p>four</p>five<br>six</div>'), ['one two three', 'four', 'five', 'six']);
  });

  it('drops a counter of digits alone run into the next word, and keeps numbers of the text', () => {
    assert.deepEqual(texts('<p><a name="p1"></a><a class="comments_count" title="Comment">0</a>Forward Kuznetsov scored</p>'), ['Forward Kuznetsov scored']);
    assert.deepEqual(texts('<p>Read <a href="/c">12</a>Comments</p>'), ['Read Comments']);
    assert.deepEqual(texts('<p><a href="#c">0</a><span><i>Все изменения</i></span></p><p><a href="#c">0</a>"Во время прыжка"</p>'), [
      'Все изменения',
      '"Во время прыжка"',
    ]);
    assert.deepEqual(texts('<p><a href="/c">0</a><span></span> <span>Seen</span></p>'), ['0 Seen']);
    assert.deepEqual(texts('<p><b>3</b> apples and page <a href="/2">2</a> of <i>10</i></p>'), ['3 apples and page 2 of 10']);
    assert.deepEqual(texts('<p>in 20<sup>12</sup>th place, note<a href="#n">1</a>, 1<sup>st</sup></p>'), ['in 2012th place, note1, 1st']);
    const tree = buildBlockTree('<p><a href="/c">0</a>Forward</p>');
    assert.equal(tree.blocks[2]?.linkChars, 0);
    assert.equal(tree.blocks[2]?.textChars, 'Forward'.length);
  });

  it('keeps a sentence through a span on one line', () => {
    assert.deepEqual(texts('<p>the US <span>House of Representatives</span> passed</p>'), ['the US House of Representatives passed']);
  });

  it('reads <noscript> content and hidden elements when the page shows almost nothing without them', () => {
    const post =
      '<p>The harbour committee met on Tuesday and agreed to repair the north wall before the winter storms, to widen the ferry pier, and to ask the county for the money that the repairs will need next year.</p>';
    const app = buildBlockTree(
      `<body><div id="app">Loading…</div><noscript><div class="crawler-post">${post}${post}</div></noscript><noscript>Enable JavaScript</noscript></body>`,
    );
    const appText = blockLines(app.root).lines.map((line) => line.text);
    assert.ok(
      appText.some((line) => line.startsWith('The harbour committee')),
      appText.join('\n'),
    );
    assert.ok(
      app.warnings.some((warning) => warning.includes('<noscript>')),
      app.warnings.join('; '),
    );
    const unstyled = texts(`<body><div style="visibility:hidden;min-height:100vh"><h1>Harbour</h1>${post}${post}</div></body>`);
    assert.equal(unstyled[0], 'Harbour');
    const page = texts(`<body>${post}<div hidden>Sign in to continue</div><noscript>Enable JavaScript</noscript></body>`);
    assert.equal(page.length, 1, page.join('\n'));
    const menu = '<p>Home, News, Sport, Weather, Culture, Travel, Opinion, Business and the harbour archive.</p>';
    const brief = texts(`<body>${post}<div hidden>${menu}${menu}</div></body>`);
    assert.equal(brief.length, 1, `hidden menus that do not double the text stay hidden:\n${brief.join('\n')}`);
  });

  it("reads a collapsed panel that a control before it opens (an accordion's answer) or that its class names so, and a tab's hidden panel, and nothing else hidden", () => {
    const faq = texts(
      `<div class="faq"><h3><a role="button" aria-controls="a1 a2" aria-expanded="false">When does the ferry run?</a></h3>
<div id="a1" role="region" style="display:none"><p>Every hour from six in the morning.</p></div><div id="a2" hidden>Tickets are sold on board.</div>
<div class="chakra-collapse" style="overflow:hidden;display:none"><div id="a9">Children travel free.</div></div><div id="a3" hidden>Sign in to continue</div><div id="a4" style="display:none">A panel whose control comes after it</div><button aria-controls="a4">Open</button></div>`,
    );
    assert.deepEqual(faq, ['When does the ferry run?', 'Every hour from six in the morning.', 'Tickets are sold on board.', 'Children travel free.']);
    const tabs = texts(
      '<ul role="tablist"><li role="tab">Python</li><li role="tab">Java</li></ul><div role="tabpanel"><p>pip install harbour</p></div><div role="tabpanel" hidden><p>mvn install harbour</p></div>',
    );
    assert.deepEqual(tabs, ['Python', 'Java', 'pip install harbour', 'mvn install harbour']);
  });

  it('ends a <noscript> at its end tag whatever it holds, as a browser that runs scripts does: an iframe without an end tag in it does not swallow the page', () => {
    const gtm = '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" style="display: none" /></noscript>';
    assert.deepEqual(texts(`<body>${gtm}<p>The article after the snippet.</p></body>`), ['The article after the snippet.']);
    assert.deepEqual(texts(`<body><noscript><xmp>x</noscript><p>After an unclosed xmp.</p></body>`), ['After an unclosed xmp.']);
    // Outside a <noscript> an iframe is raw text up to its end tag, as in a browser: its fallback markup is no element.
    assert.deepEqual(texts('<body><iframe src="x"><p>fallback</p></iframe><p>After the frame.</p></body>'), ['After the frame.']);
    // A script inside a <noscript> stays raw text: its "</p><p>" is no markup.
    assert.deepEqual(texts('<body><noscript><script>var a = "</p><p>no text";</script></noscript><p>After.</p></body>'), ['After.']);
  });

  it('skips scripts, styles, the head and hidden elements, but counts scripts as features', () => {
    const tree = buildBlockTree(
      '<head><title>T</title></head><body><div>shown<script>var hidden = 1;</script><style>p{}</style>' +
        '<p hidden>gone</p><p style="color:red; display: none">gone too</p><noscript>no</noscript></div></body>',
    );
    assert.deepEqual(
      blockLines(tree.root).lines.map((line) => line.text),
      ['shown'],
    );
    assert.equal(tree.blocks.find((block) => block.tag === 'div')?.scripts, 1);
  });

  it("reads an <object>'s fallback content, which browsers show now that plugins are gone", () => {
    const video =
      '<object data="/player.swf" type="application/x-shockwave-flash"><param name="movie" value="/player.swf">' +
      '<div><p>The senator answers questions on the budget.</p></div></object>';
    assert.deepEqual(texts(`<body><p>Before.</p>${video}<iframe src="/ad">frame text</iframe></body>`), [
      'Before.',
      'The senator answers questions on the budget.',
    ]);
    const displayed =
      '<object data="/report.pdf" type="application/pdf"><p>Download the report.</p></object><object data="/chart.svg"><p>A chart.</p></object>';
    assert.deepEqual(texts(`<body><p>Before.</p>${displayed}</body>`), ['Before.'], 'a PDF and an SVG are shown, not their fallback');
  });

  it('counts links, images and link text of a block', () => {
    const tree = buildBlockTree('<div><a href="/x">link</a> text <img src="a.png"></div>');
    const div = tree.blocks.find((block) => block.tag === 'div') as Block;
    assert.equal(div.links, 1);
    assert.equal(div.images, 1);
    assert.equal(div.linkChars, 4);
  });

  it('reads broken markup best-effort', () => {
    assert.deepEqual(texts('<div><p>unclosed <b>bold<div>next</span></p>'), ['unclosed bold', 'next']);
  });

  it('reads plain text that has no markup', () => {
    assert.deepEqual(texts('just some words'), ['just some words']);
  });

  it('builds a 100,000-deep DOM without overflowing the stack, capping block depth and keeping the text', () => {
    const depth = 100_000;
    const html = `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}`;
    const tree = buildBlockTree(html);
    assert.ok(tree.blocks.length < 300);
    assert.match(tree.warnings.join(' '), /nested deeper than/);
    assert.deepEqual(
      blockLines(tree.root).lines.map((line) => line.text),
      ['deep text'],
    );
  });

  it('counts the <html> and <head> tags a head ignores as open elements (htmlparser2 keeps them open), and reads on past the cap', () => {
    const inHead = `<html><head><title>T</title>${'<html>'.repeat(20_000)}</head><body><p>The story's words.</p></body></html>`;
    const inBody = `<html><head><title>T</title></head><body><p>The story's words.</p>${'<head>'.repeat(20_000)}<p>More of them.</p></body></html>`;
    for (const [html, text] of [
      [inHead, ["The story's words."]],
      [inBody, ["The story's words.", 'More of them.']],
    ] as const) {
      const tree = buildBlockTree(html);
      assert.match(tree.warnings.join(' '), /more than 5000 elements open at once/);
      assert.deepEqual(
        blockLines(tree.root).lines.map((line) => line.text.trim()),
        text,
      );
    }
  });

  it('caps the number of blocks and says so', () => {
    const tree = buildBlockTree('<p>x</p>'.repeat(50), { limits: { maxBlocks: 10 } });
    assert.equal(tree.blocks.length, 10);
    assert.match(tree.warnings.join(' '), /more than 10 blocks/);
    assert.equal(
      blockLines(tree.root)
        .lines.map((line) => line.text)
        .join('').length,
      50,
    );
  });

  it('truncates a page over the input cap and says so', () => {
    const html = `<p>${'word '.repeat(5_000_000)}</p>`;
    const tree = buildBlockTree(html);
    assert.match(tree.warnings.join(' '), /truncated/);
  });

  it('refuses empty and binary input with typed errors', () => {
    assert.throws(
      () => buildBlockTree(''),
      (error: unknown) => error instanceof ExtractionError && error.code === 'empty-input',
    );
    assert.throws(
      () => buildBlockTree('  \n '),
      (error: unknown) => error instanceof ExtractionError && error.code === 'empty-input',
    );
    assert.throws(
      () => buildBlockTree('\u0000\u0001\u0002binary\u0000'.repeat(100)),
      (error: unknown) => error instanceof ExtractionError && error.code === 'binary-input',
    );
  });

  it('a stray NUL in a page given as a string is read as U+FFFD, never kept', () => {
    const tree = buildBlockTree(`<p>${'text '.repeat(100)}</p><p>a\u0000b</p>`);
    const text = blockLines(tree.root)
      .lines.map((line) => line.text)
      .join(' ');
    assert.ok(!text.includes('\u0000') && text.includes('a\ufffdb'), text.slice(-40));
    assert.match(tree.warnings.join(' '), /NUL characters were replaced/);
  });

  it('a character whose low byte is zero (U+0100, U+2000) is no NUL: kept, with no warning; a NUL beside one is replaced', () => {
    const tree = buildBlockTree(`<p>${'text '.repeat(100)}</p><p>\u0100 \u2000b \u2019</p>`);
    const text = blockLines(tree.root)
      .lines.map((line) => line.text)
      .join(' ');
    assert.ok(text.includes('\u0100') && !text.includes('\ufffd'), text.slice(-40));
    assert.deepEqual(tree.warnings, []);
    const withNul = buildBlockTree(`<p>${'text '.repeat(100)}</p><p>\u0100 a\u0000b \u2019</p>`);
    assert.match(withNul.warnings.join(' '), /NUL characters were replaced/);
  });

  it('refines paths with stable id and class tokens when asked', () => {
    const tree = buildBlockTree('<div id="main" class="story col-12 body"><p>x</p></div>', { pathMode: 'tags+classes' });
    assert.ok(tree.blocks.some((block) => block.path === 'HTML.BODY.DIV#main[body story].P'));
  });
});

describe('pageLines', () => {
  it("reads a page's lines once per tree, as blockLines renders its root", () => {
    const html = '<h1>Headline</h1><p>First <span>paragraph</span></p><p>Second</p>';
    const tree = buildBlockTree(html);
    assert.deepEqual(pageLines(tree), blockLines(tree.root).lines);
    assert.equal(pageLines(tree), pageLines(tree));
    assert.notEqual(pageLines(buildBlockTree(html)), pageLines(tree));
  });
});
