/**
 * What every part of the queue runner shares: its dependencies with the defaults filled in
 * (docs/merge-queue.md "Runner"). The clock is the injected one everywhere: the runner never reads
 * the wall clock itself, so its tests drive time instead of sleeping.
 */
import type { Logger } from "pino";
import type { ForgePort } from "../forge/index.js";
import type { Pool } from "../store/index.js";
import type { EngineEventInput } from "../engine/index.js";
import type { QueueFigures } from "../metrics/index.js";
import { SET_ASIDE_AFTER } from "./input-failures.js";
import { SOLE_REPLICA, type RepositoryOwnership } from "./replicas/ownership.js";
import { LabelEchoes } from "./label-echoes.js";
import { ConfigProofs } from "./config-proofs.js";
import { TrafficTuning, type TrafficReader } from "./traffic-tuning.js";
import type { TestResultsReader } from "./test-facts.js";
import type { FlakyTestFilesReader } from "./risk-signals.js";

/**
 * What the queue runner needs: the PostgreSQL pool (state, inbox, effects, timers, outbox), the
 * forge port and a logger.
 */
export interface RunnerDeps {
  db: Pool;
  forge: ForgePort;
  logger: Logger;
  /** Called after a commit that wrote log events (kicks the outbox relay). */
  eventsWritten: () => void;
  /** Clock, epoch ms UTC (default `Date.now`); every time the runner reads comes from it. */
  now?: () => number;
  /** Polling interval of the sweep and the timers, ms (default 500). */
  intervalMs?: number;
  /**
   * Backoff after a repository's processing fails for a reason retrying soon will not fix (a
   * repository the forge does not know), ms: `first`, doubling per consecutive failure up to
   * `max` (default 5 s to 5 min). docs/merge-queue.md "Runner", item 7.
   */
  failureBackoffMs?: { first: number; max: number };
  /**
   * Longest time rounds hold a repository's lock before letting a waiting API request in, ms
   * (default 1000; docs/merge-queue.md "Runner", item 6).
   */
  lockHoldMs?: number;
  /**
   * When an inbox input that fails every round it is applied in is set aside: consecutive failures
   * and ms since the first (default 5 and 10 min; docs/merge-queue.md "Runner", item 8).
   */
  setAsideAfter?: { failures: number; ms: number };
  /**
   * Reads a repository's traffic from its activity log for the self-tuning default
   * (docs/self-tuning.md); without it self-tuned rules keep their static defaults.
   */
  readTraffic?: TrafficReader;
  /** Told the queue's figures after each committed round that applied something (round-figures.ts; metrics). */
  observeRound?: (figures: QueueFigures) => void;
  /**
   * Reads CI Insights' facts about a failed check (docs/merge-queue.md "Verdicts from test
   * results"); without it the queue is blind to tests: a failed check fails.
   */
  testResults?: TestResultsReader;
  /**
   * Reads the files of the tests known flaky on a base branch, for the `flakyTestsTouched` risk
   * signal of a pull request entering a rule with `risk_aware_batching` (docs/merge-queue.md
   * "Risk-aware batching"); without it the signal is 0.
   */
  flakyTests?: FlakyTestFilesReader;
  /**
   * Which repositories this process works, among several replicas (replicas/membership.ts;
   * docs/deployment.md "Several replicas"); default: every one.
   */
  ownership?: RepositoryOwnership;
  /**
   * Interval of reconciliation's passes, ms (reconciliation.ts; docs/github.md "Reconciliation");
   * absent or 0: no periodic pass (`QueueRunner.reconcile` still runs one).
   */
  reconcileIntervalMs?: number;
  /**
   * The platform's own recovery, run before each periodic reconciliation pass by the one process
   * that reconciles (GitHub: failed webhook deliveries redelivered); its failure is logged.
   */
  redeliver?: () => Promise<unknown>;
}

/** A synchronous request from the API, applied under the repository's lock. */
export type RunnerRequest =
  | { kind: "engine"; event: EngineEventInput }
  | { kind: "enqueue"; number: number; queueRule: string | null; trigger: string };

/** The runner's dependencies with every default filled in, and its logger. */
export interface RunnerContext {
  db: Pool;
  forge: ForgePort;
  log: Logger;
  eventsWritten: () => void;
  /** Epoch ms UTC. */
  now: () => number;
  intervalMs: number;
  failureBackoffMs: { first: number; max: number };
  lockHoldMs: number;
  setAsideAfter: { failures: number; ms: number };
  /** The observed traffic per repository; null without a reader. */
  tuning: TrafficTuning | null;
  observeRound?: (figures: QueueFigures) => void;
  testResults: TestResultsReader | null;
  flakyTests: FlakyTestFilesReader | null;
  ownership: RepositoryOwnership;
  /** The queue's own status-label changes, whose events are not read (label-echoes.ts). */
  labelEchoes: LabelEchoes;
  /** The configurations carried over pushes proven not to change them (config-proofs.ts). */
  configProofs: ConfigProofs;
}

/** Longest time a sweep holds a repository's lock before letting a waiting request in, ms. */
const DEFAULT_LOCK_HOLD_MS = 1000;

/** Fills the defaults of `deps` (see {@link RunnerDeps}). */
export function runnerContext(deps: RunnerDeps): RunnerContext {
  const log = deps.logger.child({ component: "queue-runner" });
  const now = deps.now ?? Date.now;
  return {
    db: deps.db,
    forge: deps.forge,
    log,
    eventsWritten: deps.eventsWritten,
    now,
    intervalMs: deps.intervalMs ?? 500,
    failureBackoffMs: deps.failureBackoffMs ?? { first: 5000, max: 300_000 },
    lockHoldMs: deps.lockHoldMs ?? DEFAULT_LOCK_HOLD_MS,
    setAsideAfter: deps.setAsideAfter ?? SET_ASIDE_AFTER,
    tuning: deps.readTraffic ? new TrafficTuning(deps.readTraffic, now, log) : null,
    observeRound: deps.observeRound,
    testResults: deps.testResults ?? null,
    flakyTests: deps.flakyTests ?? null,
    ownership: deps.ownership ?? SOLE_REPLICA,
    labelEchoes: new LabelEchoes(now),
    configProofs: new ConfigProofs(),
  };
}
