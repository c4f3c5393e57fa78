/**
 * The local forge's CI runner: `.yardmaster/ci.yml` parsing and running a commit's checks in
 * temporary work trees, bounded by shared CI slots. Guide: docs/local-forge.md "CI runner".
 */
export {
  CI_CONFIG_PATH,
  CiConfigError,
  parseCiConfig,
  formatPath,
  type CiCheck,
  type CiConfig,
  type CiConfigIssue,
} from "./ci-config.js";
export { CiSlots, SlotWaitAborted } from "./ci-slots.js";
export { OutputTail, DEFAULT_OUTPUT_LIMIT_BYTES } from "./output-tail.js";
export { runCommand, type CommandInput, type CommandOutcome } from "./run-command.js";
export { createWorktree, type Worktree } from "./worktree.js";
export {
  CI_CONFIG_CHECK,
  loadCiConfig,
  runCommitChecks,
  type CheckResult,
  type CheckResultState,
  type CiRunnerDeps,
  type ReportsInput,
  type ReportsVerdict,
  type RunChecksInput,
} from "./run-checks.js";
export { readReportFiles, type ReportFile } from "./report-files.js";
