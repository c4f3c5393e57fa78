/**
 * Pacing of content-creating requests, so that an installation stays under GitHub's secondary rate
 * limit (docs/github.md "Request budget"). GitHub: "no more than 80 content-generating requests
 * per minute and no more than 500 content-generating requests per hour", and "if you are making a
 * large number of POST, PATCH, PUT, or DELETE requests for a single user or client ID, wait at
 * least one second between each request"
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api "About
 * secondary rate limits"; .../best-practices-for-using-the-rest-api "Avoid concurrent requests").
 *
 * Every POST, PATCH, PUT and DELETE, and every GraphQL mutation, of an installation waits for its
 * slot: one at a time, at least `spacingMs` after the previous one, and only while fewer than
 * `perMinute` were sent in the last 60 s and fewer than `perHour` in the last 3,600 s (sliding
 * windows, the strictest reading of GitHub's wording; the fixed-window reservoirs of Bottleneck,
 * which `@octokit/plugin-throttling` uses, could let twice the hourly number through in an hour).
 * Reads are never paced. Time is the adapter's clock; a wait sleeps `ms × secondMs / 1000` of real
 * time, so tests and the benchmark may run GitHub's minute faster than a real one.
 */

/** The limits paced to; each has GitHub's documented value as default. */
export interface ContentLimits {
  /** Least time between two content-creating requests, ms of the clock (GitHub's advice: 1,000). */
  spacingMs: number;
  /** At most this many in any 60 s (GitHub: 80). */
  perMinute: number;
  /** At most this many in any 3,600 s (GitHub: 500). */
  perHour: number;
}

export const GITHUB_CONTENT_LIMITS: ContentLimits = { spacingMs: 1000, perMinute: 80, perHour: 500 };

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Whether a request creates content in GitHub's sense (see the file header). */
export function createsContent(method: string, url: string, body: unknown): boolean {
  const m = method.toUpperCase();
  if (m === "GET" || m === "HEAD" || m === "OPTIONS") return false;
  if (m === "POST" && /\/graphql$/.test(url)) {
    const query = (body as { query?: unknown } | undefined)?.query;
    return typeof query === "string" && /^\s*mutation\b/.test(query);
  }
  return true;
}

/** One installation's pacer (see the file header). */
export class ContentPacer {
  private readonly sent: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  /** How long requests waited for their slot in total, ms of the clock. */
  waitedMs = 0;

  /**
   * @param now the adapter's clock, epoch ms
   * @param sleep waits that many ms of the clock
   */
  constructor(
    private readonly limits: ContentLimits,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** Resolves when the next content-creating request may go; the request counts as sent then. */
  slot(): Promise<void> {
    const mine = this.queue.then(() => this.wait());
    this.queue = mine.catch(() => {});
    return mine;
  }

  /** How long to wait from `t` before one more may go, ms (0: now). */
  delayAt(t: number): number {
    while (this.sent.length > 0 && this.sent[0] <= t - HOUR_MS) this.sent.shift();
    let until = 0;
    const last = this.sent.at(-1);
    if (last !== undefined) until = last + this.limits.spacingMs;
    const inMinute = this.sent.filter((s) => s > t - MINUTE_MS);
    if (inMinute.length >= this.limits.perMinute)
      until = Math.max(until, inMinute[inMinute.length - this.limits.perMinute] + MINUTE_MS);
    if (this.sent.length >= this.limits.perHour)
      until = Math.max(until, this.sent[this.sent.length - this.limits.perHour] + HOUR_MS);
    return Math.max(0, until - t);
  }

  private async wait(): Promise<void> {
    // After a wait the time is at least its end, even on a clock that did not move (a test's).
    let floor = Number.NEGATIVE_INFINITY;
    for (;;) {
      const t = Math.max(this.now(), floor);
      const delay = this.delayAt(t);
      if (delay === 0) {
        this.sent.push(t);
        return;
      }
      this.waitedMs += delay;
      await this.sleep(delay);
      floor = t + delay;
    }
  }
}
