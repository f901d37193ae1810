import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from './migrationsDir.js';

/**
 * A new embedded database starts from a copy of an empty one with every migration applied, made
 * when the package is built (`makeEmptyDatabase.ts`): PGlite's initdb and the migrations cost 4.3 s of CPU,
 * loading the copy 1.4 s, and every new data directory, `winnow demo` and most integration tests
 * begin there. The copy is used only while its key matches: the PGlite version and every
 * migration's name and text. Otherwise (a migration added or edited since the build) the database
 * is created as before, by initdb and the migrations.
 */
export const EMPTY_DATABASE_COPY = new URL('./emptyDatabase.tar.gz', import.meta.url);
export const EMPTY_DATABASE_KEY = new URL('./emptyDatabase.key', import.meta.url);

/** The PGlite version and every migration's name and text, hashed. */
export async function emptyDatabaseKey(migrationsDir: string = MIGRATIONS_DIR): Promise<string> {
  const hash = createHash('sha256');
  const pglite = new URL('../package.json', import.meta.resolve('@electric-sql/pglite'));
  hash.update(`pglite ${JSON.parse(await readFile(pglite, 'utf8')).version}\n`);
  for (const name of (await readdir(migrationsDir)).filter((file) => file.endsWith('.sql')).sort()) {
    hash
      .update(`${name}\n`)
      .update(await readFile(join(migrationsDir, name)))
      .update('\n');
  }
  return hash.digest('hex');
}

/** Whether the empty database's copy was built and is still current for `migrationsDir` (its key alone is read). */
export async function hasEmptyDatabase(migrationsDir: string = MIGRATIONS_DIR): Promise<boolean> {
  if (!existsSync(EMPTY_DATABASE_COPY) || !existsSync(EMPTY_DATABASE_KEY)) return false;
  return (await readFile(EMPTY_DATABASE_KEY, 'utf8')).trim() === (await emptyDatabaseKey(migrationsDir));
}

/** The empty database's copy (a tarball of PGlite's `dumpDataDir`), when built and still current for `migrationsDir`. */
export async function readEmptyDatabase(migrationsDir: string = MIGRATIONS_DIR): Promise<Blob | undefined> {
  return (await hasEmptyDatabase(migrationsDir)) ? new Blob([await readFile(EMPTY_DATABASE_COPY)]) : undefined;
}
