/**
 * The readers of `npm run bench:load`: autocannon clients with the admin key on the merge queue
 * status and on filtered `/logs` listings (several filter sets, each connection cycling through
 * them), and what they measured: requests per second, p50 / p99 latency, non-2xx answers and errors.
 */
import autocannon from "autocannon";

/** One reader's figures: requests per second (mean over the run), latency in ms. */
export interface ReaderFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** The status path of `owner/name`. */
export const statusPath = (repo: string) => `/v1/repos/${repo}/merge-queue/status`;

/**
 * Filtered `/logs` paths of `owner/name`, a realistic mix: checks that ended, one pull request's
 * events (several pull requests), merges on a base branch, failures, a page of a base branch, and
 * leave events of a pull request.
 */
export function logPaths(repo: string, pulls: number[]): string[] {
  const base = `/v1/repos/${repo}/logs`;
  const some = pulls.filter((_, i) => i % Math.max(1, Math.floor(pulls.length / 8)) === 0).slice(0, 8);
  return [
    `${base}?event_type=action.queue.checks_end&per_page=100`,
    ...some.map((n) => `${base}?pull_request=${n}`),
    `${base}?event_type=action.queue.merged&base_ref=main&per_page=5`,
    `${base}?event_type=action.queue.checks_end&outcome=failure`,
    `${base}?base_ref=main&per_page=50`,
    `${base}?event_type=action.queue.leave&pull_request=${some[some.length - 1] ?? 1}`,
    `${base}?event_type=action.queue.enter&event_type=action.queue.leave&per_page=20`,
  ];
}

/**
 * Runs `connections` clients for `seconds` on `paths` (each connection cycles through them).
 * @throws Error when autocannon itself fails to run
 */
export async function readLoad(
  url: string,
  adminKey: string,
  paths: string[],
  connections: number,
  seconds: number,
): Promise<ReaderFigures> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${adminKey}` },
    requests: paths.map((path) => ({ method: "GET" as const, path })),
  });
  return {
    requestsPerSecond: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
