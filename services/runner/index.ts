/** Public surface of the queue runner (the I/O half of the merge queue). */
export {
  createQueueRunner,
  type QueueRunner,
  type ReconcileReport,
  type RunnerDeps,
  type RunnerRequest,
} from "./runner.js";
export { ProtectionCache } from "./protection-cache.js";
export {
  DEFAULT_CONFIGURATION_TEXT,
  repositoryConfig,
  storedRepositoryConfig,
  engineConfigurationInput,
  type RepositoryConfig,
} from "./repository-config.js";
export { parseCommand, COMMAND_PREFIX } from "./commands.js";
export { SUMMARY_CHECK_NAME } from "./effect-executor.js";
export type { EnqueueResult } from "./ingress.js";
export type { RunnerInput } from "./inputs.js";
export { FREEZE_START_TIMER_PREFIX } from "./freeze-input.js";
export { retuned, TrafficTuning, TUNING_REFRESH_MS, TUNING_WINDOW_MS, type TrafficReader } from "./traffic-tuning.js";
export type { TestResultsReader } from "./test-facts.js";
export type { FlakyTestFilesReader } from "./risk-signals.js";
export { ReplicaMembership, type MembershipDeps } from "./replicas/membership.js";
export { SOLE_REPLICA, type RepositoryOwnership } from "./replicas/ownership.js";
export { ownerOf } from "./replicas/rendezvous.js";
