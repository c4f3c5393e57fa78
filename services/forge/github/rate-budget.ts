/**
 * What is left of each installation's primary rate limit, as GitHub's answers report it
 * (`x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset` in epoch seconds,
 * `x-ratelimit-resource`: https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
 * "Checking the status of your rate limit"). Reconciliation reads it to stay within the budget
 * (docs/github.md "Reconciliation"). Only the REST (`core`) resource is kept; GraphQL has its own.
 */

/** The last figures GitHub gave for one installation's REST limit. */
export interface RateFigures {
  limit: number;
  remaining: number;
  /** When the window resets, epoch milliseconds (UTC). */
  resetAt: number;
}

export class RateBudget {
  private readonly byScope = new Map<string, RateFigures>();

  /** Reads the rate-limit headers of one answer (absent or malformed headers are ignored). */
  observe(scope: string, headers: Record<string, unknown> | undefined): void {
    if (!headers) return;
    const resource = headers["x-ratelimit-resource"];
    if (resource !== undefined && resource !== "core") return;
    const limit = Number(headers["x-ratelimit-limit"]);
    const remaining = Number(headers["x-ratelimit-remaining"]);
    const reset = Number(headers["x-ratelimit-reset"]);
    if (![limit, remaining, reset].every(Number.isFinite) || headers["x-ratelimit-limit"] === undefined) return;
    this.byScope.set(scope, { limit, remaining, resetAt: reset * 1000 });
    if (this.byScope.size > 10_000) this.byScope.delete(this.byScope.keys().next().value!);
  }

  /** The last figures of `scope`, or null before any answer. */
  get(scope: string): RateFigures | null {
    return this.byScope.get(scope) ?? null;
  }
}
