import { WinnowError } from '@winnow/config';
/** The longest query text accepted; longer input is refused, never cut. */
export const MAX_QUERY_LENGTH = 500;
const MAX_CLAUSES = 32;

/**
 * A search query in Winnow's small language: `"quoted text"` is an exact phrase, other words are
 * terms that must all occur (but Han or Hiragana written together is a phrase: 北京 is one word). Matching ignores case and punctuation: a phrase matches where its
 * words occur consecutively in the main text, across inline markup and block boundaries alike.
 */
export interface ParsedQuery {
  /** Each phrase as its lower-cased words, in order. */
  phrases: string[][];
  terms: string[];
}

export class QueryError extends WinnowError {
  override readonly name = 'QueryError';
  constructor(message: string) {
    super('invalid-input', message);
  }
}

/**
 * Han ideographs and Hiragana, written without spaces between words: each character is a word, as
 * Elasticsearch's standard tokenizer reads them, so that a search for 北京 finds it inside 北京明天.
 * Katakana keeps its runs, as that tokenizer does. Both indexes store the words this rule reads
 * (`indexedWords`).
 */
export const CHARACTER_WORDS = '\u3005\u3007\u3021-\u3029\u3038-\u303b\u3041-\u3096\u309d-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3134f}';

/** A letter or digit of a run word: any but a character word's. */
export const RUN_CHARACTER = `(?:(?![${CHARACTER_WORDS}])[\\p{L}\\p{N}])`;

/**
 * A character word, or a run of other letters and digits: the search side's own word rule, on
 * purpose apart from extraction's `\w+` (which also joins underscores): what a word is in a query
 * is the indexes' analyzers' business, and phrases must be cut where they cut them.
 */
const WORD = new RegExp(`[${CHARACTER_WORDS}]|${RUN_CHARACTER}+`, 'gu');

/** Character words written together, or one run word. */
const CHARACTER_RUN = new RegExp(`[${CHARACTER_WORDS}]+|${RUN_CHARACTER}+`, 'gu');
const CHARACTER_WORD = new RegExp(`^[${CHARACTER_WORDS}]$`, 'u');

/** Whether a word is one Han or Hiragana character (`CHARACTER_WORDS`). */
export function isCharacterWord(word: string): boolean {
  return CHARACTER_WORD.test(word);
}

/**
 * Characters a browser renders as nothing inside a word: soft hyphen, zero-width space, word joiner
 * and U+FEFF. Extraction drops them from the main text (extract's `collapseWhitespace`); a query
 * pasted from a page that has them must not be cut into two words where the index has one.
 */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/g;

/**
 * The words of a text, lower-cased, as the index sees them: the one word rule of queries and of the
 * indexed text alike (`indexedWords`). A final sigma is a sigma, so that ΜΟΡΝΟΣ (lower-cased to
 * μορνος) and a query typed μορνοσ meet; a word an invisible character splits (`INVISIBLE`) is one.
 */
export function wordsOf(text: string): string[] {
  return (text.replace(INVISIBLE, '').match(WORD) ?? []).map((word) => word.toLowerCase().replaceAll('ς', 'σ'));
}

/**
 * A text as the indexes store it for matching: its words (`wordsOf`), one space apart. Handing
 * the engines these words, not the text, keeps their parsers from reading it their own way: Postgres's
 * took `non-tech` for three words, `1.15` for one and `-263` for a negative number, Elasticsearch's
 * `company's` and `300,000` for one word each, and a phrase typed as the page shows it then never
 * matched.
 */
export function indexedWords(text: string): string {
  return wordsOf(text).join(' ');
}

export function parseQuery(text: unknown): ParsedQuery {
  if (typeof text !== 'string') throw new QueryError('the query must be a string');
  if (text.length > MAX_QUERY_LENGTH) throw new QueryError(`the query is ${text.length} characters long; at most ${MAX_QUERY_LENGTH} are accepted`);
  const quotes = text.match(/"/g)?.length ?? 0;
  if (quotes % 2 === 1) throw new QueryError('the query has an unclosed quote (")');
  const phrases: string[][] = [];
  const terms: string[] = [];
  // Pasted from a page, a word may carry an invisible character the index's copy of it has lost.
  const parts = text.replace(INVISIBLE, '').split('"');
  parts.forEach((part, index) => {
    const words = wordsOf(part);
    if (index % 2 === 1) {
      if (words.length === 0) throw new QueryError('a quoted phrase has no words');
      phrases.push(words);
    } else {
      // Unquoted Han or Hiragana written together is one word of the language, not a bag of characters.
      for (const [run] of part.matchAll(CHARACTER_RUN)) {
        const characters = wordsOf(run);
        if (characters.length > 1 && characters.every(isCharacterWord)) phrases.push(characters);
        else terms.push(...characters);
      }
    }
  });
  if (phrases.length === 0 && terms.length === 0) throw new QueryError('the query has no words to search for');
  if (phrases.length + terms.length > MAX_CLAUSES) throw new QueryError(`the query has more than ${MAX_CLAUSES} phrases and terms`);
  return { phrases, terms: [...new Set(terms)] };
}
