/**
 * GitHub's request accounting in the test double: the primary rate limit of each installation, the
 * secondary limit on content-creating requests, conditional requests, and a counter of requests per
 * route for the tests and `npm run bench:github`.
 *
 * - Primary limit (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
 *   "Primary rate limit for GitHub App installations"): 5,000 requests an hour per installation, in
 *   a window that starts with the window's first request and resets an hour later. Every answer to
 *   an installation carries `x-ratelimit-limit`, `-remaining`, `-used`, `-reset` (epoch seconds)
 *   and `-resource` (`core`, or `graphql` for the GraphQL API, which has its own limit: "Rate limits
 *   and query limits for the GraphQL API"; the double charges one point per query, GitHub's least).
 *   Past the limit GitHub answers 403 (or 429) with `x-ratelimit-remaining: 0` and "API rate limit
 *   exceeded for installation ID N." ("Exceeding the rate limit").
 * - Secondary limit ("About secondary rate limits"): "no more than 80 content-generating requests
 *   per minute and no more than 500 content-generating requests per hour". The double counts every
 *   POST, PATCH, PUT and DELETE of an installation, and every GraphQL mutation, in sliding windows
 *   of 60 s and 3,600 s of the double's clock, and refuses one past either with 403 (or 429), a
 *   `retry-after` (seconds) and "You have exceeded a secondary rate limit".
 * - Conditional requests (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api
 *   "Use conditional requests if appropriate"): a GET answer carries an `etag`; the same request
 *   with `if-none-match` holding it is answered 304 without a body, and "does not count against
 *   your primary rate limit".
 */
import { createHash } from "node:crypto";
import type { Answer } from "./double-answers.js";

const RATE_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api";
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** The limits the double enforces; every field has GitHub's documented default. */
export interface RateLimitSettings {
  /** Requests an hour per installation (REST; GitHub: 5,000, up to 12,500 on large organisations). */
  primaryPerHour: number;
  /** GraphQL points an hour per installation (GitHub: 5,000); one point a query in the double. */
  graphqlPerHour: number;
  /** Content-creating requests allowed in any 60 s (GitHub: 80). */
  contentPerMinute: number;
  /** Content-creating requests allowed in any 3,600 s (GitHub: 500). */
  contentPerHour: number;
  /** The status of a refusal: GitHub documents 403 or 429. */
  refusalStatus: 403 | 429;
}

export const GITHUB_LIMITS: RateLimitSettings = {
  primaryPerHour: 5000,
  graphqlPerHour: 5000,
  contentPerMinute: 80,
  contentPerHour: 500,
  refusalStatus: 403,
};

/** Requests of one route (an OpenAPI operationId, or `graphql <operation name>`). */
export interface RouteCount {
  route: string;
  /** Every request answered, refusals and 304s included. */
  requests: number;
  /** Answered 304 Not Modified (not charged against the primary limit). */
  notModified: number;
  /** Charged against the primary limit. */
  charged: number;
  /** Refused by the primary limit. */
  primaryRefused: number;
  /** Refused by the secondary limit. */
  secondaryRefused: number;
  /** Content-creating requests admitted (POST, PATCH, PUT, DELETE, GraphQL mutations). */
  contentCreating: number;
}

interface Window {
  start: number;
  used: number;
}

/** The methods GitHub's secondary limit counts as content-creating. */
export function isContentCreating(method: string): boolean {
  return method === "POST" || method === "PATCH" || method === "PUT" || method === "DELETE";
}

/** The ETag of an answer body (weak, as GitHub gives most). */
export function etagOf(body: unknown): string {
  return `W/"${createHash("sha1").update(JSON.stringify(body)).digest("hex")}"`;
}

/** Whether an `if-none-match` header value names `etag` (a list, or `*`). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}

/** The double's rate limits, conditional requests and request counts (see the file header). */
export class DoubleTraffic {
  settings: RateLimitSettings = { ...GITHUB_LIMITS };
  private readonly routes = new Map<string, RouteCount>();
  private readonly primary = new Map<string, Window>();
  private readonly content = new Map<number, number[]>();

  constructor(private readonly nowMs: () => number) {}

  /** Sets some limits (the rest keep their values). */
  configure(settings: Partial<RateLimitSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  private route(name: string): RouteCount {
    let r = this.routes.get(name);
    if (!r) {
      r = {
        route: name,
        requests: 0,
        notModified: 0,
        charged: 0,
        primaryRefused: 0,
        secondaryRefused: 0,
        contentCreating: 0,
      };
      this.routes.set(name, r);
    }
    return r;
  }

  private window(installation: number, resource: "core" | "graphql"): Window {
    const key = `${installation}/${resource}`;
    const now = this.nowMs();
    let w = this.primary.get(key);
    if (!w || now >= w.start + HOUR_MS) {
      w = { start: now, used: 0 };
      this.primary.set(key, w);
    }
    return w;
  }

  private limitOf(resource: "core" | "graphql"): number {
    return resource === "core" ? this.settings.primaryPerHour : this.settings.graphqlPerHour;
  }

  /** The rate-limit headers of an installation's answer. */
  headers(installation: number, resource: "core" | "graphql"): Record<string, string> {
    const w = this.window(installation, resource);
    const limit = this.limitOf(resource);
    return {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(Math.max(0, limit - w.used)),
      "x-ratelimit-used": String(w.used),
      "x-ratelimit-reset": String(Math.ceil((w.start + HOUR_MS) / 1000)),
      "x-ratelimit-resource": resource,
    };
  }

  /**
   * Checks a request of an installation before it is handled: the refusal GitHub would answer
   * (primary limit spent, or the secondary limit on content-creating requests), else null and the
   * content-creating request is recorded in its windows.
   */
  admit(installation: number, resource: "core" | "graphql", route: string, contentCreating: boolean): Answer | null {
    const w = this.window(installation, resource);
    const status = this.settings.refusalStatus;
    if (w.used >= this.limitOf(resource)) {
      this.route(route).primaryRefused++;
      return {
        status,
        body: { message: `API rate limit exceeded for installation ID ${installation}.`, documentation_url: RATE_DOCS },
      };
    }
    if (!contentCreating) return null;
    const now = this.nowMs();
    const times = (this.content.get(installation) ?? []).filter((t) => t > now - HOUR_MS);
    this.content.set(installation, times);
    const lastMinute = times.filter((t) => t > now - MINUTE_MS);
    const full =
      lastMinute.length >= this.settings.contentPerMinute
        ? lastMinute[lastMinute.length - this.settings.contentPerMinute] + MINUTE_MS
        : times.length >= this.settings.contentPerHour
          ? times[times.length - this.settings.contentPerHour] + HOUR_MS
          : null;
    if (full !== null) {
      this.route(route).secondaryRefused++;
      return {
        status,
        headers: { "retry-after": String(Math.max(1, Math.ceil((full - now) / 1000))) },
        body: {
          message:
            "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.",
          documentation_url: `${RATE_DOCS}#about-secondary-rate-limits`,
        },
      };
    }
    times.push(now);
    this.route(route).contentCreating++;
    return null;
  }

  /**
   * Records an answered request: charged against the installation's primary limit unless it was
   * answered 304 or refused by a limit (`installation` null: an App or user request, not counted
   * against an installation).
   */
  record(installation: number | null, resource: "core" | "graphql", route: string, status: number, refused: boolean) {
    const r = this.route(route);
    r.requests++;
    if (status === 304) r.notModified++;
    else if (!refused && installation !== null) {
      r.charged++;
      this.window(installation, resource).used++;
    }
  }

  /** Counts per route, busiest first. */
  tally(): RouteCount[] {
    return [...this.routes.values()].map((r) => ({ ...r })).sort((a, b) => b.requests - a.requests);
  }

  /** The sum of every route's counts. */
  total(): Omit<RouteCount, "route"> {
    const sum = { requests: 0, notModified: 0, charged: 0, primaryRefused: 0, secondaryRefused: 0, contentCreating: 0 };
    for (const r of this.routes.values()) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += r[k];
    return sum;
  }

  /** Forgets the counts (the limits' windows stay). */
  resetCounts(): void {
    this.routes.clear();
  }
}
