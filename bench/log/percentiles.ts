/** Latency sampling for the log benchmark: warm-ups, then timed runs with varied parameters. */

/** Fewest timed runs a p95 is taken from (docs/activity-log.md "Benchmark"): 5% of 200 is the 10 slowest. */
export const MIN_SAMPLES = 200;

/** Latency percentiles of one scenario, in milliseconds; `runs` is the number of samples. */
export interface Latency {
  p50: number;
  p95: number;
  runs: number;
}

/** The p-th percentile (0-100) of sorted samples, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Runs `fn(i)` `warmups` times untimed, then `runs` times timed (milliseconds, wall clock).
 * `fn` receives the run index so each run can use other parameters (ClickHouse's query condition
 * cache would flatter repeated identical filters; docs/activity-log.md "Benchmark").
 */
export async function measure(fn: (i: number) => Promise<unknown>, runs = MIN_SAMPLES, warmups = 3): Promise<Latency> {
  for (let i = 0; i < warmups; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), runs };
}

/** A deterministic pseudo-random sequence in [0, 1) (so a run's parameters are reproducible). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
