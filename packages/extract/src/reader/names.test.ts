import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCommentsName, isUnlikelyName, nameWeight } from './names.js';

describe('what names say', () => {
  it('sidebars, comments and sharing are unlikely, unless the name also says content', () => {
    for (const hint of [' sidebar', 'comments ', ' share-buttons', ' site-footer', ' nav']) assert.equal(isUnlikelyName(hint), true, hint);
    for (const hint of ['', ' article-body', ' entry-header', ' canvas', ' elementor-widget-container', ' unavailable'])
      assert.equal(isUnlikelyName(hint), false, hint);
  });

  it('a content word spares a name only in a token that no boilerplate word qualifies', () => {
    for (const hint of [' box two-related-articles clear', ' related-posts', ' share-content']) assert.equal(isUnlikelyName(hint), true, hint);
    for (const hint of [' content-wrapper has-sidebar', ' comments-body', ' entry-footer', ' content-nav', ' post_header', ' story-body-supplemental'])
      assert.equal(isUnlikelyName(hint), false, hint);
  });

  it('copyright notices, WordPress sharing and likes, and author boxes are unlikely, bylines are not', () => {
    for (const hint of [
      ' block-thehill-blocks-copyright',
      ' copyright-wrp',
      ' jp-relatedposts sharedaddy',
      ' jetpack-likes-widget-wrapper',
      ' post-author',
      ' author-bio',
      ' about-the-author',
    ])
      assert.equal(isUnlikelyName(hint), true, hint);
    for (const hint of [' author vcard', ' byline', ' entry-author-name']) assert.equal(isUnlikelyName(hint), false, hint);
  });

  it('legal small print is unlikely: disclaimers and whole `legal` tokens, not words that hold "legal"', () => {
    for (const hint of [' common-bottom-disclaimer__list', ' game_area_legal', ' copy-legal', ' legal-disclaimer'])
      assert.equal(isUnlikelyName(hint), true, hint);
    for (const hint of [' kansaslegalservices', ' paralegals', ' legalese-guide']) assert.equal(isUnlikelyName(hint), false, hint);
    assert.equal(nameWeight(' copy-legal'), -25);
  });

  it('tooltips and popovers are unlikely', () => {
    for (const hint of [' tool-tip__content', ' cms-popover-tooltip', ' tooltip-body']) assert.equal(isUnlikelyName(hint), true, hint);
  });

  it('comment sections are told apart from other boilerplate', () => {
    assert.equal(isCommentsName('comments commentlist'), true);
    assert.equal(isCommentsName(' respond'), true);
    assert.equal(isCommentsName(' sidebar'), false);
    assert.equal(isCommentsName(' comment-content'), false);
  });

  it('weighs id and class apart, and "hidden" only as a whole class token', () => {
    assert.equal(nameWeight('main-content story-body'), 50);
    assert.equal(nameWeight(' related-links'), -25);
    assert.equal(nameWeight(' hidden'), -25);
    assert.equal(nameWeight(' hidden md:block'), -25);
    assert.equal(nameWeight(' overflow-x-hidden'), 0);
    assert.equal(nameWeight(' field-label-hidden'), 0);
    assert.equal(nameWeight(' elementor-widget-container'), -25);
  });
});
