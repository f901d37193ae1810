-- What each run of the reconciler found out of step and queued (docs/reliability.md): `status`
-- shows the latest, whichever process ran it. `findings` maps a kind (unextracted, unindexed,
-- stale-document, orphan-document, schedule) to {"found": n, "queued": n}.
CREATE TABLE reconciler_runs (
  id bigserial PRIMARY KEY,
  reason text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  findings jsonb NOT NULL
);
