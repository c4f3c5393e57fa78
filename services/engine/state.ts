/**
 * The engine state of one repository: plain JSON data (stored as JSONB), times as epoch
 * milliseconds UTC. One train per (base branch, partition); a train is an ordered list of batches
 * being checked plus the pull requests waiting for a batch. Vocabulary: docs/domain.md
 * "Glossary"; rules: the header of engine.ts.
 */
import { emptyEngineConfig, type EngineConfig } from "./config.js";

/** Epoch milliseconds, UTC. */
export type EpochMs = number;

/** One check (check run or commit status) as the queue saw it (events.proto QueueCheck). */
export interface QueueCheck {
  name: string;
  description: string;
  url: string | null;
  state:
    | "failure"
    | "error"
    | "cancelled"
    | "action_required"
    | "timed_out"
    | "pending"
    | "neutral"
    | "skipped"
    | "stale"
    | "success";
  avatar_url: string | null;
}

/** How a check attempt ended for a pull request (its checks_end): passed, failed, timed out, or stopped (aborted). */
export type CheckEnding = "passed" | "failed" | "timed_out" | "stopped";

/** A queued pull request (one entry even when it belongs to several partitions). */
export interface PullEntry {
  number: number;
  title: string;
  url: string;
  author: { id: number; login: string };
  labels: string[];
  /** The hosting platform's labels (id, name, hex colour, default flag), as last read. */
  hostLabels: { id: number; name: string; color: string; default: boolean }[];
  headSha: string;
  baseRef: string;
  queueRule: string;
  /** 1-10000 (low 1000, medium 2000, high 3000). */
  priority: number;
  priorityRuleName: string | null;
  allowChecksInterruption: boolean;
  scopes: string[];
  /** Touches every scope (barrier files): checked alone, after and before everything. */
  allScopes: boolean;
  /** Partition names; ["__default__"] without partitions. */
  partitions: string[];
  /** Pull requests this one is stacked on (`Depends-On`). */
  dependsOn: number[];
  queuedAt: EpochMs;
  /** Since when it may start a batch: set on entering, kept when re-embarked. */
  readySince: EpochMs;
  /** Order of entry, to break ties between equal priorities and times. */
  seq: number;
  sessionId: string;
  /** Trigger of the enter event ("Rule: x", "Command: queue", "@login", ...). */
  trigger: string;
  /** Set while held by `conflict_deferred`: it is not embarked until these have left the queue. */
  conflictBlockers: number[] | null;
  /** Draft creation failures during this stay (checks_postponed `attempt`). */
  creationFailures: number;
  /**
   * The batch of its latest check that started and ended (checks_end), for checks_start
   * `previous_batch_*` and `start_reason`, with how that check ended (absent in states saved
   * before it existed: "stopped").
   */
  previousBatch: { id: string; name: string; ended?: CheckEnding } | null;
  /** Last checks seen for it, for the leave event. */
  lastChecks: QueueCheck[];
  /**
   * The conditions last evaluated for it (queue conditions while waiting, merge conditions of its
   * check), as events.proto `ConditionEvaluation` JSON, for the leave event; null when none yet.
   * Absent in states saved before it existed.
   */
  lastEvaluation?: Record<string, unknown> | null;
  /** A head SHA reported before the in-place update that produced it was confirmed. */
  pendingHeadSha: string | null;
  /** Milliseconds its checks waited for a schedule in the merge conditions (leave event). Absent = 0. */
  scheduleWaitMs?: number;
  /** Milliseconds its batches were held by a scheduled freeze (leave event `seconds_waiting_for_freeze`). Absent = 0. */
  freezeWaitMs?: number;
  /**
   * It gave way to pull requests that could merge while its merge schedule was closed
   * (SCHEDULE_BLOCKED_AHEAD_YIELDED): it is not embarked again before this instant, when the
   * schedule opens. Absent or null = not held back.
   */
  scheduleYieldUntil?: EpochMs | null;
  /** What it gave way to: a closed merge schedule (absent, "schedule") or a scheduled freeze ("freeze"). */
  scheduleYieldBy?: HoldKind;
  /** When it gave way (its wait outside the train counts from then: yield-wait.ts). Absent or null = not held back. */
  scheduleYieldSince?: EpochMs | null;
}

/** What holds a check's merge: the merge conditions' time leaves, or a scheduled freeze (docs/scheduled-freeze.md). */
export type HoldKind = "schedule" | "freeze";

/** What queue events need to name a pull request: its session and queue. */
export interface PullRef {
  number: number;
  baseRef: string;
  queueRule: string;
  priorityRuleName: string | null;
  sessionId: string;
}

/** One attempt at checking a batch: a draft pull request, or the pull request itself in place. */
export interface CheckAttempt {
  id: string;
  /** 0 for the first attempt, n for the n-th retry (max_checks_retries). */
  attempt: number;
  mode: "draft" | "in_place";
  /**
   * creating: effect emitted, waiting for the runner; running: CI pending; passed / failed:
   * concluded (failed includes a timeout).
   */
  phase: "creating" | "running" | "passed" | "failed";
  /** Draft branch name (draft mode) or null. */
  branch: string | null;
  /** The draft pull request number, or the pull request itself in place; null until created. */
  number: number | null;
  /** Head SHA of the checked commit; null until created. */
  headSha: string | null;
  /** Base SHA the check was built on. */
  baseSha: string;
  /** Pull requests the checked tree adds to `baseSha` (ancestors' members, then its own). */
  includedPulls: number[];
  requestedAt: EpochMs;
  startedAt: EpochMs | null;
  endedAt: EpochMs | null;
  timedOut: boolean;
  checks: QueueCheck[];
  /**
   * The merge conditions hold except for time-based ones (a `schedule`): the check waits, exempt
   * from checks_timeout, until this instant, when the runner evaluates it again
   * (`waiting_schedule`). Absent or null = not waiting.
   */
  scheduleHeldUntil?: EpochMs | null;
  /** When it started waiting for the schedule (for `seconds_waiting_for_schedule`). */
  scheduleHeldSince?: EpochMs | null;
  /**
   * What holds it while scheduleHeldUntil is set (absent = "schedule"). Only a freeze holds a
   * check that already passed: it is then `frozen`, and not merged until released.
   */
  scheduleHeldBy?: HoldKind | null;
  /** An open-ended freeze holds it: scheduleHeldUntil is only when the runner looks again, not an end (no merge estimate). Absent = false. */
  scheduleHeldOpenEnded?: boolean;
  /**
   * While waiting for a schedule: the members whose own merge conditions are false only because
   * of it, with the instant each one's hold (pull request number as a string -> epoch ms); the
   * other members could merge now. Absent or null = every member waits until scheduleHeldUntil.
   */
  scheduleBlocked?: Record<string, EpochMs> | null;
  /** When its CI ended, if it then waited for a schedule (its duration for estimates). */
  ciEndedAt?: EpochMs | null;
  /** Milliseconds it waited for schedules so far (not counted by checks_timeout). Absent = 0. */
  scheduleWaitedMs?: number;
  /**
   * Someone else pushed to the draft and allow_queue_branch_edit kept it: its tree is more than
   * base plus pull requests, so nothing is checked on top of it until it merged. Absent = false.
   */
  edited?: boolean;
  /** Creation failures of this attempt; the creation is retried at nextCreationAt. */
  creationFailures: number;
  nextCreationAt: EpochMs | null;
}

/** A batch of the train: pull requests checked together and merged together (docs/domain.md "Glossary"). */
export interface Batch {
  id: string;
  /** Display name: "Batch 3", "Sub-batch 3.1", "Sub-batch 3.1.2". */
  name: string;
  queueRule: string;
  /** Its own pull requests, in merge order (not those of the batches it is checked on top of). */
  members: number[];
  /** Batches whose pull requests its check includes, in train order (cumulative speculation). */
  ancestors: string[];
  scopes: string[];
  allScopes: boolean;
  /** The bisection it is a sub-batch of, or null for a batch as embarked. */
  bisectionId: string | null;
  /** 0 for a batch as embarked, n for a sub-batch of a depth n-1 bisection. */
  depth: number;
  createdAt: EpochMs;
  /** Null while waiting for a checks slot. */
  check: CheckAttempt | null;
  /** Failed attempts retried so far (max_checks_retries). */
  retries: number;
  /** A merge effect was emitted and its result is awaited. */
  merging: boolean;
  /** Why its next check starts again (checks_start `start_reason`), set when it is rechecked. */
  restartReason: string | null;
}

/**
 * A bisection of a failed batch into cumulative prefixes (docs/domain.md §3.5). The failed
 * batch is replaced by sub-batches that check prefixes of its members minus the last one; the
 * last one is held as the elimination candidate.
 */
export interface Bisection {
  /** The failed batch's id and name (the bisection is shown as that batch with sub_batches). */
  id: string;
  name: string;
  queueRule: string;
  /** The outermost bisection of the same original batch (itself at depth 0). */
  rootId: string;
  parentId: string | null;
  depth: number;
  /** The failed batch's own pull requests (the range being bisected). */
  members: number[];
  /** The failed batch's ancestors: the sub-batches are checked on top of them. */
  ancestors: string[];
  scopes: string[];
  allScopes: boolean;
  subBatchIds: string[];
  /** Held, unchecked members: dropped by elimination when every sub-batch passes. */
  candidates: number[];
  /** Number of the failed batch's check pull request (bisection events' batch_pull_request). */
  checkPullRequest: number | null;
  /** The failure was a timeout (culprits then leave with CHECKS_TIMEOUT). */
  timedOut: boolean;
  /** Root only: splits done so far (batch_max_failure_resolution_attempts). */
  attempts: number;
  startedAt: EpochMs;
  /** Who its members were when it started, so batch_bisection_end names all of them even after some left. */
  memberRefs: PullRef[];
  /** Culprits found inside this range, for batch_bisection_end. */
  confirmedCulprits: number[];
  droppedUnverified: number[];
}

/** One train: a base branch (and partition). */
export interface Train {
  branch: string;
  partition: string;
  batches: Batch[];
  /** Queued pull requests not in a batch (order is computed, see order.ts). */
  waiting: number[];
  bisections: Bisection[];
  /**
   * The next batch while it waits to fill (status `waiting_for_batch`): its members so far, its
   * size and when it starts anyway (batch_max_wait_time); null when no batch is filling.
   */
  forming: { members: number[]; size: number; startsAt: EpochMs } | null;
}

/** The base branch as the engine knows it. */
export interface BaseState {
  sha: string;
  /**
   * Recent moves of the base, oldest first: the first entry starts the chain (the SHA first seen,
   * or an external move); each later one is a queue merge with the pull requests it merged. A push
   * reporting one of these SHAs is expected; the chain tells whether a check's tree is exactly
   * the base plus the pull requests being merged.
   */
  history: { sha: string; mergedPulls: number[] }[];
  /** Batch whose merge is in flight on this branch (one at a time). */
  mergingBatchId: string | null;
  /** A move reported while a merge was in flight, judged when the merge result arrives. */
  pendingMoveSha: string | null;
  /** The branch was deleted: its pull requests leave (BASE_BRANCH_MISSING) once no merge is in flight. Absent = false. */
  deleted?: boolean;
}

/** The queue is paused since `pausedAt` (epoch ms) for `reason`. */
export interface PauseState {
  reason: string;
  pausedAt: EpochMs;
}

/** The whole state of one repository. */
export interface EngineState {
  schema: 1;
  repository: string;
  config: EngineConfig;
  pause: PauseState | null;
  counters: { batch: number; session: number; check: number; pull: number };
  /** Queued pull requests by number (decimal string keys). */
  pulls: Record<string, PullEntry>;
  trains: Train[];
  bases: Record<string, BaseState>;
  /** Timers the runner was asked to schedule: key -> due time. */
  timers: Record<string, EpochMs>;
  /** Durations (ms) of recent concluded checks, oldest first, at most 50 (estimates, "auto" timeout). */
  ciDurations: number[];
  /** Running checks per "branch\u001fqueue rule" (unit separator: JSONB refuses \u0000), as last reported by action.queue.checks.change. */
  runningChecks: Record<string, number>;
}

/** A new, empty state for `repository` ("owner/name"). */
export function emptyState(repository: string, config: EngineConfig = emptyEngineConfig()): EngineState {
  return {
    schema: 1,
    repository,
    config,
    pause: null,
    counters: { batch: 0, session: 0, check: 0, pull: 0 },
    pulls: {},
    trains: [],
    bases: {},
    timers: {},
    ciDurations: [],
    runningChecks: {},
  };
}
