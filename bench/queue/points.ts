/**
 * What `npm run bench:queue` measures at each arrival rate (docs/benchmarks.md "The merge queue"):
 * the anchors (simpler queues) and the scan of Yardmaster configurations, a grid that is the same
 * at every rate (the configurations the targets are chosen from on the choosing seeds). The
 * self-tuned default is not here: it is chosen from an observed window of the traffic
 * (observed-default.ts), never from the benchmark's true λ, D and p.
 */
import type { QueueKnobs } from "../../services/engine/index.js";

/** One queue measured at one rate. */
export interface Point {
  name: string;
  /** anchor: a simpler queue; scan: a configured Yardmaster; default: the self-tuned default. */
  role: "anchor" | "scan" | "default";
  knobs: QueueKnobs;
}

const knobs = (min: number, max: number, waitMinutes: number, parallel: number): QueueKnobs => ({
  batchSize: { min, max },
  batchMaxWaitSeconds: waitMinutes * 60,
  maxParallelChecks: parallel,
});

/** The anchors: speculation only (window 10, Zuul), bors-like batches of up to 8 one at a time, serial. */
export const ANCHORS: Point[] = [
  { name: "speculation (window 10)", role: "anchor", knobs: knobs(1, 1, 0, 10) },
  { name: "bors-like (batches of 8)", role: "anchor", knobs: knobs(1, 8, 0, 1) },
  { name: "serial", role: "anchor", knobs: knobs(1, 1, 0, 1) },
];

/** The scan's grid: batch sizes {min, max} × batch_max_wait_time (minutes) × max_parallel_checks (speculative checks). */
export const GRID = {
  batchSizes: [
    [2, 2],
    [2, 3],
    [2, 4],
    [3, 4],
    [4, 6],
  ],
  waitMinutes: [5, 10, 15],
  parallelChecks: [4, 6, 10],
} as const;

/** "{2,4} 10m ×6". */
export const label = (k: QueueKnobs) =>
  `{${k.batchSize.min},${k.batchSize.max}} ${k.batchMaxWaitSeconds / 60}m ×${k.maxParallelChecks}`;

/**
 * The grid's configurations (45), in grid order; `quick` keeps every fifth (9), for trying the
 * harness, not for verdicts.
 */
export function scanPoints(quick = false): Point[] {
  const all = GRID.batchSizes.flatMap(([min, max]) =>
    GRID.waitMinutes.flatMap((w) =>
      GRID.parallelChecks.map((k) => {
        const kn = knobs(min, max, w, k);
        return { name: `yardmaster ${label(kn)}`, role: "scan" as const, knobs: kn };
      }),
    ),
  );
  return quick ? all.filter((_, i) => i % 5 === 0) : all;
}
