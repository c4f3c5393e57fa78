/**
 * The worker threads' entry: piscina calls the export named by each task (worker-pool.ts) with the
 * task's envelope (task.ts), off the server's event loop; the result goes back by structured clone.
 */
import { parseJsonBody as parseJson } from "./json-body.js";
import { runLoadTask } from "./load-task.js";
import { planRuleAction } from "./plan-task.js";
import { simulatePullRequest as simulate } from "./simulation-task.js";
import { taskFunction } from "./task.js";
import { readTestReport } from "./test-report-task.js";
import { matchLogPattern } from "./log-pattern-task.js";
import { inflateGzip } from "./inflate-task.js";
import { trafficTask } from "./traffic-task.js";

/** Loads a configuration text (load-task.ts). */
export const loadConfiguration = taskFunction(runLoadTask);
/** Parses a REST JSON body (json-body.ts). */
export const parseJsonBody = taskFunction(parseJson);
/** Simulates a pull request (simulation-task.ts). */
export const simulatePullRequest = taskFunction(simulate);
/** Simulates recorded traffic under a configuration (traffic-task.ts). */
export const simulateTraffic = taskFunction(trafficTask);
/** Reads an uploaded test report into rows (test-report-task.ts). */
export const testReport = taskFunction(readTestReport);
/** Searches a retry rule's log pattern in a job's log (log-pattern-task.ts). */
export const logPattern = taskFunction(matchLogPattern);
/** Inflates a gzip request body (inflate-task.ts). */
export const inflate = taskFunction(inflateGzip);
/** Renders a rule action's templates (plan-task.ts). */
export const planAction = taskFunction(planRuleAction);
