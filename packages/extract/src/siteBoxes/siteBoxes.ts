import type { ExtractedBlock } from '../result/result.js';
import { withoutDatedLists } from './datedList.js';
import { withoutFooterLinks } from './footerLinks.js';

/**
 * The text without the site's boxes its lines show by their form (issue 38: boilerplate in the
 * indexed text): the site's link lines in the text's second half (`withoutFooterLinks`), and a box of
 * dated items with its heading (`withoutDatedLists`). The pipeline's text (a page read alone
 * included) and the `reader` method's pass through it. Figures: docs/design.md.
 */
export function withoutSiteBoxes(blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  return withoutDatedLists(withoutFooterLinks(blocks));
}
