import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExtractionError } from '../result/errors.js';
import { METHOD_NAMES, methodByName, type SinglePageMethod } from './methods.js';

const singlePageMethods = METHOD_NAMES.map(methodByName).filter((method): method is SinglePageMethod => method.kind === 'single');
const isTyped =
  (...codes: string[]) =>
  (error: unknown) =>
    error instanceof ExtractionError && codes.includes(error.code);

describe('every single-page method on bad input', () => {
  for (const method of singlePageMethods) {
    it(`${method.name}: typed errors for empty and binary pages, best effort for broken and plain ones`, () => {
      assert.throws(() => method.extract(''), isTyped('empty-input'));
      assert.throws(() => method.extract('\u0000\u0001\u0002'.repeat(1000)), isTyped('binary-input'));
      assert.doesNotThrow(() => method.extract('<div><p>unclosed <b>bold<div>next</span></p>'));
      assert.equal(method.extract('just some plain words').text, 'just some plain words');
    });
  }
});

describe('every single-page method on invisible characters', () => {
  const page = `<html><body><article>${'<p>A magnifi&shy;cent rhino&#8203;ceros stood by the light&shy;house, as the keeper&#8288;s notes at the caf&eacute; say.</p>'.repeat(8)}</article></body></html>`;
  for (const method of singlePageMethods) {
    it(`${method.name}: a word split by a soft hyphen or a zero-width space is one word`, () => {
      const { text } = method.extract(page);
      assert.match(text, /A magnificent rhinoceros stood by the lighthouse, as the keepers notes at the café say\./);
      assert.doesNotMatch(text, /[\u00ad\u200b\u2060]/);
    });
  }
});
