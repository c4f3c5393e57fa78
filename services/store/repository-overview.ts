/**
 * What the queue knows of each repository, for the repositories list (docs/dashboard.md
 * "Repositories"): the repositories with queue state (a `queue_states` row, a pause or a scheduled
 * freeze), and per repository its queued pull requests by base branch (counted in PostgreSQL from
 * the stored engine state, never read into Node whole), its pause and its freezes not ended yet.
 */
import type pg from "pg";
import { listFreezesNotEnded, type FreezeRow } from "./scheduled-freezes.js";

/** One base branch of a repository's queue: queued pull requests, and those in a batch. */
export interface BranchOverview {
  name: string;
  queued: number;
  inBatches: number;
}

/** A repository's queue as the list shows it; `repository` as the queue state names it. */
export interface QueueOverview {
  repository: string;
  branches: BranchOverview[];
  /** Queued pull requests, every branch. */
  queueDepth: number;
  pause: { reason: string; pausedAt: Date } | null;
  /** Freezes whose end is after `now` (or that have no end), by start. */
  freezes: FreezeRow[];
}

/**
 * The repositories with queue state: a stored engine state, a pause or a scheduled freeze. Names
 * as stored, one per repository (compared case-insensitively, the first by name kept).
 */
export async function repositoriesWithQueueState(db: pg.Pool | pg.ClientBase): Promise<string[]> {
  const res = await db.query<{ repository: string }>(
    `SELECT DISTINCT ON (lower(repository)) repository FROM (
       SELECT repository FROM queue_states
       UNION SELECT repository FROM queue_pauses
       UNION SELECT repository FROM scheduled_freezes
     ) r ORDER BY lower(repository), repository`,
  );
  return res.rows.map((r) => r.repository);
}

/**
 * The queue overview of each repository of `names` (compared case-insensitively), in the order of
 * `names`; a repository without queue state has no branch, no pause and no freeze. `now` (UTC)
 * says which freezes have ended.
 */
export async function queueOverviews(
  db: pg.Pool | pg.ClientBase,
  names: readonly string[],
  now: Date,
): Promise<QueueOverview[]> {
  if (names.length === 0) return [];
  const lower = names.map((n) => n.toLowerCase());
  // A pull request counts once per branch even when it is in several partitions (one entry in
  // `pulls`); in a batch when a batch of any of its trains holds it.
  const branches = await db.query<{ key: string; name: string; queued: string; in_batches: string }>(
    `WITH s AS (SELECT lower(repository) AS key, state FROM queue_states WHERE lower(repository) = ANY($1::text[])),
     pulls AS (
       SELECT s.key, p.key AS number, p.value->>'baseRef' AS branch FROM s, jsonb_each(s.state->'pulls') p
     ),
     embarked AS (
       SELECT DISTINCT s.key, m.value::text AS number
       FROM s, jsonb_array_elements(s.state->'trains') t, jsonb_array_elements(t->'batches') b,
            jsonb_array_elements(b->'members') m
     )
     SELECT pulls.key, pulls.branch AS name, count(*) AS queued, count(embarked.number) AS in_batches
     FROM pulls LEFT JOIN embarked ON embarked.key = pulls.key AND embarked.number = pulls.number
     GROUP BY pulls.key, pulls.branch ORDER BY pulls.key, pulls.branch`,
    [lower],
  );
  const pauses = await db.query<{ key: string; reason: string; paused_at: Date }>(
    "SELECT lower(repository) AS key, reason, paused_at FROM queue_pauses WHERE lower(repository) = ANY($1::text[])",
    [lower],
  );
  const freezes = await listFreezesNotEnded(db, lower, now);
  return names.map((repository, i) => {
    const key = lower[i]!;
    const own = branches.rows
      .filter((b) => b.key === key)
      .map((b) => ({ name: b.name, queued: Number(b.queued), inBatches: Number(b.in_batches) }));
    const pause = pauses.rows.find((p) => p.key === key);
    return {
      repository,
      branches: own,
      queueDepth: own.reduce((n, b) => n + b.queued, 0),
      pause: pause ? { reason: pause.reason, pausedAt: pause.paused_at } : null,
      freezes: freezes.filter((f) => f.repository.toLowerCase() === key),
    };
  });
}
