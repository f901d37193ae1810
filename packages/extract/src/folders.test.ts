import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The extraction core's folders, lowest first: a module may import from its own folder and from
 * folders of lower layers, never from a higher layer or from the package root (whose `index.ts` is
 * the public surface, read by other packages only). So the folders form a DAG that reads bottom-up:
 * the outcome types, the HTML layer and the site's boxes told by the form of extracted lines,
 * ContentExtractor's features, the single-page methods, FastCE over them, the pipeline over FastCE
 * and the reader, the registry of named methods, and the explanation of any method's reading (the
 * page inspector's) on top.
 * A new folder takes its place here.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['testing', 'result'],
  ['html', 'siteBoxes'],
  ['ce'],
  ['mainblock', 'readability', 'wlr', 'ccb', 'vge'],
  ['auto', 'reader'],
  ['fastce'],
  ['pipeline'],
  ['methods'],
  ['explain'],
];

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const layerOf = new Map(LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));

interface Import {
  file: string;
  /** The imported module, relative to `src`, in POSIX spelling. */
  target: string;
}

/** Every relative import (static, re-export, type-only or dynamic) of every TypeScript file under `src`. */
function relativeImports(): Import[] {
  const files = readdirSync(src, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'));
  const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm;
  return files.flatMap((file) => {
    const text = readFileSync(join(src, file), 'utf8');
    const own = file.split(sep).join('/');
    return [...text.matchAll(specifier)].map((match) => ({ file: own, target: posix.normalize(posix.join(posix.dirname(own), match[1] as string)) }));
  });
}

const folderOf = (path: string): string | null => (path.includes('/') ? (path.split('/')[0] as string) : null);
const isTest = (file: string): boolean => file.endsWith('.test.ts');

describe('the extraction core’s folders', () => {
  const imports = relativeImports();

  it('finds the imports it checks', () => {
    assert.ok(imports.length > 100, `only ${imports.length} relative imports found under ${relative(process.cwd(), src)}`);
  });

  it('holds every module in a folder of the layer order, the root keeping only the public surface', () => {
    const files = readdirSync(src, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.split(sep).join('/'));
    const rootModules = files.filter((file) => folderOf(file) === null && !isTest(file));
    assert.deepEqual(rootModules, ['index.ts']);
    const unplaced = [...new Set(files.map(folderOf).filter((folder): folder is string => folder !== null && !layerOf.has(folder)))];
    assert.deepEqual(unplaced, [], 'folders missing from LAYERS');
  });

  it('never imports from the package root inside a folder', () => {
    const upward = imports.filter(({ file, target }) => folderOf(file) !== null && folderOf(target) === null);
    assert.deepEqual(
      upward.map(({ file, target }) => `${file} -> ${target}`),
      [],
    );
  });

  it('imports only from the same or a lower layer (tests may read any folder)', () => {
    const against = imports.filter(({ file, target }) => {
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === null || to === null || from === to || isTest(file)) return false;
      return (layerOf.get(to) ?? Number.POSITIVE_INFINITY) >= (layerOf.get(from) ?? Number.NEGATIVE_INFINITY);
    });
    assert.deepEqual(
      against.map(({ file, target }) => `${file} -> ${target}`),
      [],
    );
  });
});
