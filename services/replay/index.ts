/**
 * `yardmaster replay`: a real repository's history replayed as pull requests through the running
 * service's local forge and merge queue, with a report (docs/replay.md). Public surface.
 */
export { runReplay } from "./run-replay.js";
export type { ServiceConnector } from "./clients.js";
export { parseReplayOptions, type RawReplayOptions, type ReplayOptions } from "./options.js";
export {
  readHistory,
  parseRange,
  parseCommitRecords,
  type History,
  type HistoryCommit,
  type HistoryQuery,
} from "./history.js";
export { planReplay, type ReplayPlan, type ReplayStep, type PullStep, type PushStep } from "./plan.js";
export { replayDelays, autoSpeed, parseSpeed, AUTO_GAP_MS, type Speed } from "./schedule.js";
export {
  summarizeReplay,
  mean,
  percentile,
  REPORT_EVENT_TYPES,
  type ReplayReport,
  type ReportInput,
} from "./report.js";
export { formatReport } from "./report-text.js";
export { ReplayTracker, type PullState, type PushState, type Observation } from "./tracker.js";
export {
  ciFile,
  brokenMarker,
  DEFAULT_REPLAY_CONFIG,
  DEFAULT_CI_COMMAND,
  CI_PATH,
  CONFIG_PATH,
  BROKEN_DIR,
  CHECK_NAME,
} from "./replay-files.js";
export { nextCursor, type LogEvent } from "./log-reader.js";
export { loginOf } from "./driver.js";
export { createWorkspace, type Workspace } from "./workspace.js";
export { ReplayError } from "./errors.js";
export {
  parseFlaky,
  flakyEnding,
  DEFAULT_FLAKY_TESTS,
  DEFAULT_QUARANTINED_TESTS,
  CI_TEST,
  BROKEN_TEST,
  type FlakyTests,
} from "./flaky-tests.js";
export { flakyReport, type FlakyReport } from "./flaky-report.js";
