import { isCharacterWord, type ParsedQuery, RUN_CHARACTER } from './query.js';
import { INTERRUPTION_MAX_LINES } from './readPast.js';

const FRAGMENT_CHARS = 160;
const MAX_FRAGMENTS = 3;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Between two words of a phrase read past an interruption (`bridgesOf`): the end of a line, one or
 * two whole lines, and what opens the next line before its first word.
 */
const PAST_LINES = `[^\\p{L}\\p{N}]*\\n(?:[^\\n]*\\n){1,${INTERRUPTION_MAX_LINES}}[^\\p{L}\\p{N}]*`;

/**
 * A word sequence as a pattern: run words need something else between them and around them,
 * character words touch; `pastLines`, two words may also have lines between them.
 */
function sequencePattern(words: readonly string[], pastLines = false): string {
  const parts = words.map((word, i) => {
    if (i === 0) return escapeRegExp(word);
    const touching = isCharacterWord(words[i - 1] as string) || isCharacterWord(word);
    const separator = `[^\\p{L}\\p{N}]${touching ? '*' : '+'}`;
    return `${pastLines ? `(?:${separator}|${PAST_LINES})` : separator}${escapeRegExp(word)}`;
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
const pastLinesMatchers = new WeakMap<ParsedQuery, RegExp>();

/** Matches every phrase (its words with any non-word characters between) and every term. */
export function matcherFor(query: ParsedQuery): RegExp {
  return cachedMatcher(matchers, query, false);
}

function cachedMatcher(cache: WeakMap<ParsedQuery, RegExp>, query: ParsedQuery, pastLines: boolean): RegExp {
  let matcher = cache.get(query);
  if (!matcher) {
    const alternatives = [...query.phrases.map((words) => sequencePattern(words, pastLines)), ...query.terms.map((term) => sequencePattern([term]))];
    matcher = new RegExp(`(?:${alternatives.join('|')})`, 'giu');
    cache.set(query, matcher);
  }
  return matcher;
}

/**
 * Up to three fragments of `text` around the query's matches, HTML-escaped, each match wrapped in
 * `<mark>`. A phrase is marked as one span, even where it crosses a block boundary. A document
 * found by a phrase only across an interruption (`bridgesOf`) has no such match: its phrase is
 * then marked from its first word to its last, the lines read past included.
 */
export function highlight(text: string, query: ParsedQuery): string[] {
  const fragments = fragmentsOf(text, matcherFor(query));
  return fragments.length > 0 || query.phrases.length === 0 ? fragments : fragmentsOf(text, cachedMatcher(pastLinesMatchers, query, true));
}

function fragmentsOf(text: string, matcher: RegExp): string[] {
  const fragments: string[] = [];
  let coveredTo = 0;
  for (const match of text.matchAll(matcher)) {
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
