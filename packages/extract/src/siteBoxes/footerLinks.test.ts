import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutFooterLinks, isBarredLinkLine } from './footerLinks.js';

const line = (text: string, path = 'HTML.BODY.DIV.P') => ({ path, text });
const paragraph = 'The herons came back to the marsh this week, after a long and dry winter.';

describe('isBarredLinkLine', () => {
  it("reads four or more short links between bars as the site's link line", () => {
    assert.equal(isBarredLinkLine('关于我们 | About us | 联系我们 | 广告服务 | 法律声明'), true);
    assert.equal(isBarredLinkLine('Home|Contact|Privacy|Jobs'), true);
  });

  it('reads neither a dateline of two parts nor a line whose parts are phrases as one', () => {
    assert.equal(isBarredLinkLine('Published: 05 Jan 2012, 14:02 | Updated: 05 Jan 2012, 14:13'), false);
    assert.equal(isBarredLinkLine('Home | Contact | He uses data from one report, ignoring the rest | Jobs'), false);
  });
});

describe('withoutFooterLinks', () => {
  it('drops a link line in the second half of the text, and that line alone', () => {
    const blocks = [line('Herons return'), line(paragraph), line(paragraph), line('About us | Contact | Jobs | Sitemap'), line('All rights reserved.')];
    assert.deepEqual(
      withoutFooterLinks(blocks).map((block) => block.text),
      ['Herons return', paragraph, paragraph, 'All rights reserved.'],
    );
  });

  it('keeps a link line in the first half (a list of sources under the headline) and a text without one', () => {
    const top = [line('Herons return'), line('Slate | Salon | Time | Forbes'), line(paragraph), line(paragraph)];
    assert.equal(withoutFooterLinks(top), top);
    const plain = [line('Herons return'), line(paragraph)];
    assert.equal(withoutFooterLinks(plain), plain);
  });
});

describe('isBarredLinkLine on labelled values', () => {
  it("reads a recipe's labels and values between bars as no link line", () => {
    assert.equal(isBarredLinkLine('Prep Time: 2 Hours | Cook Time: | Difficulty: Easy | Servings: 12'), false);
    assert.equal(isBarredLinkLine('Antiques | 82 | 55.41% | 1,465'), false);
  });
});
