import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractWithBlurring } from './ccb.js';
import { uniqueParagraph } from '../testing/sitePages.js';

const NAVIGATION = Array.from({ length: 12 }, (_, i) => `<li><a href="/s${i}"><span>Section ${i}</span></a></li>`).join('');
const FOOTER = Array.from({ length: 8 }, (_, i) => `<div class="f"><a href="/f${i}"><b>Link ${i}</b></a></div>`).join('');

describe('content code blurring', () => {
  for (const variant of ['ccb', 'accb', 'tccb'] as const) {
    it(`${variant}: keeps long, lightly tagged text and drops heavily tagged menus and footers`, () => {
      const html =
        `<html><head><style>body { color: red }</style></head><body><ul>${NAVIGATION}</ul>` +
        `<div><p>${uniqueParagraph(1, 120)}</p><p>${uniqueParagraph(2, 120)}</p></div>${FOOTER}<script>var tracking = "${'x'.repeat(300)}";</script></body></html>`;
      const result = extractWithBlurring(html, variant);
      assert.ok(result.text.includes(uniqueParagraph(1, 120).split(' ').slice(20, 40).join(' ')), result.text);
      const middle = (seed: number) => uniqueParagraph(seed, 120).split(' ').slice(40, 60).join(' ');
      assert.ok(result.text.indexOf(middle(1)) >= 0 && result.text.indexOf(middle(1)) < result.text.indexOf(middle(2)), result.text);
      assert.ok(!result.text.includes('Section 3') && !result.text.includes('Link 5') && !result.text.includes('tracking'), result.text);
    });
  }

  it('accb reads text through in-text links that break ccb apart', () => {
    const linked = Array.from({ length: 40 }, (_, i) => `word${i} <a href="/w${i}">linked${i}</a>`).join(' ');
    const html = `<body><ul>${NAVIGATION}</ul><p>${linked}</p>${FOOTER}</body>`;
    const words = (text: string) => text.split(/\s+/).filter((word) => word.startsWith('linked')).length;
    assert.ok(words(extractWithBlurring(html, 'accb').text) >= words(extractWithBlurring(html, 'ccb').text));
    assert.ok(words(extractWithBlurring(html, 'accb').text) >= 30);
  });
});
