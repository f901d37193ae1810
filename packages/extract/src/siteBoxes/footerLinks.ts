import type { ExtractedBlock } from '../result/result.js';

/** Separators between the links of a site's link line ("About us | Contact | Jobs"). */
const BAR = /\s*[|｜]\s*/u;

/** Links from which a barred line reads as the site's link list, not a pair of labels. */
const MIN_LINKS = 4;

/** The longest link of such a line: a page's name, not a phrase of the article. */
const MAX_LINK_CHARS = 20;

/** The most words (space-separated tokens) a link of such a line holds. */
const MAX_LINK_WORDS = 4;

/** A link's name: letters and the punctuation of names, no digit and no colon (a label and its value, "Servings: 12", is data). */
const LINK_NAME = /^[\p{L}\p{M}\s&'’.-]+$/u;

/** A CJK character, a word of its own (a Chinese sentence has no spaces). */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/**
 * Whether the line is a run of short links separated by bars (`MIN_LINKS` or more, each at most
 * `MAX_LINK_CHARS` characters and `MAX_LINK_WORDS` words, names without a digit or a colon), as a
 * site's footer writes its own pages: "关于我们 | About us | 联系我们 | 广告服务 | …". A recipe's
 * "Prep Time: 2 Hours | Cook Time: | Difficulty: Easy | Servings: 12" is no such line: read as one,
 * it cut a dragnet recipe page in half (reader shingle F1 dragnet -0.00005).
 */
export function isBarredLinkLine(text: string): boolean {
  const parts = text
    .split(BAR)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length < MIN_LINKS) return false;
  return parts.every((part) => part.length <= MAX_LINK_CHARS && part.split(/\s+/).length <= MAX_LINK_WORDS && LINK_NAME.test(part));
}

/**
 * The text without its runs of short links separated by bars in its second half (by words), the
 * site's link lines that a page read alone, or a template that kept the page's last block, took
 * along (issue 38: boilerplate in the indexed text; chinanews.com's "关于我们 | About us | 联系我们 |
 * …" footer). In the first half such a line stays: dragnet's gold keeps a list of the newspapers an
 * article cites, set the same way under its headline. Only the line goes: cutting the text there,
 * with the copyright lines after it, also cut cleaneval pages whose article follows the site's
 * link line (final-705, reader shingle F1 cleaneval -0.0004). Figures: docs/design.md.
 */
export function withoutFooterLinks(blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  const words = blocks.map((block) => wordCount(block.text));
  const total = words.reduce((sum, count) => sum + count, 0);
  let before = 0;
  const kept = blocks.filter((block, i) => {
    const link = i > 0 && 2 * before >= total && isBarredLinkLine(block.text);
    before += words[i] ?? 0;
    return !link;
  });
  return kept.length === blocks.length ? blocks : kept;
}

function wordCount(text: string): number {
  return text.replace(CJK_CHAR, ' $& ').split(/\s+/).filter(Boolean).length;
}
