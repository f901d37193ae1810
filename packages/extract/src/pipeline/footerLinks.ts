import type { ExtractedBlock } from '../result/result.js';

/** Separators between the links of a site's link line ("About us | Contact | Jobs"). */
const BAR = /\s*[|｜]\s*/u;

/** Links from which a barred line reads as the site's link list, not a pair of labels. */
const MIN_LINKS = 4;

/** The longest link of such a line: a page's name, not a phrase of the article. */
const MAX_LINK_CHARS = 20;

/** The most words (space-separated tokens) a link of such a line holds. */
const MAX_LINK_WORDS = 4;

/** A CJK character, a word of its own (a Chinese sentence has no spaces). */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/**
 * Whether the line is a run of short links separated by bars (`MIN_LINKS` or more, each at most
 * `MAX_LINK_CHARS` characters and `MAX_LINK_WORDS` words), as a site's footer writes its own pages:
 * "关于我们 | About us | 联系我们 | 广告服务 | …".
 */
export function isBarredLinkLine(text: string): boolean {
  const parts = text
    .split(BAR)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length < MIN_LINKS) return false;
  return parts.every((part) => part.length <= MAX_LINK_CHARS && part.split(/\s+/).length <= MAX_LINK_WORDS);
}

/**
 * The text cut before a run of short links separated by bars in its second half (by words), the
 * site's footer that a page read alone, or a template that kept the page's last block, took along
 * (issue 38: boilerplate in the indexed text; chinanews.com's "关于我们 | About us | 联系我们 | …"
 * line, then its copyright and licence lines). What follows such a line is the footer too. In the
 * first half such a line stays: dragnet's gold keeps a list of the newspapers an article cites,
 * set the same way under its headline. Figures: docs/design.md.
 */
export function cutAtFooterLinks(blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  const words = blocks.map((block) => wordCount(block.text));
  const total = words.reduce((sum, count) => sum + count, 0);
  let before = 0;
  for (const [i, block] of blocks.entries()) {
    if (i > 0 && 2 * before >= total && isBarredLinkLine(block.text)) return blocks.slice(0, i);
    before += words[i] ?? 0;
  }
  return blocks;
}

function wordCount(text: string): number {
  return text.replace(CJK_CHAR, ' $& ').split(/\s+/).filter(Boolean).length;
}
