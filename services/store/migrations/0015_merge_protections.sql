-- Up Migration

-- Merge protections (docs/merge-protections.md): the verdict last reported on each pull request,
-- and the pull requests each one depends on (`Depends-On:`), read back when one of those merges
-- or closes so that its dependents are evaluated again, in this repository or another.

-- The check last reported per pull request: a verdict equal to it is not posted again; a change
-- of conclusion, title, summary or head is, with the next `seq` (the report's idempotency key).
CREATE TABLE merge_protection_reports (
  repository text NOT NULL,
  number bigint NOT NULL CHECK (number > 0),
  head_sha text NOT NULL,
  conclusion text NOT NULL CHECK (conclusion IN ('success', 'failure', 'pending')),
  title text NOT NULL,
  summary text NOT NULL,
  seq integer NOT NULL CHECK (seq > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, number)
);

-- What each pull request's `Depends-On:` lines name at its last evaluation; repository names in
-- lower case (GitHub's names compare case-insensitively).
CREATE TABLE merge_protection_dependencies (
  repository text NOT NULL,
  number bigint NOT NULL CHECK (number > 0),
  dependency_repository text NOT NULL,
  dependency_number bigint NOT NULL CHECK (dependency_number > 0),
  PRIMARY KEY (repository, number, dependency_repository, dependency_number)
);
CREATE INDEX merge_protection_dependencies_dependency
  ON merge_protection_dependencies (dependency_repository, dependency_number);
