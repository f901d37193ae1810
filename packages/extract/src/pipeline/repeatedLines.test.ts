import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../blockTree.js';
import { isRepeatedLine, pageLineKeys, repeatedLineKeys } from './repeatedLines.js';

const notice = 'This page is best viewed in an up-to-date web browser.';
const html = (story: string) => `<html><body><div><p>${story}</p><p>Read more</p></div><div class="legal"><p>${notice}</p></div></body></html>`;
const page = (story: string) => pageLineKeys(buildBlockTree(html(story)));
const line = (path: string, text: string) => ({ path, text });

describe('repeatedLineKeys', () => {
  it('keeps the lines that half the pages, and three at least, repeat at the same path', () => {
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
});
