/**
 * Worker thread of `npm run bench:queue`: runs the jobs it is sent (one queue, one rate, one seed)
 * and answers each with its {@link RunSummary}. Started by parallel.ts.
 */
import { parentPort } from "node:worker_threads";
import { runJob, type Job } from "./parallel.js";

parentPort?.on("message", (job: Job & { id: number }) => {
  parentPort!.postMessage({ id: job.id, summary: runJob(job) });
});
