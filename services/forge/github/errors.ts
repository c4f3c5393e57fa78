/**
 * GitHub failures as port errors (services/forge/types.ts `ForgeError`; docs/github.md "Errors and rate limits").
 * Octokit throws a `RequestError` (`status`, `response.headers`, `response.data.message`) for an
 * HTTP error and for a network failure (status 500, no response); GraphQL answers carry `errors`.
 * The table, applied after the retry and throttling plugins have given up:
 *
 * | GitHub answer | kind |
 * | --- | --- |
 * | 404, 410 | not_found |
 * | 409 | conflict |
 * | 403/429 with `x-ratelimit-remaining: 0`, `retry-after`, or "secondary rate limit" | rate_limited (retryAfterMs from the headers) |
 * | 401, other 403 | permission |
 * | 400, 405, 422 and other 4xx | invalid |
 * | 5xx, network failure, anything unexpected | transient |
 * | GraphQL `errors`, by the first one's `type` | {@link GRAPHQL_KINDS}; any other type transient |
 *
 * Operations that know better (a 422 "Update is not a fast forward" is a conflict, a 405 on merge
 * is a conflict or a branch protection refusal) test {@link githubStatus}/{@link githubMessage}
 * before falling back to {@link toForgeError}.
 */
import { ForgeError } from "../types.js";

/** The shape of Octokit's RequestError that this module reads (duck-typed: no import needed). */
interface RequestErrorLike {
  status: number;
  message: string;
  request?: { method?: string; url?: string };
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** Fallback wait for a rate limit GitHub gave no time for, in milliseconds (GitHub's advice: 1 minute). */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

function isRequestError(e: unknown): e is RequestErrorLike {
  return (
    typeof e === "object" && e !== null && typeof (e as { status?: unknown }).status === "number" && "request" in e
  );
}

/** The HTTP status of an Octokit request error; null for anything else. */
export function githubStatus(e: unknown): number | null {
  return isRequestError(e) ? e.status : null;
}

/** GitHub's `message` (or the error's own message) of a failed request; "" when none. */
export function githubMessage(e: unknown): string {
  if (isRequestError(e)) {
    const data = e.response?.data;
    if (typeof data === "object" && data !== null && typeof (data as { message?: unknown }).message === "string") {
      return (data as { message: string }).message;
    }
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

function header(e: RequestErrorLike, name: string): string | undefined {
  const v = e.response?.headers?.[name];
  return v === undefined ? undefined : String(v);
}

/**
 * When to retry a rate-limited request, in milliseconds from `nowMs`; null when the answer is not a
 * rate limit. `retry-after` (seconds) wins; else `x-ratelimit-reset` (epoch seconds) when
 * `x-ratelimit-remaining` is 0; else one minute for a secondary limit or a bare 429.
 * Source: GitHub REST docs "Rate limits for the REST API" (docs/github.md "Errors and rate limits").
 */
export function rateLimitWaitMs(e: unknown, nowMs: number): number | null {
  if (!isRequestError(e) || (e.status !== 403 && e.status !== 429)) return null;
  const retryAfter = Number(header(e, "retry-after"));
  const secondary = /secondary rate limit|abuse/i.test(githubMessage(e));
  const exhausted = header(e, "x-ratelimit-remaining") === "0";
  if (header(e, "retry-after") !== undefined && Number.isFinite(retryAfter)) return Math.max(0, retryAfter * 1000);
  if (exhausted) {
    const reset = Number(header(e, "x-ratelimit-reset"));
    if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - nowMs);
    return DEFAULT_RATE_LIMIT_WAIT_MS;
  }
  if (secondary || e.status === 429) return DEFAULT_RATE_LIMIT_WAIT_MS;
  return null;
}

function kindOfStatus(status: number): ForgeError["kind"] {
  if (status === 404 || status === 410) return "not_found";
  if (status === 409) return "conflict";
  if (status === 401 || status === 403) return "permission";
  if (status >= 500) return "transient";
  return "invalid";
}

/**
 * GraphQL error `type`s as port kinds; any other type (INTERNAL, an unknown one, none) is transient.
 * UNPROCESSABLE is GitHub's refusal of a mutation it understood (a draft in a repository without
 * drafts, a pull request in a state the mutation does not apply to): retrying cannot help.
 */
const GRAPHQL_KINDS: Record<string, ForgeError["kind"]> = {
  NOT_FOUND: "not_found",
  RATE_LIMITED: "rate_limited",
  FORBIDDEN: "permission",
  UNPROCESSABLE: "invalid",
};

function graphqlErrorType(e: unknown): string | null {
  const errors = (e as { errors?: unknown })?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const type = (errors[0] as { type?: unknown }).type;
  return typeof type === "string" ? type : "UNKNOWN";
}

/**
 * Converts any failure of a GitHub call to a {@link ForgeError} (ForgeErrors pass unchanged).
 * @param operation what was being done, for the message (e.g. "reading pull request #4 of o/r")
 * @param nowMs the current time in epoch milliseconds, to turn `x-ratelimit-reset` into a wait
 */
export function toForgeError(e: unknown, operation: string, nowMs: number): ForgeError {
  if (e instanceof ForgeError) return e;
  if (isRequestError(e)) {
    const detail = githubMessage(e);
    const wait = rateLimitWaitMs(e, nowMs);
    if (wait !== null) {
      return new ForgeError(
        "rate_limited",
        `GitHub rate limit while ${operation}: ${detail} (retry in ${Math.ceil(wait / 1000)} s)`,
        wait,
        { cause: e },
      );
    }
    const answered = e.response ? `GitHub answered ${e.status}` : "GitHub could not be reached";
    return new ForgeError(kindOfStatus(e.status), `${answered} while ${operation}: ${detail}`, undefined, { cause: e });
  }
  const gqlType = graphqlErrorType(e);
  if (gqlType !== null) {
    const kind = GRAPHQL_KINDS[gqlType] ?? "transient";
    return new ForgeError(
      kind,
      `GitHub GraphQL error ${gqlType} while ${operation}: ${githubMessage(e)}`,
      kind === "rate_limited" ? DEFAULT_RATE_LIMIT_WAIT_MS : undefined,
      { cause: e },
    );
  }
  return new ForgeError("transient", `failed while ${operation}: ${githubMessage(e)}`, undefined, { cause: e });
}
