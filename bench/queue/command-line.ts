/**
 * The command line shared by `npm run bench:queue` and `npm run bench:queue:tests`
 * (docs/benchmarks.md "Rules and targets"): `--pull-requests N` (each held-out seed, default
 * 20,000), `--choosing-pull-requests N` (each choosing seed, default 1,500), `--seeds S` and
 * `--seed FIRST` (seeds FIRST.. choose, the next S judge), `--workers W` (worker threads, default 2
 * or fewer cores), `--quick` (the small scan).
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { splitSeeds } from "./held-out.js";

/** The window a held-out seed's default is observed on: another draw of the same traffic (the weeks before). */
export const WINDOW_SEED_OFFSET = 1000;

/** A figure with `digits` decimals, or "-" when it is not finite (no merge, an unstable run). */
export const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** The parsed command line: the seed split, the worker count and whether the scan is the small one. */
export function queueBenchCommandLine() {
  const { values } = parseArgs({
    options: {
      "pull-requests": { type: "string", default: "20000" },
      "choosing-pull-requests": { type: "string", default: "1500" },
      seeds: { type: "string", default: "3" },
      seed: { type: "string", default: "1" },
      workers: { type: "string", default: String(Math.min(2, availableParallelism())) },
      quick: { type: "boolean", default: false },
    },
  });
  const split = splitSeeds(
    Number(values.seed),
    Number(values.seeds),
    Number(values["choosing-pull-requests"]),
    Number(values["pull-requests"]),
  );
  return { split, workers: Number(values.workers), quick: values.quick };
}
