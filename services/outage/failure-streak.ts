/**
 * Consecutive failures of a loop that runs every second or so (the queue runner's sweep, the
 * outbox relay): during an outage it fails at every turn, and a log line per turn would bury the
 * one that matters. The first failure is logged, then the 2nd, 4th, 8th, ...; the first success
 * after failures is logged once with their number (the same rule as the runner's repository
 * failures, docs/merge-queue.md "Runner", item 7).
 */

/** A count of consecutive failures and whether the latest deserves a log line. */
export class FailureStreak {
  private count = 0;

  /** Records a failure; returns its number in the streak and whether to log it (1, 2, 4, 8, ...). */
  fail(): { count: number; log: boolean } {
    this.count++;
    return { count: this.count, log: (this.count & (this.count - 1)) === 0 };
  }

  /** Records a success; returns how many failures it ends (0 when there were none). */
  succeed(): number {
    const ended = this.count;
    this.count = 0;
    return ended;
  }

  /** Failures in a row so far. */
  get failures(): number {
    return this.count;
  }
}
