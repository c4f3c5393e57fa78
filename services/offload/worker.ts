/**
 * The worker threads' entry: piscina calls the export named by each task (worker-pool.ts) with the
 * task's input, off the server's event loop; the result goes back by structured clone.
 */
export { runLoadTask as loadConfiguration } from "./load-task.js";
export { parseJsonBody } from "../gateway/json-body.js";
export { simulatePullRequest } from "./simulation-task.js";
