import { readdir, readFile } from 'node:fs/promises';
import type { UmzugStorage } from 'umzug';
import type { Db, Queryable } from './db.js';
import { MIGRATIONS_DIR } from './migrationsDir.js';

export { MIGRATIONS_DIR };

/** Serialises migrations between processes that start together (any 64-bit constant works). */
const MIGRATION_LOCK = 7_262_011;

/**
 * Applies every pending migration with Umzug, recording applied names in `schema_migrations`.
 * On a Postgres server an advisory lock held for the transaction keeps two starting services from
 * migrating at once; PGlite has one connection, so it needs none. Returns the names applied now.
 * A database that has every migration already is told by one query, without Umzug (loading it
 * cost a one-shot command more than the rest of its start).
 */
export async function migrate(db: Db, directory: string = MIGRATIONS_DIR): Promise<string[]> {
  if (await allApplied(db, directory)) return [];
  const { Umzug } = await import('umzug');
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const umzug = new Umzug<Queryable>({
      migrations: {
        glob: ['*.sql', { cwd: directory }],
        resolve: ({ name, path }) => ({
          name,
          up: async ({ context }) => context.exec(await readFile(path as string, 'utf8')),
        }),
      },
      context: tx,
      storage: tableStorage,
      logger: undefined,
    });
    const applied = await umzug.up();
    return applied.map((migration) => migration.name);
  });
}

/** True when `schema_migrations` names every migration of `directory` (false when it is not there yet). */
async function allApplied(db: Db, directory: string): Promise<boolean> {
  const files = (await readdir(directory)).filter((name) => name.endsWith('.sql'));
  const rows = await db.query<{ name: string }>('SELECT name FROM schema_migrations').catch(() => undefined);
  if (!rows) return false;
  const applied = new Set(rows.map((row) => row.name));
  return files.every((name) => applied.has(name));
}

const tableStorage: UmzugStorage<Queryable> = {
  async executed({ context }) {
    const rows = await context.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    return rows.map((row) => row.name);
  },
  async logMigration({ name, context }) {
    await context.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
  },
  async unlogMigration({ name, context }) {
    await context.query('DELETE FROM schema_migrations WHERE name = $1', [name]);
  },
};
