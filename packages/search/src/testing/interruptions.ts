/**
 * An article whose text a dateline, a caption and its photo credit, three one-word lines and a line
 * of 25 words interrupt; the phrases both indexes must find in it across the short interruptions, and
 * those they must not: across three short lines, across the 25-word line, and from the text's last
 * words into its first bridge (Elasticsearch stores both as values of one field).
 */
export const INTERRUPTED_TEXT = [
  'Harbour seals return to the estuary',
  'March 3, 2026 · Coastal desk',
  'Wardens counted forty seals on the sandbanks this spring, the most since records began.',
  'A seal pup rests on a sandbank near the harbour mouth.',
  'Photo: J. Doe',
  'The colony has grown every year since fishing nets were banned.',
  'One',
  'Two',
  'Three',
  'Volunteers will count again in the autumn.',
  'Twenty five words make this line one that nobody reads past: it is as long as a short paragraph of the article and stays in.',
  'The survey ends in October.',
].join('\n');

export const PHRASES_READ_PAST = [
  'to the estuary wardens counted forty',
  'since records began the colony has grown',
  'the harbour mouth the colony',
  'harbour seals return to the estuary wardens',
];

export const PHRASES_NOT_READ_PAST = ['nets were banned volunteers will', 'in the autumn the survey ends', 'in october harbour seals', 'october harbour'];
