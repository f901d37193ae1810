import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { buildBlockTree } from './blockTree.js';
import { renderBlock } from './render.js';
import { resultOf, type ExtractionResult } from './result.js';

/**
 * Mozilla Readability 0.6 on jsdom, the peer every extractor is compared with (comparison only: it
 * is 30-60x slower than our parser). The article it returns is HTML; we render it with our own
 * block tree so its text comes out one block per line, like every other method's. jsdom's CSS
 * errors go to a silent console, and each window is closed so that pages do not pile up in memory.
 */
export function extractWithReadability(html: string): ExtractionResult {
  const dom = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  try {
    const article = new Readability(dom.window.document).parse();
    if (!article?.content) return resultOf('readability', [], ['Readability found no article']);
    const tree = buildBlockTree(article.content);
    return resultOf('readability', renderBlock(tree.root).lines, tree.warnings);
  } finally {
    dom.window.close();
  }
}
