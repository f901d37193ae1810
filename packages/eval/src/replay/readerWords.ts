import { CHARACTER_WORDS } from '@winnow/search';

/**
 * Words as a reader sees them, independent of the search layer's own rule (`wordsOf`), so that
 * the two can disagree and a search-layer fault shows: a Han or Hiragana character is a word (as the
 * query language promises), any other run of letters, combining marks and digits is one, NFC,
 * lower-cased. Punctuation and case never count.
 */
const READER_WORD = new RegExp(`[${CHARACTER_WORDS}]|(?:(?![${CHARACTER_WORDS}])[\\p{L}\\p{M}\\p{N}])+`, 'gu');

/** A reader's word and where it stands in its text, so that a phrase can be sent as the text shows it. */
export interface ReaderToken {
  word: string;
  start: number;
  end: number;
}

export function readerTokens(text: string): ReaderToken[] {
  const tokens: ReaderToken[] = [];
  for (const match of text.matchAll(READER_WORD))
    tokens.push({ word: match[0].normalize('NFC').toLowerCase(), start: match.index, end: match.index + match[0].length });
  return tokens;
}

export function readerWords(text: string): string[] {
  return readerTokens(text).map((token) => token.word);
}

/** Words one space apart and padded, so that `includes` finds a run of whole words. */
export function padded(words: readonly string[]): string {
  return ` ${words.join(' ')} `;
}

/** Whether `text` holds `words` as a run of whole reader words. */
export function holdsRun(text: string, words: readonly string[]): boolean {
  return padded(readerWords(text)).includes(padded(words));
}

/** Function words of the datasets' languages: a phrase of nothing else (or of digits) says nothing about a page. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each ' +
    'few for from further had has have having he her here hers him his how i if in into is it its just me more most my no nor not now of off on once only or other our ' +
    'out over own same she should so some such than that the their them then there these they this those through to too under until up very was we were what when ' +
    'where which while who whom why will with would you your s t ' +
    'и в не на что с по к а из у за о от для же как это но то все так его она он они мы вы я ' +
    'i w z na do że się nie to jest o a od po za jak ale co ' +
    'και το η ο της του των τα σε με να για που από ' +
    'der die das und in zu den von mit ist des le la les de et un une du en des est'
  ).split(' '),
);

/** A phrase of function words or digits only: too common to test one page. */
export function trivialPhrase(words: readonly string[]): boolean {
  return words.every((word) => STOP_WORDS.has(word) || /^\p{N}+$/u.test(word));
}

/** The query a user pastes: the text as shown, in quotes (a `"` of its own would end the phrase). */
export function phraseQuery(raw: string): string {
  return `"${raw.replace(/"/g, ' ').replace(/\s+/g, ' ').trim()}"`;
}

/** Where `words` first occur as a run in `text`: its line, span and a snippet with the run in [[ ]]. */
export interface Occurrence {
  line: number;
  start: number;
  end: number;
  snippet: string;
}

/** The text around the first place `words` occur as a run in `text` (reader words), or null. */
export function around(text: string, words: readonly string[], context = 80): Occurrence | null {
  const tokens = readerTokens(text);
  outer: for (let i = 0; i + words.length <= tokens.length; i++) {
    for (let k = 0; k < words.length; k++) if (tokens[i + k]!.word !== words[k]) continue outer;
    const start = tokens[i]!.start;
    const end = tokens[i + words.length - 1]!.end;
    const line = text.slice(0, start).split('\n').length - 1;
    const from = Math.max(0, start - context);
    const to = Math.min(text.length, end + context);
    return {
      line,
      start,
      end,
      snippet: `${from > 0 ? '…' : ''}${text.slice(from, start)}[[${text.slice(start, end)}]]${text.slice(end, to)}${to < text.length ? '…' : ''}`.replace(
        /\n/g,
        ' ⏎ ',
      ),
    };
  }
  return null;
}

/** The longest run of `words` (consecutive, in order) that `goldPadded` (a `padded` text) holds. */
export function longestGoldRun(words: readonly string[], goldPadded: string): number {
  let best = 0;
  for (let i = 0; i < words.length; i++)
    for (let j = words.length; j > i + best; j--)
      if (goldPadded.includes(padded(words.slice(i, j)))) {
        best = j - i;
        break;
      }
  return best;
}

/** Reader words without the digits of words that mix digits and letters (`0Также` is `также`), so that a word glued to a counter shows. */
export function looseWords(text: string): string {
  return padded(readerWords(text).map((word) => (/\p{N}/u.test(word) && /\p{L}/u.test(word) ? word.replace(/\p{N}+/gu, '') : word)));
}

/** The texts of a page's links (`<a>` elements, tags stripped) as `padded` reader words. */
export function linkTexts(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/gi)].map((match) =>
    padded(
      readerWords(
        match[1]!
          .replace(/<[^>]*>/g, ' ')
          .replace(/&nbsp;|&#160;/g, ' ')
          .replace(/&amp;/g, '&'),
      ),
    ),
  );
}
