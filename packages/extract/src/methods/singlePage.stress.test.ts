import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExtractionError } from '../result/errors.js';
import { METHOD_NAMES, methodByName, type SinglePageMethod } from './methods.js';

/**
 * Pathological pages every single-page method must survive with bounded work: a 100,000-deep
 * nesting, a 900,000-word paragraph and a paragraph of 150,000 lines. Slow (tens of seconds over every method), so named apart
 * from the unit tests: `pnpm test` runs it, `pnpm test:unit` does not.
 */
const singlePageMethods = METHOD_NAMES.map(methodByName).filter((method): method is SinglePageMethod => method.kind === 'single');

describe('every single-page method on pathological pages', () => {
  for (const method of singlePageMethods) {
    it(`${method.name}: a 100,000-deep page is read or refused as too deep; a 900,000-word page is cut with a warning`, () => {
      const deep = `${'<div>'.repeat(100_000)}deep words here${'</div>'.repeat(100_000)}`;
      try {
        method.extract(deep);
      } catch (error) {
        assert.ok(error instanceof ExtractionError && error.code === 'too-deep', String(error));
      }
      const huge = method.extract(`<p>${'word '.repeat(900_000)}</p>`);
      assert.match(huge.warnings.join(' '), /truncated/);
    });

    it(`${method.name}: a paragraph of 150,000 lines (<br>) is read, not a stack overflow`, () => {
      try {
        method.extract(`<p>${'a line of words<br>'.repeat(150_000)}</p>`);
      } catch (error) {
        assert.ok(error instanceof ExtractionError, String(error));
      }
    });
  }
});
