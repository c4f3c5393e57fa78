/**
 * A pull request simulation as a task for a worker thread: the rules' conditions hold regular
 * expressions written by the caller (`title~=…`), which the engine's backtracking matcher can take
 * exponential time on (`^(a+)+$` against 30 a's and a "!"): run in a thread, such a simulation
 * stops at the pool's time limit instead of holding the server's event loop.
 */
import {
  plannedActionsMarkdown,
  simulatePullRequestSummary,
  type PullRequestSnapshot,
  type Configuration,
  type EvaluationContext,
  type SimulationSummary,
} from "../config/index.js";

/** What crosses to the thread (structured clone: plain data and dates). */
export interface SimulationTask {
  config: Configuration;
  context: EvaluationContext;
  /** The pull request itself: its planned actions are listed with their templates rendered. */
  pull?: PullRequestSnapshot;
}

/** Runs the simulation of one pull request (simulatePullRequestSummary). */
export function simulatePullRequest(task: SimulationTask): SimulationSummary {
  const summary = simulatePullRequestSummary(task.config, task.context);
  if (task.pull === undefined) return summary;
  return { ...summary, summary: summary.summary + plannedActionsMarkdown(task.config, task.pull, task.context.now) };
}
