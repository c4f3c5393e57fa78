-- Up Migration

-- The replicas of the queue runner (docs/deployment.md "Several replicas"; services/runner/replicas/):
-- one row per running process, written by its heartbeat. A row lives while its heartbeat is
-- younger than the lease and the process has a session open on the database; any replica deletes
-- a row that is neither and ends that process's sessions (its application_name is
-- 'yardmaster:' || id), which releases its repositories' advisory locks. The live rows decide which
-- replica works which repository (rendezvous hashing of the repository over the live ids).
-- Times are the database's clock, so the replicas' clocks never need to agree.
CREATE TABLE runner_replicas (
  id text PRIMARY KEY,
  name text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
