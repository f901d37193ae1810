import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The Postgres server tests use: `WINNOW_TEST_POSTGRES_URL`, else the local server `scripts/system-packages.sh test` starts (the password is what that script sets; a trust-auth server ignores it). */
export const TEST_POSTGRES_URL = process.env.WINNOW_TEST_POSTGRES_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the test server, so that tests never share state. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `winnow_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
