import { performance } from 'node:perf_hooks';
import { completeUrls, leaseUrls, migrate, openDb, renewLeases, type Db } from '@winnow/storage';

export interface FrontierBenchFlags {
  /** A Postgres server (its `postgres` database is used to create the bench's own). */
  postgres: string;
  /** The bench's database: created and loaded once, reused by later runs. */
  database: string;
  urls: number;
  hosts: number;
  /** URLs per lease, as a crawler asks for its free slots. */
  batch: number;
  /** Leases measured per run. */
  rounds: number;
  /** Crawler processes that hold leases while one renews (each holds one batch). */
  holders: number;
  json?: boolean;
}

export interface FrontierCosts {
  urls: number;
  hosts: number;
  batch: number;
  /** URLs leased per second by one process (the lease statement alone, batches of `batch`). */
  leasedPerSecond: number;
  /** Distinct hosts in one lease, on average: how many hosts a process could fetch from at once. */
  hostsPerLease: number;
  /** URLs marked done per second by one process (one statement per batch). */
  completedPerSecond: number;
  /** One renewal of a process's leases while `holders` processes hold a batch each, ms (median). */
  renewMs: number;
  /** Lease, then complete, one batch after the other: URLs/s one crawler process could take through the frontier. */
  cyclePerSecond: number;
  /** Postgres bytes per frontier URL: the table, its TOAST and its indexes over its rows. */
  bytesPerUrl: number;
}

const SITE = 'bench-frontier';

/**
 * The Postgres frontier at scale: `urls` URLs over `hosts` hosts in one running crawl, loaded once
 * with `generate_series` into a database of its own (reused while it holds that many), then the
 * crawler's statements timed as they run: `leaseUrls`, `completeUrls`, `renewLeases`. The rows a
 * run leased are put back to `queued` at its end, so every run leases the same rows.
 */
export async function measureFrontier(flags: FrontierBenchFlags, log: (line: string) => void = () => undefined): Promise<FrontierCosts> {
  await ensureDatabase(flags.postgres, flags.database);
  const url = new URL(flags.postgres);
  url.pathname = `/${flags.database}`;
  const db = await openDb({ databaseUrl: url.toString(), dataDir: 'memory' });
  try {
    await migrate(db);
    const crawlId = await loadFrontier(db, flags, log);
    const owner = `bench-${process.pid}`;
    const leaseMs = 60_000;
    try {
      let leased = 0;
      let hostsLeased = 0;
      let leaseSeconds = 0;
      let completeSeconds = 0;
      for (let round = 0; round < flags.rounds; round++) {
        let started = performance.now();
        const batch = await leaseUrls(db, owner, flags.batch, leaseMs);
        leaseSeconds += (performance.now() - started) / 1000;
        leased += batch.length;
        hostsLeased += new Set(batch.map((row) => row.host)).size;
        started = performance.now();
        await completeUrls(
          db,
          owner,
          batch.map((row) => ({ id: row.id, outcome: 'stored' as const })),
        );
        completeSeconds += (performance.now() - started) / 1000;
      }
      // Other processes hold a batch each while this one renews.
      const holders = Array.from({ length: flags.holders }, (_, i) => `${owner}-holder-${i}`);
      for (const holder of holders) await leaseUrls(db, holder, flags.batch, leaseMs);
      await leaseUrls(db, owner, flags.batch, leaseMs);
      const renewals: number[] = [];
      for (let i = 0; i < 9; i++) {
        const started = performance.now();
        await renewLeases(db, owner, leaseMs);
        renewals.push(performance.now() - started);
      }
      renewals.sort((a, b) => a - b);
      const [{ bytes }] = (await db.query<{ bytes: string }>(`SELECT pg_total_relation_size('frontier') AS bytes`)) as [{ bytes: string }];
      return {
        urls: flags.urls,
        hosts: flags.hosts,
        batch: flags.batch,
        leasedPerSecond: Math.round(leased / leaseSeconds),
        hostsPerLease: Math.round((hostsLeased / flags.rounds) * 10) / 10,
        completedPerSecond: Math.round(leased / completeSeconds),
        renewMs: Math.round((renewals[4] ?? 0) * 10) / 10,
        cyclePerSecond: Math.round(leased / (leaseSeconds + completeSeconds)),
        bytesPerUrl: Math.round(Number(bytes) / flags.urls),
      };
    } finally {
      await db.query(
        `UPDATE frontier SET state = 'queued', outcome = NULL, lease_owner = NULL, lease_until = NULL, done_by = NULL, done_at = NULL, attempts = 0
          WHERE crawl_id = $1 AND (done_by = $2 OR lease_owner LIKE $2 || '%')`,
        [crawlId, owner],
      );
    }
  } finally {
    await db.close();
  }
}

async function ensureDatabase(postgres: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`--database: "${name}" is not a plain database name`);
  const admin = await openDb({ databaseUrl: postgres, dataDir: 'memory' });
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.length === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
}

/**
 * The bench crawl, loaded unless it holds `urls` URLs already (its `urls_admitted` says so once a
 * load finished). URL `i` belongs to host `(i / 10) % hosts`: ten URLs of a host in a row, as a
 * page's links arrive, then the next host. Loaded a million rows per statement.
 */
async function loadFrontier(db: Db, flags: FrontierBenchFlags, log: (line: string) => void): Promise<number> {
  const existing = await db.query<{ crawl_id: number; urls_admitted: number }>(
    `SELECT c.id AS crawl_id, c.urls_admitted FROM crawls c JOIN sites s ON s.id = c.site_id WHERE s.name = $1`,
    [SITE],
  );
  const found = existing[0];
  if (found && found.urls_admitted === flags.urls) return found.crawl_id;
  await db.query('DELETE FROM sites WHERE name = $1', [SITE]);
  const [site] = await db.query<{ id: number }>(`INSERT INTO sites (name, config) VALUES ($1, '{}') RETURNING id`, [SITE]);
  const [crawl] = await db.query<{ id: number }>(`INSERT INTO crawls (site_id, state, started_at) VALUES ($1, 'running', now()) RETURNING id`, [site?.id]);
  const crawlId = crawl?.id as number;
  // Indexes are built once after the load (sorted, far faster than 10 million random inserts into
  // the URL index), and the rows' foreign keys, valid by construction, are not checked one by one.
  const indexes = await db.query<{ name: string; definition: string; constraint: boolean }>(
    `SELECT i.relname AS name, coalesce('ALTER TABLE frontier ADD CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid),
            pg_get_indexdef(i.oid)) AS definition, c.oid IS NOT NULL AS constraint
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u'
      WHERE x.indrelid = 'frontier'::regclass AND NOT x.indisprimary`,
  );
  for (const index of indexes) await db.query(index.constraint ? `ALTER TABLE frontier DROP CONSTRAINT ${index.name}` : `DROP INDEX ${index.name}`);
  await db.query('ALTER TABLE frontier DISABLE TRIGGER ALL');
  const step = 1_000_000;
  try {
    for (let from = 0; from < flags.urls; from += step) {
      const started = performance.now();
      await db.query(
        `INSERT INTO frontier (crawl_id, site_id, url, host, depth, pattern)
         SELECT $1, $2, 'http://h' || ((i / 10) % $5) || '.test/page/' || i, 'h' || ((i / 10) % $5) || '.test', 1, '/page/:n'
           FROM generate_series($3::bigint, $4::bigint) AS i`,
        [crawlId, site?.id, from, Math.min(from + step, flags.urls) - 1, flags.hosts],
      );
      log(`loaded ${Math.min(from + step, flags.urls)} of ${flags.urls} URLs (${Math.round(performance.now() - started)} ms)`);
    }
  } finally {
    await db.query('ALTER TABLE frontier ENABLE TRIGGER ALL');
    for (const index of indexes) {
      const started = performance.now();
      await db.query(index.definition);
      log(`built ${index.name} (${Math.round(performance.now() - started)} ms)`);
    }
  }
  await db.query('ANALYZE frontier');
  await db.query('UPDATE crawls SET urls_admitted = $2 WHERE id = $1', [crawlId, flags.urls]);
  return crawlId;
}

/** `winnow bench frontier`: the costs above, as a table or one JSON object. */
export async function benchFrontierCommand(flags: FrontierBenchFlags): Promise<void> {
  const costs = await measureFrontier(flags, (line) => process.stderr.write(`${line}\n`));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(costs)}\n`);
    return;
  }
  process.stdout.write(
    [
      `frontier of ${costs.urls} URLs over ${costs.hosts} hosts, batches of ${costs.batch}, one process:`,
      `  lease     ${costs.leasedPerSecond} URLs/s, ${costs.hostsPerLease} hosts per lease`,
      `  complete  ${costs.completedPerSecond} URLs/s`,
      `  both      ${costs.cyclePerSecond} URLs/s`,
      `  renew     ${costs.renewMs} ms (with ${flags.holders} other processes holding a batch)`,
      `  size      ${costs.bytesPerUrl} bytes per URL`,
      '',
    ].join('\n'),
  );
}
