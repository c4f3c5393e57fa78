/**
 * What `npm run bench:queue` measures at each arrival rate (docs/benchmarks.md "The merge queue"):
 * the anchors (simpler queues), a scan of Yardmaster configurations (the frontier the targets and
 * the self-tuning default are judged against), and the untuned default (settings chosen by the
 * engine from the rate, D and p alone).
 */
import { tunedQueueSettings, type QueueKnobs } from "../../services/engine/index.js";
import { BREAK_PROBABILITY, D_MINUTES } from "./runs.js";

/** One queue measured at one rate. */
export interface Point {
  name: string;
  /** anchor: a simpler queue; scan: a configured Yardmaster; default: the untuned (self-tuned) default. */
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

/** The configurations scanned per rate: batch size {min, max}, wait (min), parallel checks. */
const SCAN: Record<number, [number, number, number, number][]> = {
  8: [
    [2, 2, 5, 10],
    [2, 3, 5, 10],
    [2, 4, 10, 6],
    [3, 4, 15, 6],
  ],
  16: [
    [2, 4, 5, 10],
    [2, 3, 10, 6],
    [3, 4, 10, 6],
    [4, 6, 10, 4],
  ],
};

const label = (k: QueueKnobs) =>
  `{${k.batchSize.min},${k.batchSize.max}} ${k.batchMaxWaitSeconds / 60}m ×${k.maxParallelChecks}`;

/** Every point measured at `lambda` (per hour): anchors, scan, then the untuned default. */
export function pointsAt(lambda: number, quick = false): Point[] {
  const scan = (SCAN[lambda] ?? SCAN[8]!).slice(0, quick ? 2 : undefined).map(([a, b, w, k]) => {
    const kn = knobs(a, b, w, k);
    return { name: `yardmaster ${label(kn)}`, role: "scan" as const, knobs: kn };
  });
  const tuned = tunedQueueSettings({
    arrivalsPerHour: lambda,
    ciSeconds: D_MINUTES * 60,
    failureRate: BREAK_PROBABILITY,
  });
  return [...ANCHORS, ...scan, { name: `untuned default ${label(tuned)}`, role: "default", knobs: tuned }];
}
