/**
 * The benchmark's verdicts (docs/benchmarks.md "Rules and targets"): the latency/cost
 * target of a rate is met when a measured Yardmaster configuration is stable, merges every good
 * pull request, and has p95 and runs per merge within bounds; the untuned default is within 10%
 * of the best configuration measured on each axis.
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

/** Whether a point meets the target. */
export function meets(f: PointFigures, t: Target): boolean {
  return sound(f) && f.p95Minutes <= t.p95 && f.runsPerMerge <= t.runs;
}

/** PASS when some configuration meets the target; the line names it, or the nearest one on each axis. */
export function targetVerdict(t: Target, configs: Measured[]): { ok: boolean; line: string } {
  const head = `λ=${t.lambda}/h stable, p95 ≤ ${t.p95} min at ≤ ${t.runs} runs per merge`;
  const hit = configs.filter((c) => meets(c.figures, t)).sort((a, b) => a.figures.p95Minutes - b.figures.p95Minutes)[0];
  if (hit) return { ok: true, line: `PASS  ${head} (${hit.name}: ${figure(hit.figures)})` };
  const ok = configs.filter((c) => sound(c.figures));
  const cheapEnough = ok
    .filter((c) => c.figures.runsPerMerge <= t.runs)
    .sort((a, b) => a.figures.p95Minutes - b.figures.p95Minutes)[0];
  const fastEnough = ok
    .filter((c) => c.figures.p95Minutes <= t.p95)
    .sort((a, b) => a.figures.runsPerMerge - b.figures.runsPerMerge)[0];
  const near = [
    cheapEnough
      ? `best p95 at ≤ ${t.runs} runs: ${cheapEnough.name} ${figure(cheapEnough.figures)}`
      : `nothing stable at ≤ ${t.runs} runs`,
    fastEnough
      ? `fewest runs at p95 ≤ ${t.p95}: ${fastEnough.name} ${figure(fastEnough.figures)}`
      : `nothing at p95 ≤ ${t.p95}`,
  ];
  return { ok: false, line: `FAIL  ${head} (${near.join("; ")})` };
}

/** "p95 61.2 min, 0.812 runs (0.750 D)". */
export function figure(f: PointFigures): string {
  return `p95 ${fmt(f.p95Minutes)} min, ${fmt(f.runsPerMerge, 3)} runs (${fmt(f.ciDPerMerge, 3)} D)`;
}

/**
 * The untuned default against the configurations measured at the same rate: its p95 at most 10%
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
