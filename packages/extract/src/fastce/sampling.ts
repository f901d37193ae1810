import { ExtractionError } from '../result/errors.js';

/**
 * `limit` of `items` spread evenly over the list (all of them when there are no more than
 * `limit`), in their order: a site's pages come in crawl order, which runs through its sections
 * one after another, so the first pages alone would teach a template one section.
 */
export function evenlySpread<T>(items: readonly T[], limit: number): T[] {
  if (!Number.isInteger(limit) || limit < 2) throw new ExtractionError('invalid-argument', 'a sample needs an integer limit of at least 2');
  if (items.length <= limit) return [...items];
  return Array.from({ length: limit }, (_, i) => items[Math.floor((i * items.length) / limit)] as T);
}
