import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import { BLOCK_TAGS, INLINE_BLOCK_TAGS, LINE_BREAK_TAGS } from '../html/blockTags.js';
import { isHiddenElement } from '../html/hidden.js';
import { checkedHtml } from '../html/input.js';
import { DEFAULT_LIMITS } from '../html/limits.js';
import { resultOf, type ExtractionResult } from '../result/result.js';
import { collapseWhitespace } from '../html/whitespace.js';

/**
 * Content code blurring (Gottron 2008): `ccb` on characters, `accb` on characters with anchor tags
 * left out of the vector, `tccb` on tokens (a tag or a word each).
 */
export type BlurVariant = 'ccb' | 'accb' | 'tccb';

/** The paper's parameters (Section 4.1): threshold 0.75, range 40 characters or 25 tokens. */
const THRESHOLD = 0.75;
const RANGE: Record<BlurVariant, number> = { ccb: 40, accb: 40, tccb: 25 };
/**
 * "The iteration is stopped as soon as the values start to settle": when no value moves by more
 * than this in one pass (or after `MAX_ITERATIONS`). Blurring on to full convergence would average
 * the whole page into one grey.
 */
const SETTLED = 0.05;
const MAX_ITERATIONS = 100;
/** Elements whose text is code, not content. */
const CODE_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'select', 'svg']);

/** A run of page text: its words, where its elements sit in the content code vector. */
interface TextRun {
  words: string[];
  /** Per word: the indices of its elements in the vector (characters, or one token). */
  first: number[];
  last: number[];
  /** True when a line-breaking tag stands between this run and the previous one. */
  newLine: boolean;
}

/**
 * Extracts the main content of one page by content code blurring (paper, Section 3). The page
 * becomes a content code vector — 1 for content, 0 for code; each element's content code ratio is
 * a Gaussian-weighted average of its neighbourhood (σ = range / 2, cut at the range, renormalised
 * at the edges), recomputed from the previous averages until the values settle; words with a ratio
 * above the threshold are the main content (a word is kept whole if any of its characters is).
 * Choices the paper leaves open: white space between tags is left out of the vector (it is source
 * layout, not content), and so are comments; the text of scripts and styles is code.
 */
export function extractWithBlurring(html: string, variant: BlurVariant = 'ccb'): ExtractionResult {
  const warnings: string[] = [];
  const page = checkedHtml(html, DEFAULT_LIMITS, warnings);
  const { vector, runs, flattened } = contentCodeVector(page, variant);
  if (flattened) warnings.push(`more than ${DEFAULT_LIMITS.maxOpenElements} elements open at once: the rest of the page was read without its nesting`);
  const ratios = blur(vector, RANGE[variant]);
  const lines: string[] = [];
  let line: string[] = [];
  for (const run of runs) {
    const kept = run.words.filter((_, i) => {
      for (let k = run.first[i] as number; k <= (run.last[i] as number); k++) if ((ratios[k] ?? 0) > THRESHOLD) return true;
      return false;
    });
    if (kept.length === 0) continue;
    if (run.newLine && line.length > 0) {
      lines.push(collapseWhitespace(line.join(' ')));
      line = [];
    }
    for (const word of kept) line.push(word);
  }
  if (line.length > 0) lines.push(collapseWhitespace(line.join(' ')));
  return resultOf(
    variant,
    lines.map((text) => ({ path: 'HTML.BODY', text })),
    warnings,
  );
}

function contentCodeVector(html: string, variant: BlurVariant): { vector: Float64Array; runs: TextRun[]; flattened: boolean } {
  const values: number[] = [];
  const runs: TextRun[] = [];
  let codeDepth = 0;
  let pendingBreak = true;
  // The parser hands over text in pieces (an entity is one): they are gathered until the next tag, so that a word
  // it cut, `caf&eacute;` or `light&shy;house`, is one word.
  let text = '';
  const code = (start: number, end: number): void => {
    content();
    if (variant === 'tccb') values.push(0);
    else for (let i = start; i <= end; i++) values.push(0);
  };
  /** The text gathered since the last tag, as one run. */
  const content = (): void => {
    if (text.trim() === '') {
      text = '';
      return;
    }
    const run: TextRun = { words: [], first: [], last: [], newLine: pendingBreak };
    pendingBreak = false;
    // U+FEFF is white space to JavaScript but nothing to a reader: it does not end a word.
    for (const match of text.matchAll(/(?:\S|\ufeff)+/g)) {
      run.words.push(match[0]);
      run.first.push(values.length);
      // A token is one element; in the character versions each character is, and so is the space after the word.
      const length = variant === 'tccb' ? 1 : match[0].length + 1;
      for (let i = 0; i < length; i++) values.push(1);
      run.last.push(values.length - 1);
    }
    runs.push(run);
    text = '';
  };
  const tag = (name: string, start: number, end: number, implied: boolean): void => {
    content();
    if (BLOCK_TAGS.has(name) && !INLINE_BLOCK_TAGS.has(name)) pendingBreak = true;
    if (LINE_BREAK_TAGS.has(name)) pendingBreak = true;
    if (implied || (variant === 'accb' && name === 'a')) return;
    code(start, end);
  };
  let open = 0;
  let flatFrom = -1;
  const codeLikeOpen: boolean[] = [];
  const parser: Parser = new Parser(
    {
      onopentag(name, attribs) {
        if (++open > DEFAULT_LIMITS.maxOpenElements && flatFrom < 0) {
          flatFrom = parser.startIndex;
          parser.pause();
          return;
        }
        tag(name, parser.startIndex, parser.endIndex, false);
        // Text no reader sees (script, style, hidden elements) counts as code.
        const codeLike = CODE_ELEMENTS.has(name) || isHiddenElement(attribs);
        codeLikeOpen.push(codeLike);
        if (codeLike) codeDepth++;
      },
      onclosetag(name, implied) {
        open--;
        if (codeLikeOpen.pop()) codeDepth--;
        tag(name, parser.startIndex, parser.endIndex, implied);
      },
      ontext(piece) {
        if (codeDepth > 0) code(parser.startIndex, parser.endIndex);
        else text += piece;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  if (flatFrom >= 0) {
    // Nesting past the parser's comfort: the rest is read as it stands, tags as code, text as content.
    for (const match of html.slice(flatFrom).matchAll(/<[^>]*>|[^<]+/g)) {
      if (match[0].startsWith('<')) code(0, match[0].length - 1);
      else text += decodeHTML(match[0]);
    }
  } else {
    parser.end();
  }
  content();
  return { vector: Float64Array.from(values), runs, flattened: flatFrom >= 0 };
}

/** Repeated Gaussian-weighted neighbourhood averages until the values settle (paper, Section 3.2). */
function blur(vector: Float64Array, range: number): Float64Array {
  const sigma = range / 2;
  const weights = Float64Array.from({ length: 2 * range + 1 }, (_, i) => Math.exp(-((i - range) ** 2) / (2 * sigma * sigma)));
  let current = vector;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = new Float64Array(current.length);
    let change = 0;
    for (let i = 0; i < current.length; i++) {
      const from = Math.max(0, i - range);
      const to = Math.min(current.length - 1, i + range);
      let total = 0;
      let weightSum = 0;
      for (let j = from; j <= to; j++) {
        const weight = weights[j - i + range] as number;
        total += weight * (current[j] as number);
        weightSum += weight;
      }
      next[i] = total / weightSum;
      change = Math.max(change, Math.abs((next[i] as number) - (current[i] as number)));
    }
    current = next;
    if (change < SETTLED) break;
  }
  return current;
}
