-- The publishing engine's view of its own processes, so a job whose worker died is handed to
-- another within seconds instead of waiting for pg-boss's expiry (which pg-boss 10 cannot renew).

-- Every process that runs jobs or keeps scratch files beats here; a row whose last_seen is older
-- than WORKER_DEAD_AFTER_SECONDS belongs to a dead process and is removed by any live one.
CREATE TABLE engine_workers (
  id uuid PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  role text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

-- Which process runs which pg-boss job right now. An active job with no live owner is put back.
CREATE TABLE engine_jobs (
  job_id uuid PRIMARY KEY,
  queue text NOT NULL,
  worker_id uuid NOT NULL REFERENCES engine_workers (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL DEFAULT now()
);

-- One holder per key, e.g. one upload per (profile, platform); a dead holder's leases go with it.
CREATE TABLE engine_leases (
  key text PRIMARY KEY,
  worker_id uuid NOT NULL REFERENCES engine_workers (id) ON DELETE CASCADE,
  job_id uuid NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now()
);
