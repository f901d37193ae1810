import { isDeepStrictEqual } from 'node:util';
import { templateContentPaths, templateMethodByName } from '@winnow/extract';
import type { StoredTemplate, TemplateChanges } from '@winnow/storage';

/** What two templates of a page type are compared by: its URL patterns and signature, and the template with the method that reads it. */
export type ComparedTemplate = Pick<StoredTemplate, 'method' | 'urlPatterns' | 'signature' | 'template'>;

/**
 * A page type's template against an earlier one of the same type (none: the type is new): the
 * content paths added and removed, and every other field that differs (`alsoChanged`, see
 * `TemplateChanges`), compared as stored (through JSON) and sizes aside: a template's `pageCount`,
 * how many pages it was learned from, is read by no method when it extracts, so a template that
 * differs only in it is the same. The page type's URL patterns and signature are compared as sets:
 * patterns come most pages first, and a pattern overtaking another is no change (no method reads
 * their order). The templater stores this against the current version's template when it prepares
 * a new one; `winnow templates diff` computes it between any two versions, by the same rules.
 */
export function templateChanges(after: ComparedTemplate, before: (ComparedTemplate & { version: number }) | undefined): TemplateChanges {
  const now = new Set(contentPaths(after));
  const then = new Set(before ? contentPaths(before) : []);
  const alsoChanged = before
    ? [
        ...(before.method === after.method ? [] : ['method']),
        ...(['urlPatterns', 'signature'] as const).filter((field) => !isDeepStrictEqual(new Set(after[field]), new Set(before[field]))),
        ...differingFields(withoutSizes(after.template), withoutSizes(before.template), 'template').map((field) =>
          field === 'template' ? field : `template.${field}`,
        ),
      ]
    : [];
  return {
    since: before?.version ?? null,
    pathsAdded: [...now].filter((path) => !then.has(path)).sort(),
    pathsRemoved: [...then].filter((path) => !now.has(path)).sort(),
    alsoChanged,
  };
}

/** A template's content paths, read by its own method. */
function contentPaths(template: ComparedTemplate): string[] {
  const method = templateMethodByName(template.method);
  return templateContentPaths(method, method.parseTemplate(template.template));
}

/** A template as stored (through JSON, as Postgres returns it), without its `pageCount`s at any depth. */
function withoutSizes(template: unknown): unknown {
  return JSON.parse(JSON.stringify(template), (key, value: unknown) => (key === 'pageCount' ? undefined : value));
}

/**
 * The names of the fields in which two JSON values differ, each once, sorted: a field holding a
 * value, a list of values or a list of flat entries (objects of values and lists, such as the
 * boilerplate blocks a FastCE template stores) is named as a whole; objects, and lists of equal
 * length whose entries hold objects of their own (the pipeline's layouts), are looked into. A
 * list whose length changed is named itself (`layouts`: their number changed).
 */
function differingFields(a: unknown, b: unknown, name = ''): string[] {
  if (isDeepStrictEqual(a, b)) return [];
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const isStructure = (value: unknown) => isObject(value) && Object.values(value).some(isObject);
  let fields: string[];
  if (isObject(a) && isObject(b)) {
    fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) => differingFields(a[key], b[key], key));
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every(isStructure) && b.every(isStructure)) {
    fields = a.flatMap((entry, i) => differingFields(entry, b[i], name));
  } else fields = [name];
  return [...new Set(fields)].sort();
}
