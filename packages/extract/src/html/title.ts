import { Parser } from 'htmlparser2';
import { collapseWhitespace } from './whitespace.js';

/** The head of a page is read for its title; a title past this many characters is not looked for. */
const TITLE_SCAN_CHARS = 256 * 1024;

/** The page's first `<title>` text, whitespace collapsed; '' when it has none. Parsing stops at its end. */
export function documentTitle(html: string): string {
  let inTitle = false;
  let done = false;
  let title = '';
  const parser = new Parser(
    {
      onopentagname(name) {
        if (name === 'title' && !done) inTitle = true;
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          done = true;
          parser.pause(); // the rest of the page is not read
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html.slice(0, TITLE_SCAN_CHARS));
  parser.end();
  return collapseWhitespace(title);
}
