import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { HAND_MADE_PAGES } from '../testing/handMadePages.js';
import { FastTokenizer } from './fastTokenizer.js';

/** Every event the parser reports, with its indices, in one string. */
function events(html: string, fast: boolean, decodeEntities = true): string {
  const seen: string[] = [];
  const at = () => `@${parser.startIndex},${parser.endIndex}`;
  const parser: Parser = new Parser(
    {
      onopentag: (name, attribs) => seen.push(`<${name} ${JSON.stringify(attribs)}${at()}`),
      ontext: (text) => seen.push(`"${text}"${at()}`),
      onclosetag: (name, implied) => seen.push(`</${name} ${implied}${at()}`),
      oncomment: (text) => seen.push(`!${text}${at()}`),
      onprocessinginstruction: (name, value) => seen.push(`?${name} ${value}${at()}`),
    },
    { decodeEntities, lowerCaseTags: true, lowerCaseAttributeNames: true, ...(fast ? { Tokenizer: FastTokenizer } : {}) },
  );
  parser.end(html);
  return seen.join('\n');
}

const TRICKY = [
  '<!DOCTYPE html><p class="a&amp;b" title=\'x&lt;y\' data-x=un&quot;quoted>Fish &amp; chips &copy 2024 &#x41;&#65;</p>',
  '<script>if (a < b && c) document.write("</scr" + "ipt>");</script><style>a>b{x:1}</style>after',
  '<!-- a -- b --><!--><!---><!-- x ---><![CDATA[ y ]]><?php echo 1 ?>text</p >',
  '<title>A &amp; B <b></title><textarea>x &lt; y</textarea><plaintext>rest &amp; <b>',
  '<a href="unterminated &amp',
  'text ending in an entity &am',
  '<div id=a class="b c" hidden>one<br/>two</div  ><img src=x alt="a"b>',
  '<svg><foreignObject><p>in</p></foreignObject><clipPath/></svg>',
];

describe('FastTokenizer', () => {
  it('reports every event of the stock tokenizer, at the same indices, on tricky markup', () => {
    for (const html of TRICKY) {
      for (let cut = 0; cut <= html.length; cut++) {
        const page = html.slice(0, cut);
        assert.equal(events(page, true), events(page, false), page);
        assert.equal(events(page, true, false), events(page, false, false), page);
      }
    }
  });

  it('reports every event of the stock tokenizer on the hand-made pages', () => {
    for (const page of HAND_MADE_PAGES) assert.equal(events(page.html, true), events(page.html, false));
  });
});
