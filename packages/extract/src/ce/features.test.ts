import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cosine, featureVector, isSimilar } from './features.js';

const none = { links: 0, images: 0, scripts: 0 };

describe('feature vectors', () => {
  it('are lower-cased term counts plus links, images and scripts', () => {
    const a = featureVector('Share this story share', { links: 2, images: 0, scripts: 0 });
    const b = featureVector('share THIS story Share', { links: 2, images: 0, scripts: 0 });
    assert.ok(Math.abs(cosine(a, b) - 1) < 1e-12);
    assert.equal(a.termCount, 3);
    assert.ok(cosine(a, featureVector('share this story share', none)) < 1);
  });

  it('has a cheap bound that never rejects a similar pair', () => {
    let state = 1;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const words = 'a b c d e f g h i j'.split(' ');
    for (let trial = 0; trial < 2000; trial++) {
      const text = () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]).join(' ');
      const x = featureVector(text(), { links: Math.floor(random() * 3), images: 0, scripts: 0 });
      const y = featureVector(text(), none);
      assert.equal(isSimilar(x, y, 0.9), cosine(x, y) > 0.9);
    }
  });
});
