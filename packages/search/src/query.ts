import { WinnowError } from '@winnow/config';
/** The longest query text accepted; longer input is refused, never cut. */
export const MAX_QUERY_LENGTH = 500;
const MAX_CLAUSES = 32;

/**
 * A search query in Winnow's small language: `"quoted text"` is an exact phrase, other words are
 * terms that must all occur. Matching ignores case and punctuation: a phrase matches where its
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
 * Letters and digits: the search side's own word rule, on purpose apart from extraction's `\w+`
 * (which also joins underscores): what a word is in a query is the indexes' analyzers' business,
 * and phrases must be cut where they cut them.
 */
const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text, lower-cased, as the index sees them. */
export function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((word) => word.toLowerCase());
}

export function parseQuery(text: unknown): ParsedQuery {
  if (typeof text !== 'string') throw new QueryError('the query must be a string');
  if (text.length > MAX_QUERY_LENGTH) throw new QueryError(`the query is ${text.length} characters long; at most ${MAX_QUERY_LENGTH} are accepted`);
  const quotes = text.match(/"/g)?.length ?? 0;
  if (quotes % 2 === 1) throw new QueryError('the query has an unclosed quote (")');
  const phrases: string[][] = [];
  const terms: string[] = [];
  text.split('"').forEach((part, index) => {
    const words = wordsOf(part);
    if (index % 2 === 1) {
      if (words.length === 0) throw new QueryError('a quoted phrase has no words');
      phrases.push(words);
    } else {
      terms.push(...words);
    }
  });
  if (phrases.length === 0 && terms.length === 0) throw new QueryError('the query has no words to search for');
  if (phrases.length + terms.length > MAX_CLAUSES) throw new QueryError(`the query has more than ${MAX_CLAUSES} phrases and terms`);
  return { phrases, terms: [...new Set(terms)] };
}
