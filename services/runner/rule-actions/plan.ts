/**
 * A rule action's templates rendered for the runner (docs/workflow-automation.md "Templates",
 * "Bounds"): a template that only prints text and variables renders in place (it costs what its
 * output does); any other in the runner's own worker threads (services/offload), within the
 * render's limits and a time limit, so that no repository's template holds the event loop, the
 * runner or another repository. Over a limit, the action fails with the limit named in its event,
 * nothing of it performed; busy threads fail the round, which is retried within seconds.
 */
import {
  needsBoundedRender,
  planAction,
  type PlannedAction,
  type PullRequestSnapshot,
  type TemplateVariables,
} from "../../config/index.js";
import { planActionBounded, WorkLimitError } from "../../offload/index.js";

/**
 * The action's options with their templates rendered for `pr`, or `error` naming the limit passed.
 * @throws PoolBusyError when the runner's worker threads are busy (transient)
 */
export async function planRuleAction(
  repository: string,
  action: string,
  options: Record<string, unknown> | null,
  pr: PullRequestSnapshot,
  extra: TemplateVariables = {},
): Promise<PlannedAction> {
  if (!needsBoundedRender(action, options)) return planAction(action, options, pr, extra);
  try {
    return await planActionBounded(action, options, pr, extra, repository);
  } catch (e) {
    if (!(e instanceof WorkLimitError)) throw e;
    return { action, options: { ...(options ?? {}) }, error: `rendering the templates ${e.message}` };
  }
}
