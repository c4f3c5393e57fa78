/**
 * The worker threads' entry: piscina calls the export named by each task (worker-pool.ts) with the
 * task's envelope (task.ts), off the server's event loop; the result goes back by structured clone.
 */
import { parseJsonBody as parseJson } from "./json-body.js";
import { runLoadTask } from "./load-task.js";
import { planRuleAction } from "./plan-task.js";
import { simulatePullRequest as simulate } from "./simulation-task.js";
import { taskFunction } from "./task.js";
import { simulateTraffic as replay } from "./traffic-task.js";

/** Loads a configuration text (load-task.ts). */
export const loadConfiguration = taskFunction(runLoadTask);
/** Parses a REST JSON body (json-body.ts). */
export const parseJsonBody = taskFunction(parseJson);
/** Simulates a pull request (simulation-task.ts). */
export const simulatePullRequest = taskFunction(simulate);
/** Replays recorded traffic under a configuration (traffic-task.ts). */
export const simulateTraffic = taskFunction(replay);
/** Renders a rule action's templates (plan-task.ts). */
export const planAction = taskFunction(planRuleAction);
