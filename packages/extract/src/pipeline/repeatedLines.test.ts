import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../blockTree.js';
import { terms } from '../features.js';
import { pageLineKeys, repeatedLineKeys, repeatedWords } from './repeatedLines.js';

const notice = 'This page is best viewed in an up-to-date web browser.';
const page = (story: string) => pageLineKeys(buildBlockTree(`<html><body><p>${story}</p><p>Read more here</p><p>${notice}</p></body></html>`));

describe('repeatedLineKeys', () => {
  it('keeps the lines of four words or more that half the pages, and three at least, repeat', () => {
    const pages = ['The mayor opened the bridge.', 'The school won the cup again.', 'A storm closed the harbour road.', 'The mayor opened the bridge.'].map(
      page,
    );
    const repeated = new Set(repeatedLineKeys(pages));
    assert.equal(repeatedWords([terms(notice)], repeated), terms(notice).length, 'the notice is on every page');
    assert.equal(repeatedWords([terms('The mayor opened the bridge.')], repeated), 0, 'an article on two pages is not the site’s');
    assert.equal(repeatedWords([terms('Read more here')], repeated), 0, 'a label of three words is not judged');
  });

  it('needs three pages: two pages repeat nothing', () => {
    assert.deepEqual(repeatedLineKeys([page('One story about a bridge.'), page('Another story about a school.')]), []);
  });
});
