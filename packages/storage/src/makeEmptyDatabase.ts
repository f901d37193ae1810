import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDb } from './db.js';
import { EMPTY_DATABASE_COPY, EMPTY_DATABASE_KEY, emptyDatabaseKey } from './emptyDatabase.js';
import { migrate } from './migrate.js';

/**
 * Makes the empty database's copy that new embedded databases start from (`emptyDatabase.ts`): a
 * new database in a scratch folder, migrated by `openDb` and `migrate` as every process migrates,
 * then dumped by PGlite. The package's build runs it.
 */
async function makeEmptyDatabase(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'winnow-empty-database-'));
  try {
    await rm(EMPTY_DATABASE_COPY, { force: true }); // so that openDb creates this one by initdb
    const db = await openDb({ dataDir: join(folder, 'db'), maintenance: false });
    await migrate(db);
    await db.close();
    const lite = await PGlite.create(join(folder, 'db'));
    const dump = await lite.dumpDataDir('gzip');
    await lite.close();
    await writeFile(EMPTY_DATABASE_COPY, Buffer.from(await dump.arrayBuffer()));
    await writeFile(EMPTY_DATABASE_KEY, `${await emptyDatabaseKey()}\n`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await makeEmptyDatabase();
