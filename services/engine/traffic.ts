/**
 * The observed traffic of a repository, as the self-tuning default reads it (docs/self-tuning.md):
 * what the configuration (config.ts) records its tuned settings came from and what the choice
 * (tuning.ts) takes. Plain data.
 */
/** Observed traffic of a repository (docs/self-tuning.md "What is measured"). */
export interface ObservedTraffic {
  /** λ: pull requests queued per hour. */
  arrivalsPerHour: number;
  /** D: typical (median) CI duration of a check, seconds. */
  ciSeconds: number;
  /** p: share of resolved pull requests that failed their checks (0-1). */
  failureRate: number;
  /**
   * When it was measured (the end of the window read), ms since the epoch (UTC); absent for
   * traffic that was not read from an activity log (simulations, benchmarks).
   */
  measuredAt?: number;
}
