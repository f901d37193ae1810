import assert from 'node:assert/strict';
import { test } from 'node:test';
import { METHOD_NAMES, methodByName } from './methods.js';
import { SINGLE_PAGE_METHOD_NAMES, TEMPLATE_METHOD_NAMES } from './names.js';

test("the names the configuration accepts are the registry's, kind by kind and in its order", () => {
  const ofKind = (kind: string) => METHOD_NAMES.filter((name) => methodByName(name).kind === kind);
  assert.deepEqual(ofKind('template'), [...TEMPLATE_METHOD_NAMES]);
  assert.deepEqual(ofKind('single'), [...SINGLE_PAGE_METHOD_NAMES]);
});
