import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDb } from './db.js';
import { EMPTY_DATABASE_COPY, readEmptyDatabase } from './emptyDatabase.js';
import { MIGRATIONS_DIR, migrate } from './migrate.js';

test('a new embedded database, in memory or in a new folder, starts from the copy the build made, with every migration applied', async () => {
  const built = statSync(EMPTY_DATABASE_COPY).mtime;
  const folder = await mkdtemp(join(tmpdir(), 'winnow-empty-'));
  try {
    for (const dataDir of ['memory', join(folder, 'db')]) {
      const db = await openDb({ dataDir, maintenance: false });
      try {
        const rows = await db.query<{ name: string; applied_at: Date }>('SELECT name, applied_at FROM schema_migrations ORDER BY name');
        assert.ok(rows.length > 0, dataDir);
        // Applied when the copy was made, not now: initdb and the migrations did not run here.
        for (const row of rows)
          assert.ok(row.applied_at.getTime() <= built.getTime() + 1000, `${dataDir}: ${row.name} applied ${row.applied_at.toISOString()}`);
        assert.deepEqual(await migrate(db), [], 'nothing left to apply');
      } finally {
        await db.close();
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('the copy is not used once a migration is added or edited after the build', async () => {
  assert.ok(await readEmptyDatabase(), 'the copy matches the migrations it was built with');
  const edited = await mkdtemp(join(tmpdir(), 'winnow-migrations-'));
  try {
    await cp(MIGRATIONS_DIR, edited, { recursive: true });
    await appendFile(join(edited, '0001_pipeline.sql'), '\n-- edited\n');
    assert.equal(await readEmptyDatabase(edited), undefined, 'an edited migration');
    await cp(MIGRATIONS_DIR, edited, { recursive: true, force: true });
    assert.ok(await readEmptyDatabase(edited), 'the same migrations in another folder');
    await appendFile(join(edited, '9999_later.sql'), 'SELECT 1;\n');
    assert.equal(await readEmptyDatabase(edited), undefined, 'an added migration');
  } finally {
    await rm(edited, { recursive: true, force: true });
  }
});
