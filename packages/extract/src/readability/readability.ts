import { createRequire } from 'node:module';
import { Parser } from 'htmlparser2';
import { buildBlockTree } from '../html/blockTree.js';
import { ExtractionError } from '../result/errors.js';
import { checkedHtml } from '../html/input.js';
import { DEFAULT_LIMITS } from '../html/limits.js';
import { blockLines } from '../html/blockLines.js';
import { resultOf, type ExtractionResult } from '../result/result.js';

/** jsdom costs 0.6 s and 70 MB to load: only a process that runs this peer loads it. */
const require = createRequire(import.meta.url);

/**
 * Mozilla Readability 0.6 on jsdom, the peer every extractor is compared with (comparison only: it
 * is 30-60x slower than our parser). The article it returns is HTML; we render it with our own
 * block tree so its text comes out one block per line, like every other method's. jsdom's CSS
 * errors go to a silent console. Every page is parsed by the DOMParser of one jsdom window per
 * process (see `documentParser`).
 * Pages nested deeper than `MAX_NESTING` elements are refused with a typed error: jsdom and
 * Readability recurse, and took 81 s at 1,000 levels and overflowed the stack at 3,000 here.
 * So are pages of more than `MAX_ELEMENTS` elements: jsdom lists an element's children afresh at
 * each access, so Readability's time grows faster than the page (48 s for a paragraph of 150,000
 * lines here), while the largest page of every shared dataset has under 16,000.
 */
export function extractWithReadability(html: string): ExtractionResult {
  const { content, warnings } = readabilityArticle(html);
  if (content === null) return resultOf('readability', [], [...warnings, 'Readability found no article']);
  const tree = buildBlockTree(content);
  return resultOf('readability', blockLines(tree.root).lines, [...warnings, ...tree.warnings]);
}

/**
 * The article HTML Readability finds on a page (null when it finds none). `keepClasses` keeps the
 * elements' class attributes, which Readability strips by default, for readers that judge blocks
 * by their names.
 */
export function readabilityArticle(html: string, options: { keepClasses?: boolean } = {}): { content: string | null; warnings: string[] } {
  const warnings: string[] = [];
  const page = checkedHtml(html, DEFAULT_LIMITS, warnings);
  const { deepest, elements } = elementCounts(page);
  if (deepest > MAX_NESTING) {
    throw new ExtractionError('too-deep', `elements nest more than ${MAX_NESTING} deep: Readability on jsdom would take minutes or overflow its stack`);
  }
  if (elements > MAX_ELEMENTS) {
    throw new ExtractionError('too-many-elements', `more than ${MAX_ELEMENTS} elements: Readability on jsdom would take minutes`);
  }
  const { Readability } = require('@mozilla/readability') as typeof import('@mozilla/readability');
  const document = documentParser().parseFromString(page, 'text/html');
  const article = new Readability(document, { keepClasses: options.keepClasses ?? false }).parse();
  return { content: article?.content || null, warnings };
}

type DocumentParser = InstanceType<import('jsdom').DOMWindow['DOMParser']>;

let parser: DocumentParser | undefined;

/**
 * The DOMParser of one jsdom window, made on first use and kept for the process. A window per page
 * leaks: each is a V8 context that stays reachable after `window.close()` (3.6 MB retained per page
 * on scrapinghub, 2 GB after three passes over its 181 pages; flat with one window). The documents
 * it parses share nothing with each other — Readability reads and edits only the document it is
 * given — and Readability's articles are the same as with a window per page (checked on 60 pages).
 */
function documentParser(): DocumentParser {
  if (!parser) {
    const { JSDOM, VirtualConsole } = require('jsdom') as typeof import('jsdom');
    parser = new new JSDOM('', { virtualConsole: new VirtualConsole() }).window.DOMParser();
  }
  return parser;
}

const MAX_NESTING = 200;
const MAX_ELEMENTS = 100_000;

/** How deep elements nest and how many there are, counting no further than just past either cap. */
function elementCounts(html: string): { deepest: number; elements: number } {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  const parser: Parser = new Parser({
    onopentag() {
      deepest = Math.max(deepest, ++depth);
      if (deepest > MAX_NESTING || ++elements > MAX_ELEMENTS) parser.pause();
    },
    onclosetag() {
      depth--;
    },
  });
  parser.write(html);
  return { deepest, elements };
}
