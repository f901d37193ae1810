import { words } from '@winnow/extract';

/** Words as the metrics count them: extraction's word rule (Python's `\w+`, as the ScrapingHub benchmark's evaluate.py). */
export { words };

/** Lower-cased words, for the metrics that ignore case. */
export function lowerCaseWords(text: string): string[] {
  return words(text.toLowerCase());
}
