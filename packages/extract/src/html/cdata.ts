import { indexOfMarker } from './pageSearch.js';

const CDATA_START = '<![CDATA[';

/**
 * A CDATA section outside SVG and MathML is not CDATA in HTML: a browser reads `<![CDATA[` as a
 * bogus comment that ends at the next `>` (HTML Standard, "cdata-in-html-content"), so the page
 * after it stays. htmlparser2 reads it as a comment up to `]]>`, which some templates never write
 * (a forum theme opens one in `<body>` and never closes it), and the rest of the page disappears.
 * Rewritten as `<?[CDATA[`, the bogus comment htmlparser2 also ends at the next `>`, the page reads
 * as a browser reads it. Inside scripts and styles the marker is text either way.
 */
export function cdataAsBrowsersRead(html: string): string {
  return indexOfMarker(html, CDATA_START) >= 0 ? html.replaceAll(CDATA_START, '<?[CDATA[') : html;
}
