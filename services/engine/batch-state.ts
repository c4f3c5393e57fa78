/**
 * The state of a batch and its check attempts (part of the engine state, engine/state.ts): plain
 * JSON data stored as JSONB, times as epoch milliseconds UTC. Vocabulary: docs/domain.md
 * "Glossary".
 */
import type { CheckState } from "../config/index.js";

/** Epoch milliseconds, UTC. */
export type EpochMs = number;

/** One check (check run or commit status) as the queue saw it (events.proto QueueCheck). */
export interface QueueCheck {
  name: string;
  description: string;
  url: string | null;
  state: CheckState;
  avatar_url: string | null;
}

/** How a check attempt ended for a pull request (its checks_end): passed, failed, timed out, or stopped (aborted). */
export type CheckEnding = "passed" | "failed" | "timed_out" | "stopped";

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
  /**
   * Its merge conditions were false and its test results had not all arrived: the wait ends at
   * `until`, and the runner evaluates it again at `nextLookAt` (epoch ms; docs/merge-queue.md
   * "Verdicts from test results"). Absent or null = not waiting.
   */
  testsAwait?: { since: EpochMs; until: EpochMs; nextLookAt: EpochMs } | null;
  /**
   * Its failed jobs were run again because every failing test is known flaky (`known flaky
   * tests`): when, which jobs and tests, and when each failed job's run ended as the forge reported
   * it (`replacedEndedAt`, by job; absent for a job the forge gave no end time, or in state stored
   * before it was kept). A result of a job that ended no later than its replaced run (or, without
   * that time, before `requestedAt`) is the run before: the round's clock is read before the forge,
   * so the failed run may end after `requestedAt`. Absent or null = not re-run.
   */
  rerun?: { requestedAt: EpochMs; jobs: string[]; tests: string[]; replacedEndedAt?: Record<string, EpochMs> } | null;
  /** Quarantined failing tests ignored to pass it (checks_end `ignored_failing_tests`). Absent = none. */
  ignoredTests?: string[];
  /** What its test results decided, for checks_end `test_results_note`. Absent or null = nothing. */
  testNote?: string | null;
  /**
   * It failed again after its re-run for known flaky tests, and again only on quarantined or known
   * flaky tests: their names (no test of its failure points to a pull request; docs/merge-queue.md
   * "Verdicts from test results", the re-test). Absent or null = not so.
   */
  flakyOnly?: string[] | null;
  /** The member its failing tests point to, when it failed (suspect-first bisection). Absent or null = none. */
  suspect?: { number: number; reason: "failed_in_own_ci" | "touches_test_file" } | null;
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
  /**
   * Attempts checked again from scratch because the last one failed twice on known flaky tests
   * only (docs/merge-queue.md "Verdicts from test results"; at most 1). Absent = 0.
   */
  flakyRetests?: number;
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
  /**
   * How the split was chosen (batch_bisection_start `split_strategy`): halving into cumulative
   * prefixes, or the suspect alone and the rest together. Absent = halving.
   */
  split?: { strategy: "halving" | "suspect_first"; suspect: number | null; reason: string | null };
  /** Culprits found inside this range, for batch_bisection_end. */
  confirmedCulprits: number[];
  droppedUnverified: number[];
  /**
   * The checks of the failed batch's check as they concluded (the status view shows them on the
   * bisecting batch). Absent in states saved before it existed.
   */
  failedChecks?: QueueCheck[];
}
