/**
 * Worker thread of `npm run bench:queue:tests`: runs the jobs it is sent (one mode, one rate, one
 * seed) and answers each with its figures. Started by tests-workload.ts.
 */
import { parentPort } from "node:worker_threads";
import { runTestsJob, type TestsJob } from "./tests-workload.js";

parentPort?.on("message", (job: TestsJob & { id: number }) => {
  parentPort!.postMessage({ id: job.id, summary: runTestsJob(job) });
});
