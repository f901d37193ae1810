import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from './blockTree.js';
import { buildDom, renderDom } from './dom.js';
import { methodByName, METHOD_NAMES, type SinglePageMethod } from '../methods/methods.js';
import { blockLines } from './blockLines.js';
import { HAND_MADE_SENTENCES } from '../testing/handMadePages.js';

const singlePageMethods = METHOD_NAMES.map(methodByName).filter((method): method is SinglePageMethod => method.kind === 'single');

/** A page that omits `</head>` and `<body>`, as HTML allows: the `<div>` ends the head and opens the body. */
const headlessBody = `<html><head><title>Bridge</title><meta charset=utf-8><div><h1>Bridge to close</h1>${HAND_MADE_SENTENCES.map((sentence) => `<p>${sentence}`).join('')}</div>`;

const blockTreeText = (html: string): string =>
  blockLines(buildBlockTree(html).root)
    .lines.map((line) => line.text)
    .join('\n');
const domText = (html: string): string => renderDom(buildDom(html).root).join('\n');

describe('the head ends where a browser ends it', () => {
  for (const [parser, text] of [
    ['block tree', blockTreeText],
    ['compact DOM', domText],
  ] as const) {
    it(`${parser}: a start tag that does not belong in a head, or text, opens the body; head content stays out`, () => {
      assert.equal(text('<html><head><title>t</title><meta charset=utf-8><div><p>first words'), 'first words');
      assert.equal(text('<html><head><title>t</title><link rel=stylesheet href=a.css>stray words<p>more'), 'stray words\nmore');
      assert.equal(text('<head><title>t</title>\n  <script>var a = "<p>no";</script>\n<style>p{}</style></head><body><p>body words</p></body>'), 'body words');
      assert.equal(text('<html><head><noscript><img src=x></noscript><title>t</title></head><body>after</body></html>'), 'after');
      // A page pasted after another page's head: the repeated <html> and <head> are ignored, and its </head> ends the head.
      assert.equal(
        text('<head><title>t</title><meta name=a content=b><!DOCTYPE html><html><head><title>u</title></head><body><p>pasted page</p></body></html>'),
        'pasted page',
      );
    });
  }

  for (const method of singlePageMethods) {
    // Some paper methods read only one paragraph of any page (see handMade.test.ts); every method must read the article.
    it(`${method.name}: reads the article of a page without </head> and <body>`, () => {
      const text = method.extract(headlessBody).text;
      assert.ok(
        HAND_MADE_SENTENCES.some((sentence) => text.includes(sentence)),
        `missing the article in:\n${text}`,
      );
    });
  }
});
