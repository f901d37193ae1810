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
