/**
 * The generators of the fault fuzzer (fuzz.test.ts): REST routes with random path parameters,
 * queries and bodies; Connect JSON bodies built from each RPC's own input message; the error body
 * check. The named fields (repository, path, ref) take values valid on the fuzzer's server, set by
 * {@link useFuzzPaths} before the first run.
 */
import { ScalarType, type DescField, type DescMessage, type DescService } from "@bufbuild/protobuf";
import fc from "fast-check";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { ProductService, TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";

let paths = { source: "/nowhere", work: "/nowhere" };

/** The local repository's work tree and the test's directory, for the fields that name a path. */
export function useFuzzPaths(source: string, work: string): void {
  paths = { source, work };
}

export const CONNECT_CODES = [
  "canceled",
  "unknown",
  "invalid_argument",
  "deadline_exceeded",
  "not_found",
  "already_exists",
  "permission_denied",
  "resource_exhausted",
  "failed_precondition",
  "aborted",
  "out_of_range",
  "unimplemented",
  "internal",
  "unavailable",
  "data_loss",
  "unauthenticated",
];

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

const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    "2026-01-01T00:00:00",
    "2026-01-01T00:00:00+14:00",
    "1700000000",
    "action.queue.merged",
    "success",
    "main",
    "' OR 1=1 --",
    "\\",
    "%00",
    "a".repeat(300),
  ),
  // The edges of the Timestamp range, a day no calendar has, and the character PostgreSQL refuses.
  fc.constantFrom(
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "0000-12-31T23:59:59Z",
    "2026-02-30T00:00:00Z",
    "0001-01-01T00:00:00+01:00",
    "a\u0000b",
  ),
);

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

/** A value of any JSON type, biased to the shapes the bodies hold. */
export const anyValue = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

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

/** The error body of docs/errors.md, checked for one answer; returns a description of what is wrong, or null. */
export function errorBodyProblem(status: number, text: string): string | null {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON: ${text.slice(0, 200)}`;
  }
  if (!CONNECT_CODES.includes(body?.code)) return `a ${status} without a Connect code: ${text.slice(0, 200)}`;
  if (typeof body.message !== "string" || body.message === "")
    return `a ${status} without a message: ${text.slice(0, 200)}`;
  if (status === 422 && body.code === "invalid_argument") {
    const fields: string[] = (body.details ?? [])
      .filter((d: any) => d.type === "field_violation")
      .map((d: any) => d.field);
    if (!fields.some((f) => body.message.startsWith(`${f}: `)))
      return `a 422 whose message names none of its fields ${JSON.stringify(fields)}: ${body.message}`;
  }
  return null;
}

export const SERVICES: DescService[] = [
  QueueService,
  SimulatorService,
  ActivityLogService,
  ForgeService,
  TokenService,
  ProductService,
];
export const METHODS = SERVICES.flatMap((s) =>
  s.methods.map((m) => ({ path: `/${s.typeName}/${m.name}`, input: m.input })),
);

/** Values that pass validation for the fields that name a repository, a path or a ref (read when generated: the source exists by then). */
const NAMED_FIELDS: Record<string, () => string[]> = {
  owner: () => ["acme", "fuzz"],
  repository: () => ["widgets", "fuzz"],
  name: () => ["widgets", "fuzz"],
  from_path: () => [paths.source, paths.work, "/nowhere"],
  source_ref: () => ["feature", "main", "HEAD~5"],
  branch: () => ["main", "feature", "gone"],
  head: () => ["feature", "main"],
  base: () => ["main", "feature"],
  ref: () => ["main", "feature"],
  service_yml: () => [
    "queue_rules:\n  - name: q\n    batch_size: 3\n",
    "queue_rules: [",
    'queue_rules:\n  - name: q\n    merge_conditions:\n      - "#approved-reviews-by>="\n',
  ],
};

/** Strings a field is likely to hold here (so that validation is passed often enough to reach the handlers), and hostile ones. */
const plausibleString = (field: string) =>
  fc.oneof(
    {
      weight: NAMED_FIELDS[field] ? 40 : 0,
      arbitrary: fc.constant(null).chain(() => fc.constantFrom(...(NAMED_FIELDS[field]?.() ?? ["-"]))),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "acme",
        "widgets",
        "main",
        "fuzz",
        "1",
        "action.queue.merged",
        "success",
        "queue_rules:\n  - name: q\n",
        "2026-11-24T00:00:00Z",
        "@yardmaster queue",
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "../..",
        "/",
        "refs/heads/main",
        "a".repeat(300),
        "' OR 1=1 --",
        "2026-11-24T00:00:00",
        "-1",
        "a\u0000b",
        "\u0000",
      ),
    },
  );

const SIGNED = new Set([
  ScalarType.INT32,
  ScalarType.INT64,
  ScalarType.SINT32,
  ScalarType.SINT64,
  ScalarType.SFIXED32,
  ScalarType.SFIXED64,
]);
const LONG = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

/** A JSON value for a scalar field: mostly of the right type (in range or not), sometimes of another type. */
function scalarValue(type: ScalarType, name: string): fc.Arbitrary<unknown> {
  const right =
    type === ScalarType.STRING
      ? plausibleString(name)
      : type === ScalarType.BOOL
        ? fc.boolean()
        : type === ScalarType.BYTES
          ? fc.base64String({ maxLength: 16 })
          : type === ScalarType.DOUBLE || type === ScalarType.FLOAT
            ? fc.double()
            : fc.oneof(
                { weight: 3, arbitrary: fc.integer({ min: SIGNED.has(type) ? -1 : 0, max: 3 }) },
                fc.integer({ min: SIGNED.has(type) ? -3 : 0, max: 12 }),
                LONG.has(type)
                  ? fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String)
                  : fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
              );
  return fc.oneof({ weight: 30, arbitrary: right }, { weight: 1, arbitrary: anyValue });
}

/** A JSON value for a message-typed field: the JSON forms of the well-known types, else a nested object. */
function messageField(message: DescMessage, depth: number): fc.Arbitrary<unknown> {
  if (message.typeName === "google.protobuf.Timestamp")
    return fc.oneof(
      fc.date({ min: new Date(-1e13), max: new Date(1e13), noInvalidDate: true }).map((d) => d.toISOString()),
      queryValue,
    );
  if (message.typeName === "google.protobuf.Duration")
    return fc.oneof(
      fc.integer({ min: -10, max: 1e6 }).map((n) => `${n}s`),
      fc.string({ maxLength: 6 }),
    );
  if (message.typeName === "google.protobuf.Struct" || message.typeName === "google.protobuf.Value")
    return fc.jsonValue({ maxDepth: 2 });
  return depth > 0 ? messageValue(message, depth - 1) : anyValue;
}

/** A JSON object for a message (its own field names, values by field kind), `depth` levels of nested messages at most. */
export function messageValue(message: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const field = (f: DescField): fc.Arbitrary<unknown> => {
    switch (f.fieldKind) {
      case "scalar":
        return scalarValue(f.scalar, f.name);
      case "enum":
        return fc.oneof(fc.constantFrom(...f.enum.values.map((v) => v.name)), fc.integer({ min: -1, max: 40 }));
      case "message":
        return messageField(f.message, depth);
      case "list":
        return fc.array(
          f.listKind === "scalar"
            ? scalarValue(f.scalar, f.name)
            : f.listKind === "enum"
              ? fc.constantFrom(...f.enum.values.map((v) => v.name))
              : messageField(f.message, depth),
          { maxLength: 3 },
        );
      case "map":
        return fc.dictionary(
          fc.string({ maxLength: 6 }),
          f.mapKind === "scalar" ? scalarValue(f.scalar, f.name) : anyValue,
          { maxKeys: 2 },
        );
    }
  };
  const names = message.fields.map((f) => f.jsonName);
  if (names.length === 0) return fc.constant({});
  // The fields that name the repository, a path or a ref are always there, every other one half the time; now and then one
  // of them is dropped after all (a oneof then often holds one member), and now and then a key the message does not have.
  const requiredKeys = message.fields.filter((f) => NAMED_FIELDS[f.name]).map((f) => f.jsonName);
  return fc
    .tuple(
      fc.record(Object.fromEntries(message.fields.map((f) => [f.jsonName, field(f)])), { requiredKeys }),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<string[]>([]) },
        { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 }) },
      ),
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), anyValue) },
      ),
    )
    .map(([body, dropped, extra]) => {
      const kept: Record<string, unknown> = Object.fromEntries(
        Object.entries(body).filter(([k]) => !dropped.includes(k)),
      );
      return extra ? { ...kept, [extra[0]]: extra[1] } : kept;
    });
}

/** A Connect JSON request: mostly built from the method's input message, sometimes any JSON or no JSON at all. */
export const connectRequest = fc.constantFrom(...METHODS).chain((m) =>
  fc.record({
    path: fc.constant(m.path),
    body: fc.oneof(
      { weight: 6, arbitrary: messageValue(m.input, 2).map((b) => JSON.stringify(b)) },
      { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
      { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
    ),
  }),
);
