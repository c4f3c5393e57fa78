/**
 * The fault fuzzer's REST requests (fuzz.test.ts): each route with random path parameters (mostly
 * plausible, sometimes hostile), a query and a body, and a content type.
 */
import fc from "fast-check";
import { anyValue, queryValue } from "./fuzz-values.js";

/** A path segment: mostly plausible, sometimes hostile (percent-encoded so that it stays one segment). */
const segment = (plausible: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...plausible) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.string({ maxLength: 120 }),
          fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
          fc.constantFrom("0", "-0", "1e3", "0x10", "..", "%", "NaN", "9".repeat(30)),
        )
        .map((s) => encodeURIComponent(s) || "x"),
    },
  );

/** REST routes: method and path template under /v1/repos/{owner}/{repository}. */
export const ROUTES: Array<[string, string]> = [
  ["GET", "/merge-queue/branches"],
  ["GET", "/merge-queue/status"],
  ["GET", "/merge-queue/pull/{n}"],
  ["GET", "/merge-queue/pull/{n}/dequeue-impact"],
  ["POST", "/merge-queue/pull/{n}/dequeue"],
  ["PUT", "/merge-queue/pause"],
  ["DELETE", "/merge-queue/pause"],
  ["GET", "/merge-queue/pause"],
  ["POST", "/pulls/{n}/simulator"],
  ["POST", "/simulator"],
  ["POST", "/configuration-simulator"],
  ["GET", "/queues/configuration"],
  ["PUT", "/queue/pause"],
  ["DELETE", "/queue/pause"],
  ["GET", "/queue/pause"],
  ["POST", "/queue/pause/delete"],
  ["GET", "/queues"],
  ["GET", "/queues/branches"],
  ["GET", "/logs"],
  ["GET", "/logs/aggregate"],
];

const QUERY_NAMES = [
  "branch",
  "start_at",
  "end_at",
  "pull_request",
  "not_pull_request",
  "base_ref",
  "batch_pull",
  "not_batch_pull",
  "event_type",
  "not_event_type",
  "outcome",
  "not_outcome",
  "trigger",
  "not_trigger",
  "received_from",
  "received_to",
  "cursor",
  "per_page",
];
const randomQuery = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...QUERY_NAMES) },
        { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
      ),
      queryValue,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => new URLSearchParams(pairs).toString());

/** Mostly no query at all (so that the path and the body are what is tested), else a random one. */
const query = fc.oneof({ weight: 2, arbitrary: fc.constant("") }, { weight: 3, arbitrary: randomQuery });
const restBody = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  fc.record({ reason: anyValue }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
  fc
    .record(
      {
        service_yml: fc.oneof(
          anyValue,
          fc.constantFrom(
            "queue_rules:\n  - name: q\n    batch_size: 3\n",
            "queue_rules: [",
            'queue_rules:\n  - name: q\n    merge_conditions:\n      - "#approved-reviews-by>="\n',
          ),
        ),
      },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b)),
);

export const restRequest = fc.record({
  route: fc.constantFrom(...ROUTES),
  owner: segment(["acme", "fuzz"]),
  repository: segment(["widgets", "fuzz.repo"]),
  n: segment(["1", "7", "9223372036854775807"]),
  query,
  body: restBody,
  contentType: fc.oneof(
    { weight: 6, arbitrary: fc.constant("application/json") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "text/plain",
        "application/x-www-form-urlencoded",
        undefined,
      ),
    },
  ),
});
