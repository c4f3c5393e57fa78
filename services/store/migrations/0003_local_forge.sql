-- Up Migration

-- The local forge (FORGE=local; docs/local-forge.md "Tables"): repositories are bare git
-- repositories in the data directory; everything a hosting platform keeps besides git lives here.
-- Names compare case-insensitively, as on GitHub. Times are UTC, written by the forge's clock.

CREATE TABLE local_forge_repositories (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  full_name text NOT NULL CHECK (full_name ~ '^[^/]+/[^/]+$'),
  default_branch text NOT NULL CHECK (char_length(default_branch) BETWEEN 1 AND 255),
  -- Absolute path of the bare repository.
  path text NOT NULL,
  -- The next pull request number: a sequence per repository, shared with nothing else.
  next_pull_number bigint NOT NULL DEFAULT 1 CHECK (next_pull_number > 0),
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX local_forge_repositories_name ON local_forge_repositories (lower(full_name));

-- Users, created on first use with `write` permission; the permission holds on every repository.
CREATE TABLE local_forge_users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  login text NOT NULL CHECK (char_length(login) BETWEEN 1 AND 39),
  kind text NOT NULL DEFAULT 'User' CHECK (kind IN ('User', 'Bot')),
  permission text NOT NULL DEFAULT 'write' CHECK (permission IN ('none', 'read', 'triage', 'write', 'maintain', 'admin')),
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX local_forge_users_login ON local_forge_users (lower(login));

CREATE TABLE local_forge_labels (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  repository_id bigint NOT NULL REFERENCES local_forge_repositories (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 50),
  color text NOT NULL CHECK (color ~ '^[0-9a-f]{6}$'),
  is_default boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX local_forge_labels_name ON local_forge_labels (repository_id, lower(name));

CREATE TABLE local_forge_pull_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  repository_id bigint NOT NULL REFERENCES local_forge_repositories (id) ON DELETE CASCADE,
  number bigint NOT NULL CHECK (number > 0),
  title text NOT NULL,
  body text NOT NULL DEFAULT '',
  author_id bigint NOT NULL REFERENCES local_forge_users (id),
  head_branch text NOT NULL,
  base_branch text NOT NULL,
  head_sha text NOT NULL CHECK (head_sha ~ '^[0-9a-f]{40}$'),
  -- The base tip when the pull request was closed or merged: its diff stays what it was.
  closed_base_sha text CHECK (closed_base_sha ~ '^[0-9a-f]{40}$'),
  state text NOT NULL CHECK (state IN ('open', 'closed', 'merged')),
  draft boolean NOT NULL DEFAULT false,
  locked boolean NOT NULL DEFAULT false,
  merged_by_id bigint REFERENCES local_forge_users (id),
  merge_commit_sha text CHECK (merge_commit_sha ~ '^[0-9a-f]{40}$'),
  milestone text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  closed_at timestamptz,
  merged_at timestamptz,
  UNIQUE (repository_id, number),
  CHECK ((state = 'open') = (closed_at IS NULL)),
  CHECK ((state = 'merged') = (merged_at IS NOT NULL))
);
CREATE INDEX local_forge_pull_requests_open_head ON local_forge_pull_requests (repository_id, head_branch) WHERE state = 'open';
CREATE INDEX local_forge_pull_requests_open_base ON local_forge_pull_requests (repository_id, base_branch) WHERE state = 'open';

CREATE TABLE local_forge_pull_request_labels (
  pull_request_id bigint NOT NULL REFERENCES local_forge_pull_requests (id) ON DELETE CASCADE,
  label_id bigint NOT NULL REFERENCES local_forge_labels (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (pull_request_id, label_id)
);

CREATE TABLE local_forge_assignees (
  pull_request_id bigint NOT NULL REFERENCES local_forge_pull_requests (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES local_forge_users (id),
  PRIMARY KEY (pull_request_id, user_id)
);

CREATE TABLE local_forge_requested_reviewers (
  pull_request_id bigint NOT NULL REFERENCES local_forge_pull_requests (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES local_forge_users (id),
  PRIMARY KEY (pull_request_id, user_id)
);

CREATE TABLE local_forge_reviews (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  pull_request_id bigint NOT NULL REFERENCES local_forge_pull_requests (id) ON DELETE CASCADE,
  author_id bigint NOT NULL REFERENCES local_forge_users (id),
  state text NOT NULL CHECK (state IN ('APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED')),
  body text NOT NULL DEFAULT '',
  -- The head the review was given on.
  commit_sha text NOT NULL CHECK (commit_sha ~ '^[0-9a-f]{40}$'),
  submitted_at timestamptz NOT NULL
);
CREATE INDEX local_forge_reviews_pull ON local_forge_reviews (pull_request_id, id);

-- Comment ids are global, as GitHub's are.
CREATE TABLE local_forge_comments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  pull_request_id bigint NOT NULL REFERENCES local_forge_pull_requests (id) ON DELETE CASCADE,
  author_id bigint NOT NULL REFERENCES local_forge_users (id),
  body text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX local_forge_comments_pull ON local_forge_comments (pull_request_id, id);

-- Durable CI jobs (docs/local-forge.md "CI jobs"): one run of `.yardmaster/ci.yml` at `sha`.
-- A worker claims a job (FOR UPDATE SKIP LOCKED) with a lease it renews while the job runs; a job
-- whose lease ran out (its worker died) is claimed again, so a restart loses no check.
CREATE TABLE local_forge_ci_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  repository_id bigint NOT NULL REFERENCES local_forge_repositories (id) ON DELETE CASCADE,
  sha text NOT NULL CHECK (sha ~ '^[0-9a-f]{40}$'),
  -- The branch whose move supersedes this job (a pull request's head, a speculative branch); null for a bare commit.
  branch text,
  reason text NOT NULL,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX local_forge_ci_jobs_active ON local_forge_ci_jobs (id) WHERE state IN ('queued', 'running');
CREATE INDEX local_forge_ci_jobs_sha ON local_forge_ci_jobs (repository_id, sha);
CREATE INDEX local_forge_ci_jobs_branch ON local_forge_ci_jobs (repository_id, branch) WHERE state IN ('queued', 'running');

-- Check runs (and statuses) per commit. Several runs may share a name (a re-run, another app):
-- readers take the newest per name.
CREATE TABLE local_forge_check_runs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  repository_id bigint NOT NULL REFERENCES local_forge_repositories (id) ON DELETE CASCADE,
  sha text NOT NULL CHECK (sha ~ '^[0-9a-f]{40}$'),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  state text NOT NULL CHECK (state IN ('success', 'failure', 'error', 'cancelled', 'action_required', 'timed_out', 'pending', 'neutral', 'skipped', 'stale')),
  description text NOT NULL DEFAULT '',
  details_url text,
  app text NOT NULL,
  output text NOT NULL DEFAULT '',
  -- The local CI job that runs it; null for check runs posted from outside.
  ci_job_id bigint REFERENCES local_forge_ci_jobs (id) ON DELETE SET NULL,
  started_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX local_forge_check_runs_sha ON local_forge_check_runs (repository_id, sha, name, id);
CREATE INDEX local_forge_check_runs_job ON local_forge_check_runs (ci_job_id) WHERE ci_job_id IS NOT NULL;
