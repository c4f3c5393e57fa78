/**
 * The benchmark's runs spread over worker threads (the seeds and queues are independent): each job
 * is one open-loop run of the real engine (runs.ts), reduced to a {@link RunSummary}. With one
 * worker, or when the compiled worker is not there (running the TypeScript source with tsx), the
 * jobs run in this thread.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { QueueKnobs } from "../../services/engine/index.js";
import { LatencyTagger } from "./latency-breakdown.js";
import { openLoop } from "./runs.js";
import { summarize, type RunSummary } from "./summary.js";

/** One run: `knobs` at `lambda` per hour, `pullRequests` arrivals, `seed`; `tag` keeps latency classes. */
export interface Job {
  knobs: QueueKnobs;
  lambda: number;
  pullRequests: number;
  seed: number;
  tag: boolean;
}

/** Runs one job in this thread. */
export function runJob(job: Job): RunSummary {
  const tagger = job.tag ? new LatencyTagger() : null;
  const report = openLoop(job.knobs, job.lambda, job.pullRequests, job.seed, tagger?.observe);
  return summarize(report, tagger ? (n) => tagger.classOf(n) : undefined);
}

/** Runs the jobs on `workers` threads (longest first would need sizes; they go in order); results in job order. */
export function runJobs(jobs: Job[], workers: number): Promise<RunSummary[]> {
  return runOnWorkers(jobs, workers, new URL("./worker.js", import.meta.url), runJob);
}

/**
 * Runs `jobs` on `workers` threads of `script` (a worker answering `{id, summary}` to each job
 * posted with its `id`), or in this thread with `inline` when one worker is asked or the script
 * is not built; results in job order.
 */
export async function runOnWorkers<J extends object, R>(
  jobs: J[],
  workers: number,
  script: URL,
  inline: (job: J) => R,
): Promise<R[]> {
  const path = fileURLToPath(script);
  if (workers <= 1 || !existsSync(path)) return jobs.map(inline);
  const results: R[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const threads = Array.from({ length: Math.min(workers, jobs.length) }, () => new Worker(path));
  await Promise.all(
    threads.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          const send = () => {
            if (next >= jobs.length) {
              void w.terminate().then(() => resolve());
              return;
            }
            const id = next++;
            w.postMessage({ ...jobs[id], id });
          };
          w.on("message", (m: { id: number; summary: R }) => {
            results[m.id] = m.summary;
            process.stderr.write(`  run ${++done}/${jobs.length} done\r`);
            send();
          });
          w.on("error", reject);
          send();
        }),
    ),
  );
  return results;
}
