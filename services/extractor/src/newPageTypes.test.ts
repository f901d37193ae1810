import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NewPageTypes } from './extractPage.js';

describe('pages read without a template of their type', () => {
  test('ask for templates at twice minTemplatePages, then at each doubling, per site', () => {
    const watch = new NewPageTypes();
    const asks = (siteId: number, pages: number) => Array.from({ length: pages }, (_, i) => (watch.noted(siteId, 5) ? i + 1 : 0)).filter(Boolean);
    assert.deepEqual(asks(1, 100), [10, 20, 40, 80]);
    assert.deepEqual(asks(2, 10), [10], 'another site counts on its own');
    assert.deepEqual(asks(1, 100), [60], 'the count goes on: the 160th page asks');
  });
});
