/**
 * The engine state of one repository: plain JSON data (stored as JSONB), times as epoch
 * milliseconds UTC. One train per (base branch, partition); a train is an ordered list of batches
 * being checked plus the pull requests waiting for a batch. Vocabulary: docs/domain.md
 * "Glossary"; rules: the header of engine.ts.
 */
import type { EpochMs, QueueCheck, CheckEnding, HoldKind, Batch, Bisection } from "./batch-state.js";
import { emptyEngineConfig, type EngineConfig } from "./config.js";
import type { RiskSignals } from "./risk.js";

export type {
  EpochMs,
  QueueCheck,
  CheckEnding,
  HoldKind,
  PullRef,
  CheckAttempt,
  Batch,
  Bisection,
} from "./batch-state.js";

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
  /**
   * Why merge protections hold it (docs/merge-protections.md "The queue"): it is not embarked
   * while set. Absent or null = not held.
   */
  protectionsHold?: string | null;
  /**
   * Its own signals of failure risk when it entered (risk.ts; `risk_aware_batching` checks a risky
   * one alone). Absent or null = none known (absent in states saved before it existed).
   */
  risk?: RiskSignals | null;
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
  /**
   * Sequence numbers of ids and names. `batch` numbers batch ids, sub-batches included; `named`
   * numbers the top-level batches' names (`Batch <n>`), so names do not skip the numbers of
   * sub-batches (docs/merge-queue.md "Identifiers and names"). `named` is absent in states saved
   * before it existed: it then continues from `batch`.
   */
  counters: { batch: number; session: number; check: number; pull: number; named?: number };
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
    counters: { batch: 0, session: 0, check: 0, pull: 0, named: 0 },
    pulls: {},
    trains: [],
    bases: {},
    timers: {},
    ciDurations: [],
    runningChecks: {},
  };
}
