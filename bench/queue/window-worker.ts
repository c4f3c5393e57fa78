/**
 * Worker thread of the observed windows (observed-default.ts): simulates the windows it is sent
 * and answers each with the events the engine logged. Started through parallel.ts.
 */
import { parentPort } from "node:worker_threads";
import { simulateWindow, type WindowJob } from "./traffic-window.js";

parentPort?.on("message", (job: WindowJob & { id: number }) => {
  parentPort!.postMessage({ id: job.id, summary: simulateWindow(job) });
});
