/**
 * The benchmark's verdicts (docs/benchmarks.md "Rules and targets"): the self-tuned default is
 * within 10% of the best configuration measured on each axis. A rate's latency/cost target is
 * judged on the configuration picked on other seeds (held-out.ts).
 */
import type { PointFigures } from "./summary.js";

/** A rate's target: p95 minutes at most `p95`, CI runs per merge at most `runs` (counted whole). */
export interface Target {
  lambda: number;
  p95: number;
  runs: number;
}

/** A measured configuration with its pooled figures. */
export interface Measured {
  name: string;
  figures: PointFigures;
}

const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const sound = (f: PointFigures) => !f.unstable && f.goodDequeued === 0 && f.untestedMerges === 0;

/** "p95 61.2 min, 0.812 runs (0.750 D)". */
export function figure(f: PointFigures): string {
  return `p95 ${fmt(f.p95Minutes)} min, ${fmt(f.runsPerMerge, 3)} runs (${fmt(f.ciDPerMerge, 3)} D)`;
}

/**
 * The self-tuned default against the configurations measured at the same rate: its p95 at most 10%
 * above the best p95 of the configurations within the target's runs, and its runs per merge at
 * most 10% above the fewest of the configurations within the target's p95 (on an axis where no
 * configuration meets the other bound, against every configuration no worse than the default on
 * that other axis: the frontier). An unstable default, or one that sends a good pull request back, fails.
 */
export function defaultVerdict(t: Target, def: PointFigures, configs: Measured[]): { ok: boolean; line: string } {
  const all = [...configs.map((c) => c.figures), def].filter(sound);
  const underRuns = all.filter((f) => f.runsPerMerge <= t.runs);
  const underP95 = all.filter((f) => f.p95Minutes <= t.p95);
  const p95Pool = underRuns.length > 0 ? underRuns : all.filter((f) => f.runsPerMerge <= def.runsPerMerge);
  const runsPool = underP95.length > 0 ? underP95 : all.filter((f) => f.p95Minutes <= def.p95Minutes);
  const bestP95 = Math.min(...p95Pool.map((f) => f.p95Minutes));
  const bestRuns = Math.min(...runsPool.map((f) => f.runsPerMerge));
  const ok = sound(def) && def.p95Minutes <= 1.1 * bestP95 && def.runsPerMerge <= 1.1 * bestRuns;
  const line = `${ok ? "PASS" : "FAIL"}  λ=${t.lambda}/h self-tuned default (estimated) within 10% of the best measured on each axis (${figure(def)}; best p95 ${fmt(bestP95)} min, fewest runs ${fmt(bestRuns, 3)})`;
  return { ok, line };
}
