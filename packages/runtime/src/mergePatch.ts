/**
 * JSON Merge Patch (RFC 7396, section 2): a patch's keys replace the target's, `null` removes a
 * key, an object patches the target's object under the same key, and anything else (an array
 * too) replaces it whole. Neither argument is changed. The result is built from entries, so a
 * `__proto__` key stays a plain key and never reaches a prototype.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const merged = new Map(isObject(target) ? Object.entries(target) : []);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, mergePatch(merged.get(key), value));
  }
  return Object.fromEntries(merged);
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
