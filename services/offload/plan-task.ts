/**
 * A rule action's templates rendered as a task for a worker thread (docs/workflow-automation.md
 * "Templates", "Bounds"): a template is the repository's code, bounded in steps and characters
 * by the renderer, and in time by the thread's limit, so that no template holds the server's
 * event loop or the runner.
 */
import { planAction, type PlannedAction, type PullRequestSnapshot, type TemplateVariables } from "../config/index.js";

/** What crosses to the thread (structured clone: plain data and dates). */
export interface PlanTask {
  action: string;
  options: Record<string, unknown> | null;
  pull: PullRequestSnapshot;
  /** The action's own variables (post_check's `check_status`...). */
  extra: TemplateVariables;
}

/** Renders the action's templated options (config's planAction). */
export function planRuleAction(task: PlanTask): PlannedAction {
  return planAction(task.action, task.options, task.pull, task.extra);
}
