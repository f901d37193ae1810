import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../html/blockTree.js';
import { isRepeatedLine, pageLineKeys, repeatedLineKeys } from './repeatedLines.js';

const notice = 'This page is best viewed in an up-to-date web browser.';
const html = (story: string) => `<html><body><div><p>${story}</p><p>Read more</p></div><div class="legal"><p>${notice}</p></div></body></html>`;
const page = (story: string) => pageLineKeys(buildBlockTree(html(story)));
const line = (path: string, text: string) => ({ path, text });

describe('repeatedLineKeys', () => {
  it('keeps the lines that a fifth of the pages, and three at least, repeat at the same path', () => {
    const stories = ['The mayor opened the bridge.', 'The school won the cup again.', 'A storm closed the harbour road.', 'The mayor opened the bridge.'];
    const repeated = new Set(repeatedLineKeys(stories.map(page)));
    const noticeLine = line('HTML.BODY.DIV.P', notice);
    assert.ok(isRepeatedLine(noticeLine, repeated), 'the notice is on every page');
    assert.ok(!isRepeatedLine(line('HTML.BODY.P', notice), repeated), 'at another path it is not the same line');
    assert.ok(!isRepeatedLine(line('HTML.BODY.DIV.P', 'The mayor opened the bridge.'), repeated), 'an article on two pages is not the site’s');
    assert.ok(isRepeatedLine(line('HTML.BODY.DIV.P', 'Read more'), repeated), 'a two-word line is kept');
  });

  it('needs three pages: two pages repeat nothing', () => {
    assert.deepEqual(repeatedLineKeys([page('One story about a bridge.'), page('Another story about a school.')]), []);
  });

  it('keeps a line on a fifth of the pages, not on fewer', () => {
    const stories = Array.from({ length: 15 }, (_, i) => `Story number ${i} about the town.`);
    const withNotice = (count: number) =>
      stories.map((story, i) => (i < count ? page(story) : pageLineKeys(buildBlockTree(`<html><body><div><p>${story}</p></div></body></html>`))));
    const noticeLine = line('HTML.BODY.DIV.P', notice);
    assert.ok(isRepeatedLine(noticeLine, new Set(repeatedLineKeys(withNotice(3)))), 'three pages of fifteen');
    assert.ok(!isRepeatedLine(noticeLine, new Set(repeatedLineKeys(withNotice(2)))), 'two pages of fifteen');
  });

  it("adds what the page type's pages repeat to what a small layout's own pages show", () => {
    const layoutPages = [page('A video of the bridge.'), page('A video of the storm.')];
    const typePages = [...layoutPages, ...['The mayor spoke.', 'The school won.', 'The road closed.'].map(page)];
    const noticeLine = line('HTML.BODY.DIV.P', notice);
    assert.ok(!isRepeatedLine(noticeLine, new Set(repeatedLineKeys(layoutPages))), 'two pages alone repeat nothing');
    assert.ok(isRepeatedLine(noticeLine, new Set(repeatedLineKeys(layoutPages, typePages))), "the page type's pages show it is the site's");
  });
});
