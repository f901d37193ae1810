import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What a query runs on: the database, or one transaction of it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs several `;`-separated statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/**
 * A Postgres database: a real server through a `pg` pool, or PGlite in process. Both speak the
 * same SQL, so every table module and migration runs unchanged on either.
 */
export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** A `postgres://` URL; without one, PGlite opens `dataDir`. */
  databaseUrl?: string | undefined;
  /** PGlite's data directory; `memory` keeps the database in memory. */
  dataDir?: string;
  /** Connections in the `pg` pool. */
  poolSize?: number;
  /** Hears an idle connection's error (a server restart); the pool reconnects on the next query. */
  onError?: (error: Error) => void;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.onError) : openPglite(options.dataDir ?? 'memory');
}

function openPostgres(url: string, poolSize: number, onError: (error: Error) => void = () => undefined): Db {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', onError);
  const onClient = (client: pg.PoolClient | pg.Pool): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...onClient(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(onClient(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string): Promise<Db> {
  const lite = await PGlite.create(dataDir === 'memory' ? undefined : dataDir);
  type LiteQueryable = Pick<PGlite, 'query' | 'exec'>;
  const on = (target: LiteQueryable): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...on(lite),
    transaction: (work) => lite.transaction((tx) => work(on(tx))),
    close: () => lite.close(),
  };
}
