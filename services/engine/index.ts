/**
 * Public surface of the merge queue engine (services/engine): a pure state machine
 * `apply(state, event, now) -> {state, effects}` and its read views (the simulation in virtual time
 * that drives it: services/simulation/).
 * Rules: engine.ts header and docs/merge-queue.md.
 */
export { apply, createState, type ApplyResult } from "./engine.js";
export {
  emptyState,
  type EngineState,
  type PullEntry,
  type Batch,
  type CheckAttempt,
  type Bisection,
  type Train,
  type BaseState,
  type QueueCheck,
  type EpochMs,
} from "./state.js";
export {
  parseEvent,
  EngineInputError,
  type EngineEvent,
  type EngineEventInput,
  type EngineEventType,
  type EventOf,
  type QueuedPullInput,
} from "./events.js";
export { NotQueuedError } from "./control-events.js";
export type * from "./effects.js";
export { INTERNAL_TRIGGER } from "./effects.js";
export {
  projectConfiguration,
  emptyEngineConfig,
  usesInPlaceChecks,
  DEFAULT_MERGE_QUEUE,
  DEFAULT_PARTITION,
  type ConfigurationInput,
  type EngineConfig,
  type EngineQueueRule,
} from "./config.js";
export { abortStatus, reasonOf } from "./codes.js";
export { deterministicUuid, UUID_PATTERN } from "./ids.js";
export { statusView, branchesWithQueue, pauseView, type StatusView } from "./views/status.js";
export { pullView, type PullView, type MergeabilityCheckView } from "./views/pull.js";
export { dequeueImpact, type DequeueImpact } from "./views/impact.js";
export { queueListing, type QueueListingView, type QueuedPullRequestView } from "./views/listing.js";
export { autoChecksTimeoutMs } from "./outcomes.js";
export type { BatchView, BatchPullRequestView, BatchStatusCode } from "./views/batch-view.js";
export { carriedPulls } from "./merging.js";
export type { EngineEffect, LogEffect } from "./effects.js";
export { SCHEDULE_TIMER_PREFIX } from "./reconcile.js";
export {
  KNOWN_FLAKY_RULE_ID,
  KNOWN_FLAKY_RULE_NAME,
  MAX_LISTED_FAILING_TESTS,
  TEST_RESULTS_TIMER_PREFIX,
  TEST_RESULTS_WAIT_MS,
  type FailingTestFact,
  type TestFacts,
} from "./test-facts.js";
export {
  MIN_CHECKS,
  MIN_RESOLVED,
  observedTraffic,
  tunedConfiguration,
  tunedQueueSettings,
  type QueueKnobs,
  type TrafficCounts,
} from "./tuning.js";
export type { ObservedTraffic } from "./traffic.js";
export { riskReason, RISKY_CHANGED_FILES, RISKY_CHANGED_LINES, type RiskSignals } from "./risk.js";
export type { BatchMetadata, FailedBatchMetadata } from "./batch-metadata.js";
