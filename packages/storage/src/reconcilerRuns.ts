import type { Queryable } from './db.js';

/** What the reconciler found of one kind, and how many jobs it queued for it (at most its limit per run). */
export interface Finding {
  found: number;
  queued: number;
}

/** One run of the reconciler: why it ran, when, and what it found by kind. */
export interface ReconcilerRun {
  reason: string;
  startedAt: Date;
  finishedAt: Date;
  findings: Record<string, Finding>;
}

/** Runs kept: the latest is what `status` shows; a few more are history for whoever looks. */
const KEPT_RUNS = 100;

/** Records a run, and forgets the runs older than the last `KEPT_RUNS`. */
export async function recordReconcilerRun(db: Queryable, run: Omit<ReconcilerRun, 'finishedAt'>): Promise<void> {
  await db.query('INSERT INTO reconciler_runs (reason, started_at, findings) VALUES ($1, $2, $3)', [run.reason, run.startedAt, JSON.stringify(run.findings)]);
  await db.query('DELETE FROM reconciler_runs WHERE id <= (SELECT max(id) FROM reconciler_runs) - $1', [KEPT_RUNS]);
}

/** The latest run, or undefined before the first. */
export async function latestReconcilerRun(db: Queryable): Promise<ReconcilerRun | undefined> {
  const [row] = await db.query<{ reason: string; started_at: Date; finished_at: Date; findings: Record<string, Finding> }>(
    'SELECT reason, started_at, finished_at, findings FROM reconciler_runs ORDER BY id DESC LIMIT 1',
  );
  return row && { reason: row.reason, startedAt: row.started_at, finishedAt: row.finished_at, findings: row.findings };
}
