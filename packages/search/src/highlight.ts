import { isCharacterWord, type ParsedQuery, RUN_CHARACTER } from './query.js';

const FRAGMENT_CHARS = 160;
const MAX_FRAGMENTS = 3;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A word sequence as a pattern: run words need something else between them and around them, character words touch. */
function sequencePattern(words: readonly string[]): string {
  const parts = words.map((word, i) => {
    if (i === 0) return escapeRegExp(word);
    const touching = isCharacterWord(words[i - 1] as string) || isCharacterWord(word);
    return `[^\\p{L}\\p{N}]${touching ? '*' : '+'}${escapeRegExp(word)}`;
  });
  const before = isCharacterWord(words[0] ?? '') ? '' : `(?<!${RUN_CHARACTER})`;
  const after = isCharacterWord(words.at(-1) ?? '') ? '' : `(?!${RUN_CHARACTER})`;
  return `${before}${parts.join('')}${after}`;
}

/**
 * Each query's matcher, built once: a search highlights every hit with it, and compiling the
 * pattern (Unicode classes, look-behinds) cost more than running it. `matchAll` copies the
 * expression, so the one kept is never advanced.
 */
const matchers = new WeakMap<ParsedQuery, RegExp>();

/** Matches every phrase (its words with any non-word characters between) and every term. */
export function matcherFor(query: ParsedQuery): RegExp {
  let matcher = matchers.get(query);
  if (!matcher) {
    matcher = compileMatcher(query);
    matchers.set(query, matcher);
  }
  return matcher;
}

function compileMatcher(query: ParsedQuery): RegExp {
  const alternatives = [...query.phrases.map(sequencePattern), ...query.terms.map((term) => sequencePattern([term]))];
  return new RegExp(`(?:${alternatives.join('|')})`, 'giu');
}

/**
 * Up to three fragments of `text` around the query's matches, HTML-escaped, each match wrapped in
 * `<mark>`. A phrase is marked as one span, even where it crosses a block boundary.
 */
export function highlight(text: string, query: ParsedQuery): string[] {
  const fragments: string[] = [];
  let coveredTo = 0;
  for (const match of text.matchAll(matcherFor(query))) {
    if (fragments.length === MAX_FRAGMENTS) break;
    const start = match.index;
    if (start < coveredTo) continue;
    const end = start + match[0].length;
    const context = Math.max(0, Math.floor((FRAGMENT_CHARS - match[0].length) / 2));
    const from = wordBoundaryBefore(text, Math.max(coveredTo, start - context));
    const to = wordBoundaryAfter(text, Math.min(text.length, end + context));
    const fragment = `${from > 0 ? '…' : ''}${escapeHtml(text.slice(from, start))}<mark>${escapeHtml(match[0])}</mark>${escapeHtml(text.slice(end, to))}${to < text.length ? '…' : ''}`;
    fragments.push(fragment.replace(/\s+/g, ' '));
    coveredTo = to;
  }
  return fragments;
}

function wordBoundaryBefore(text: string, index: number): number {
  if (index === 0) return 0;
  const space = text.indexOf(' ', index);
  return space === -1 ? index : space + 1;
}

function wordBoundaryAfter(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const space = text.lastIndexOf(' ', index);
  return space === -1 ? index : space;
}
