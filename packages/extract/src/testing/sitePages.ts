/**
 * Small hand-made pages of one imaginary site for tests: a constant header, navigation and
 * footer, and an article whose paragraphs differ on every page.
 */
export function sitePage(articleHtml: string, extras = ''): string {
  return `<!DOCTYPE html><html><head><title>Site</title><script>var x = 1;</script></head><body>
<div class="header"><a href="/">The Daily Example</a><ul class="nav"><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></div>
<div class="main"><div class="article">${articleHtml}</div>${extras}</div>
<div class="footer"><p>Copyright 2026 The Daily Example. All rights reserved.</p><p>Contact us at the newsroom on Harbour Street.</p></div>
</body></html>`;
}

const WORDS = 'river council market bridge village school orchard library harbour museum farmer teacher mayor garden railway festival'.split(' ');

/** A paragraph of pseudo-text unique to `seed`. */
export function uniqueParagraph(seed: number, words = 30): string {
  const out: string[] = [];
  let state = seed * 7919 + 17;
  for (let i = 0; i < words; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(`${WORDS[state % WORDS.length]}${(state >> 8) % 97}`);
  }
  return out.join(' ');
}

/** `count` pages of the site, each with a headline and three unique paragraphs. */
export function samplePages(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    return sitePage(
      `<h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1)}</p><p>${uniqueParagraph(n * 10 + 2)}</p><p>${uniqueParagraph(n * 10 + 3)}</p>`,
    );
  });
}

/** The FastCE paper's Figure 2 paragraph, with its inline `<span>`s. */
export const FIGURE_2_PARAGRAPH = `<p> On Sept. 27, the US <span class="yshortcuts" id="lw_1223369478_0">House of
Representatives</span> unanimously passed a resolution recognizing <span class="yshortcuts"
id="lw_1223369478_1">The Christian Science Monitor</span> on its centennial. The measure was sponsored by <span
class="yshortcuts" id="lw_1223369478_2">Rep. Lamar Smith</span> (R) of Texas who once served on the Monitor staff.
It was cosponsored by 40 other <span class="yshortcuts" id="lw_1223369478_3">members of Congress</span>. </p>`;
