/** What the operator commands print with: their output, JSON, counts and a listing's footer. */

export const write = (text: string) => process.stdout.write(text);

export const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A count with its noun: `1 URL`, `3 URLs`. */
export const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The last line of one page of a listing: what it lists, how many in all, which are shown and how to get the next ones. */
export function listingFooter(scope: string, listing: { page: number; size: number; total: number; entries: readonly unknown[] }): string {
  const first = (listing.page - 1) * listing.size + 1;
  const last = first + listing.entries.length - 1;
  const shown = listing.entries.length > 0 ? `${first}-${last}` : 'none';
  const more = last < listing.total ? `; next: --page ${listing.page + 1}` : '';
  return `${scope}: ${listing.total} (showing ${shown}${more})\n`;
}

/** Units a duration is said in, largest first, each with its length in milliseconds. */
const DURATION_UNITS: readonly [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/** A duration in milliseconds in the largest unit that says it exactly (`1 d`, `90 min`, `1500 ms`): a schedule read back as given. */
export function duration(ms: number): string {
  const [unit, length] = DURATION_UNITS.find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / length} ${unit}`;
}
