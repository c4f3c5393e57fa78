/**
 * `mergify queue status|show|pause|unpause`: the requests the client builds and the structs it
 * decodes the answers with, translated from the Rust sources (SOURCES.queueStatus,
 * SOURCES.queueShow, SOURCES.queuePause, SOURCES.queueUnpause) and the Python TypedDicts
 * (SOURCES.pyQueueApi, mergify_cli/queue/api.py at 32f8e4f2).
 */
import { z } from "zod";
import { opt, u64, vec } from "./serde.js";

/** status.rs `build_path`: GET /v1/repos/<repo>/merge-queue/status[?branch=<branch>]. */
export const statusPath = (repo: string, branch?: string) =>
  `/v1/repos/${repo}/merge-queue/status${branch === undefined ? "" : `?branch=${encodeURIComponent(branch)}`}`;

/** status.rs `PullRequest`. */
const StatusPullRequest = z.object({
  number: u64,
  title: z.string(),
  author: z.object({ login: z.string() }),
  queued_at: opt(z.string()),
  priority_alias: opt(z.string()),
  estimated_merge_at: opt(z.string()),
});

/** status.rs `Batch`. */
const StatusBatch = z.object({
  id: z.string(),
  parent_ids: vec(z.string()),
  scopes: vec(z.string()),
  status: z.object({ code: z.string() }),
  started_at: opt(z.string()),
  estimated_merge_at: opt(z.string()),
  checks_summary: z.object({ passed: u64.optional(), total: u64.optional() }),
  pull_requests: vec(StatusPullRequest),
});

/** status.rs `StatusView` (with `Pause {reason, paused_at}`). */
export const StatusView = z.object({
  pause: opt(z.object({ reason: opt(z.string()), paused_at: opt(z.string()) })),
  batches: vec(StatusBatch),
  waiting_pull_requests: vec(StatusPullRequest),
});

/** queue/api.py `QueuePullRequest` (total=False; `typing.Required` keys must be there). */
const PyQueuePullRequest = z.object({
  number: z.number().int(),
  title: z.string(),
  url: z.string(),
  author: z.object({ id: z.number().int(), login: z.string() }),
  queued_at: z.string(),
  priority_alias: z.string(),
  // `typing.Required[str]`; Yardmaster answers null when no priority rule gave the priority, as the
  // events do (docs/api.md "Decisions"); TypedDicts are not checked at run time.
  priority_rule_name: z.string().nullable(),
  labels: z.array(z.string()),
  scopes: z.array(z.string()),
  estimated_merge_at: z.string().nullable().optional(),
});

/**
 * queue/api.py `QueueStatusResponse`. TypedDicts are not checked at run time; a batch's
 * `started_at` and `estimated_merge_at` (typed `str`) are only read when the batch has them.
 */
export const PyQueueStatusResponse = z.object({
  batches: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.object({ code: z.string() }),
      checks_summary: z.object({ passed: z.number().int(), total: z.number().int() }),
      pull_requests: z.array(PyQueuePullRequest),
      parent_ids: z.array(z.string()).optional(),
      scopes: z.array(z.string()).optional(),
    }),
  ),
  waiting_pull_requests: z.array(PyQueuePullRequest),
  scope_queues: z.record(z.string(), z.unknown()),
  pause: z.object({ reason: z.string(), paused_at: z.string() }).nullable().optional(),
});

/** show.rs `ConditionEvaluation` (recursive; `match` defaults to true). */
type Condition = { label?: string; match?: boolean; subconditions?: Condition[] };
const ConditionEvaluation: z.ZodType<Condition> = z.lazy(() =>
  z.object({ label: z.string().optional(), match: z.boolean().optional(), subconditions: vec(ConditionEvaluation) }),
);

/**
 * The check states show.rs `check_state_glyph` and `print_checks_summary` know; anything else
 * renders as a dim "—" and counts as failed.
 */
export const CHECK_STATES = [
  "success",
  "pending",
  "failure",
  "error",
  "action_required",
  "timed_out",
  "cancelled",
  "neutral",
  "skipped",
] as const;

/** show.rs `PullView` with `MergeabilityCheck` and `Check`; GET /v1/repos/<repo>/merge-queue/pull/<n>. */
export const PullView = z.object({
  number: u64,
  queued_at: opt(z.string()),
  estimated_time_of_merge: opt(z.string()),
  position: opt(u64),
  priority_rule_name: opt(z.string()),
  queue_rule_name: opt(z.string()),
  checks_timeout_at: opt(z.string()),
  mergeability_check: opt(
    z.object({
      check_type: opt(z.string()),
      started_at: opt(z.string()),
      // A String for serde; the glyph table is what the client can render.
      ci_state: z.enum(CHECK_STATES),
      checks: vec(z.object({ name: z.string(), state: z.string() })),
      conditions_evaluation: opt(ConditionEvaluation),
    }),
  ),
});

/** pause.rs: PUT /v1/repos/<repo>/merge-queue/pause with `PauseRequest {reason}`. */
export const pauseRequest = (reason: string) => ({ reason });
/** pause.rs `PauseResponse`. */
export const PauseResponse = z.object({ reason: opt(z.string()), paused_at: opt(z.string()) });
/** unpause.rs: DELETE /v1/repos/<repo>/merge-queue/pause; any 2xx is "resumed", 404 "not paused". */
export const unpausePath = (repo: string) => `/v1/repos/${repo}/merge-queue/pause`;
