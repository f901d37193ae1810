import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergePatch } from './mergePatch.js';

describe('JSON merge patch', () => {
  test("RFC 7396's examples (Appendix A)", () => {
    const examples: [unknown, unknown, unknown][] = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, result] of examples) {
      assert.deepEqual(mergePatch(target, patch), result, `${JSON.stringify(target)} patched by ${JSON.stringify(patch)}`);
    }
  });

  test('the target is left as it was, and a __proto__ key stays a plain key', () => {
    const target = { a: { b: 1 }, c: [1] };
    const merged = mergePatch(target, { a: { b: 2 }, c: null }) as object;
    assert.deepEqual(target, { a: { b: 1 }, c: [1] });
    assert.deepEqual(merged, { a: { b: 2 } });
    const polluting = mergePatch({}, JSON.parse('{"__proto__": {"admin": true}}')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(polluting), Object.prototype);
    assert.deepEqual(Object.keys(polluting), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });
});
