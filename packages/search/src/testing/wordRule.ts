/**
 * A text whose words an engine's own parser reads otherwise than the queries do (hyphens,
 * decimals, hosts, paths, apostrophes, thousands, digits after a hyphen, a Greek final sigma in
 * capitals, a phrase deep into a long page), and phrases typed as the page shows them that both
 * indexes must find in it.
 */
export const WORD_RULE_TEXT = [
  'He came from a variety of non-tech or business roles.',
  'Shares rose to $1.15 billion at etsy.com, the U.K. office said (AP Photo/Carolyn Kaster).',
  "The company's 300,000 users met on 15-12-2011 to test ABT-263.",
  'ΣΤΟΝ ΜΟΡΝΟΣ ΠΟΤΑΜΟ.',
  `${'filler '.repeat(17_000)}the last words of a long page.`,
].join('\n');

export const WORD_RULE_PHRASES = [
  'variety of non-tech or business',
  'rose to $1.15 billion',
  'at etsy.com, the U.K. office',
  'AP Photo/Carolyn Kaster',
  "the company's 300,000 users",
  'on 15-12-2011 to test ABT-263',
  'στον μορνοσ ποταμο',
  'the last words of a long page',
];
