import { indexOfMarker } from './pageSearch.js';

/** The markers the HTML Standard's script data states react to. */
const SCRIPT_DATA_MARKER = /<!--|-->|<(\/?)script(?=[\s/>])/gi;

/**
 * A page's scripts ended where a browser ends them. Inside a script, an HTML comment (`<!--`)
 * that then opens `<script` enters the HTML Standard's "script data double escaped" state, where
 * `</script>` does not end the script (tokenization, 13.2.5.20-13.2.5.31). Old ad code writes
 * exactly that: `<!-- document.write('<script src=…></script>'); //-->`. htmlparser2 ends the
 * script at the first `</script>`, so the rest of the code (`'); //-->`, ad anchors written as
 * strings) became page text and was indexed. Each `</script` a browser reads as script text is
 * rewritten `<\/script`, which every parser reads as text, so nothing else of the page changes.
 * Speed: scripts are found by their markers (`indexOfMarker`; spelled `script` or `SCRIPT`, a
 * `Script` is left as it is), and only one whose text holds `<!--` is read by the state machine: a
 * regular expression over the whole page cost twice as much as `indexOf` (1.5 ms against 0.7 on
 * scrapinghub's pages), and `indexOf` itself four times as much as `indexOfMarker` on wcxb's pages
 * (issue 38: 0.70 ms a page against 0.19).
 */
export function scriptsEndedAsBrowsersEnd(html: string): string {
  const opening = new Occurrences(html, ['<script', '<SCRIPT']);
  const closing = new Occurrences(html, ['</script', '</SCRIPT']);
  const comments = new Occurrences(html, ['<!--']);
  const hidden: number[] = [];
  let from = 0;
  for (let at = opening.next(from); at >= 0; at = opening.next(from)) {
    const bodyStart = html.indexOf('>', at) + 1;
    if (bodyStart === 0) break;
    const plainEnd = closing.next(bodyStart);
    const comment = comments.next(bodyStart);
    if (plainEnd < 0) break;
    from = comment >= 0 && comment < plainEnd ? scriptEnd(html, bodyStart, hidden) : plainEnd + 8;
  }
  if (hidden.length === 0) return html;
  const parts: string[] = [];
  let last = 0;
  for (const at of hidden) {
    parts.push(html.slice(last, at + 1), '\\');
    last = at + 1;
  }
  parts.push(html.slice(last));
  return parts.join('');
}

/** Where a marker (in any of its spellings) next occurs in a page: each spelling's next occurrence is kept, so the page is searched once for it, not once per script. */
class Occurrences {
  private readonly found: number[];
  constructor(
    private readonly html: string,
    private readonly spellings: readonly string[],
  ) {
    this.found = spellings.map(() => -2);
  }

  /** The first occurrence at or after `from`, or -1. */
  next(from: number): number {
    let best = -1;
    // A plain loop: the `forEach` closure it replaces was 4% of building a block tree (issue 38).
    for (let i = 0; i < this.spellings.length; i++) {
      let at = this.found[i] as number;
      if (at !== -1 && at < from) at = this.found[i] = indexOfMarker(this.html, this.spellings[i] as string, from);
      if (at >= 0 && (best < 0 || at < best)) best = at;
    }
    return best;
  }
}

/** Index just past a script's real end tag (or the end of the page), noting in `hidden` each `</script` inside it. */
function scriptEnd(html: string, bodyStart: number, hidden: number[]): number {
  let state: 'data' | 'escaped' | 'doubleEscaped' = 'data';
  SCRIPT_DATA_MARKER.lastIndex = bodyStart;
  for (let match = SCRIPT_DATA_MARKER.exec(html); match; match = SCRIPT_DATA_MARKER.exec(html)) {
    const marker = match[0];
    if (marker === '<!--') {
      if (state === 'data') state = 'escaped';
      // `<!-->` closes as it opens: let `-->` match on the same dashes.
      SCRIPT_DATA_MARKER.lastIndex = match.index + 2;
    } else if (marker === '-->') state = 'data';
    else if (match[1] === '/') {
      if (state !== 'doubleEscaped') return match.index + marker.length;
      hidden.push(match.index);
      state = 'escaped';
    } else if (state === 'escaped') state = 'doubleEscaped';
  }
  return html.length;
}
