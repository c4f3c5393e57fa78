/**
 * Choosing on some seeds, judging on others (docs/benchmarks.md "Rules and targets"): the
 * configurations of a scan are measured on the choosing seeds (1-3) at a reduced size; for each
 * target the rule below picks one configuration, and only that configuration's figures on the
 * held-out seeds (4-6, full size) decide PASS or FAIL (`admissible`: what may pass at all). The self-tuned default is compared with the
 * configurations picked, on the held-out seeds, for its 10% rule. Nothing here knows the workload:
 * a point is a name and pooled figures.
 */
import type { PointFigures } from "./summary.js";
import type { Measured, Target } from "./verdicts.js";

/** The seeds of the two stages and the pull requests per run of each. */
export interface SeedSplit {
  choosing: number[];
  heldOut: number[];
  choosingPullRequests: number;
  heldOutPullRequests: number;
}

/** `count` choosing seeds from `first`, then as many held-out seeds after them (1-3 and 4-6 by default). */
export function splitSeeds(
  first: number,
  count: number,
  choosingPullRequests: number,
  heldOutPullRequests: number,
): SeedSplit {
  const seq = (from: number) => Array.from({ length: count }, (_, i) => from + i);
  return { choosing: seq(first), heldOut: seq(first + count), choosingPullRequests, heldOutPullRequests };
}

/** Whether a point can meet a target at all. */
export type Soundness = (f: PointFigures) => boolean;

/**
 * The merge queue workload's rule (docs/benchmarks.md "Rules and targets"): stable, no good pull
 * request sent back, no untested merge. The tests workload counts good pull requests sent back
 * in a target of its own and passes {@link stableAndTested}.
 */
export const sound: Soundness = (f) => !f.unstable && f.goodDequeued === 0 && f.untestedMerges === 0;
/** Stable and no untested merge. */
export const stableAndTested: Soundness = (f) => !f.unstable && f.untestedMerges === 0;

/**
 * How far a point is from a target: the larger of p95 / bound and runs per merge / bound (at most 1:
 * the target is met). Infinity for a point that `ok` rules out.
 */
export function closeness(f: PointFigures, t: Target, ok: Soundness = sound): number {
  if (!ok(f)) return Number.POSITIVE_INFINITY;
  return Math.max(f.p95Minutes / t.p95, f.runsPerMerge / t.runs);
}

/**
 * The configuration a target is judged on, chosen from the choosing stage: the one with the
 * smallest {@link closeness} (the most margin when several meet the target, the nearest when none
 * does; ties: lower p95). Null when no point is sound.
 */
export function pickForTarget(t: Target, scan: Measured[], ok: Soundness = sound): Measured | null {
  const c = (m: Measured) => closeness(m.figures, t, ok);
  const best = [...scan].sort((a, b) => c(a) - c(b) || a.figures.p95Minutes - b.figures.p95Minutes)[0];
  return best && Number.isFinite(c(best)) ? best : null;
}

/**
 * The configurations the default is compared with (its 10% rule, verdicts.ts `defaultVerdict`),
 * chosen from the choosing stage: the lowest p95 within the target's runs bound (none within it:
 * the fewest runs) and the fewest runs within its p95 bound (none within it: the lowest p95).
 * Sound points only; each may be null when no point is sound.
 */
export function referencePicks(
  t: Target,
  scan: Measured[],
): { lowestP95: Measured | null; fewestRuns: Measured | null } {
  const ok = scan.filter((m) => sound(m.figures));
  const min = (xs: Measured[], key: (f: PointFigures) => number) =>
    xs.reduce<Measured | null>((a, m) => (a === null || key(m.figures) < key(a.figures) ? m : a), null);
  const cheap = ok.filter((m) => m.figures.runsPerMerge <= t.runs);
  const fast = ok.filter((m) => m.figures.p95Minutes <= t.p95);
  return {
    lowestP95: cheap.length > 0 ? min(cheap, (f) => f.p95Minutes) : min(ok, (f) => f.runsPerMerge),
    fewestRuns: fast.length > 0 ? min(fast, (f) => f.runsPerMerge) : min(ok, (f) => f.p95Minutes),
  };
}

/** The names of every configuration to measure on the held-out seeds: the target's pick and the references, once each. */
export function heldOutNames(t: Target, scan: Measured[]): string[] {
  const refs = referencePicks(t, scan);
  const names = [pickForTarget(t, scan), refs.lowestP95, refs.fewestRuns].flatMap((m) => (m ? [m.name] : []));
  return [...new Set(names)];
}

const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** "p95 ×1.08 of its bound, runs ×0.97" (how close a point is, axis by axis). */
export function howClose(f: PointFigures, t: Target): string {
  const state = f.unstable ? "unstable, " : f.goodDequeued > 0 ? `${f.goodDequeued} good sent back, ` : "";
  return `${state}p95 ×${fmt(f.p95Minutes / t.p95, 2)} of its bound, runs ×${fmt(f.runsPerMerge / t.runs, 2)}`;
}

/**
 * The verdict of a target on the held-out seeds: PASS when the configuration picked on the
 * choosing seeds meets it there. `chosen` are its choosing-stage figures, `judged` its held-out
 * ones (null: nothing sound to pick); `admissible` says what may pass at all. The line names both
 * stages and how close the held-out figures are.
 */
export function heldOutVerdict(
  t: Target,
  head: string,
  name: string | null,
  chosen: PointFigures | null,
  judged: PointFigures | null,
  admissible: Soundness = sound,
): { ok: boolean; line: string } {
  if (name === null || chosen === null || judged === null)
    return { ok: false, line: `FAIL  ${head} (no sound configuration in the scan)` };
  const ok = closeness(judged, t, admissible) <= 1;
  const line = `${ok ? "PASS" : "FAIL"}  ${head}: ${name}, held out p95 ${fmt(judged.p95Minutes)} min at ${fmt(judged.runsPerMerge, 3)} runs (${howClose(judged, t)}; chosen at p95 ${fmt(chosen.p95Minutes)}, ${fmt(chosen.runsPerMerge, 3)} runs)`;
  return { ok, line };
}
