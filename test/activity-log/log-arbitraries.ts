/**
 * fast-check generators for the activity log property tests: event sets over all 47 types (with
 * the metadata fields that drive outcomes and batch pull request numbers varied), null and
 * non-null pull requests and base refs, ties on received_at, several repositories; and filter
 * combinations with their request (proto) and model forms.
 */
import fc from "fast-check";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Outcome } from "../../gen/yardmaster/v1/events_pb.js";
import { EVENT_TYPES } from "../../services/activity-log/index.js";
import { METADATA_BUILDERS } from "./event-samples.js";
import { speculativeCheck } from "./event-samples-shared.js";
import type { AggregateInit, AppendInput } from "./log-harness.js";
import type { ModelFilters } from "./log-model.js";

export const TYPES = [...EVENT_TYPES.keys()];
export const ALIAS = "action.queue.checks_not_started";
export const MAX_PR = 9223372036854775807n;
const DAY = 86_400_000;
/** Half the events are of these types (outcome and batch pull request rules vary), so type filters match many rows. */
const HOT_TYPES = [
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.leave",
  "action.post_check",
  "action.queue.batch_bisection_end",
  "action.label",
];
const typeArbitrary = fc.oneof(fc.constantFrom(...HOT_TYPES), fc.constantFrom(...TYPES));
const PULLS = [1n, 2n, 3n, MAX_PR];
const BATCH_PULLS = [1000n, 1001n, 1002n];
const TRIGGERS = ["API", "Rule: automatic merge", "Rule: b", "@ada", "Règle: é"];
const BASE_REFS = ["main", "release/1.x"];
/** Minute 0 of every run: Sunday 2026-11-22 00:00 UTC. */
export const T0 = Date.UTC(2026, 10, 22);
/** The service's clock in property runs: the default window is [NOW - 1 day, NOW). */
export const NOW = T0 + 12 * 3_600_000;

/** Metadata of `type` with the fields that decide its outcome / batch pull request number set from `k`. */
export function variedMetadata(type: string, k: { a: number; b: boolean; c: number }): Record<string, unknown> {
  const build = METADATA_BUILDERS[type];
  const conclusions = ["success", "failure", "cancelled", "timed_out"];
  switch (type) {
    case "action.queue.checks_start":
      return build({
        speculative_check_pull_request: speculativeCheck({
          number: Number(BATCH_PULLS[k.a % 3]),
          checks_conclusion: "pending",
        }),
      });
    case "action.queue.checks_end":
      return build({
        aborted: k.b,
        abort_code: k.b ? "CHECKS_RETRIED" : null,
        abort_status: k.c % 2 ? "REEMBARKED" : "DEFINITIVE",
        speculative_check_pull_request: speculativeCheck({
          number: Number(BATCH_PULLS[k.a % 3]),
          checks_conclusion: conclusions[k.c % 4],
        }),
      });
    case "action.queue.batch_bisection_start":
    case "action.queue.batch_bisection_end": {
      const m = build({
        ...(type.endsWith("end") ? { culprit_found: k.b } : {}),
        batch_pull_request: k.c === 3 ? null : Number(BATCH_PULLS[k.a % 3]),
      });
      if (k.c === 2) delete m.batch_pull_request; // omittable: events of older producers lack it
      return m;
    }
    case "action.queue.leave":
      return build({ merged: k.b, dequeue_code: k.b ? "PR_MERGED" : "CHECKS_FAILED" });
    case "action.post_check":
      return build({ conclusion: [null, "success", "failure", "neutral"][k.c % 4] });
    case "ci_insights.job_retried":
      return build({ outcome: k.b ? "retried" : "skipped_quota_exceeded" });
    default:
      return build();
  }
}

/**
 * Repository names of one property execution. Names are made fresh for each execution (shrinking
 * replays values, and the log keeps what earlier executions appended), so generators use these
 * placeholders and the test replaces them with `repositoryNames(owner)`.
 */
export const REPOSITORY_SLOTS = ["{o}/r1", "{o}/r2", "{o}x/r1", "{o}/empty"];
export const withOwner = (slot: string, owner: string) => slot.replace("{o}", owner);

/** Time steps between ticks: events and window bounds fall on T0 + i·step. */
const STEPS = [1, 1000, 60_000, 1_800_000, DAY];
/**
 * With daily ticks (windows up to 46 days: 12-hour buckets and the rollups), events and window
 * bounds also move off the 12-hour rollup periods by one of these offsets.
 */
const DAY_OFFSETS = [0, 0, 1, 10_800_000, 46_800_000, -3_600_000];
/** An offset from a daily tick: on or next to a 12-hour period boundary, or anywhere in the day. */
const dayOffset = fc.oneof(fc.constantFrom(...DAY_OFFSETS), fc.integer({ min: -DAY / 2, max: DAY / 2 }));

/** Events of one run in the first three repository slots, at T0 + i·step for i in 0..40 (so many share a received_at). */
export function eventsArbitrary(step: number): fc.Arbitrary<AppendInput[]> {
  const repositories = REPOSITORY_SLOTS.slice(0, 3);
  return fc.integer({ min: 20, max: 150 }).chain((n) =>
    fc.array(
      fc
        .record({
          type: typeArbitrary,
          repository: fc.oneof(
            { weight: 3, arbitrary: fc.constant(repositories[0]) },
            { weight: 2, arbitrary: fc.constantFrom(...repositories.slice(1)) },
          ),
          pullRequest: fc.option(fc.constantFrom(...PULLS), { freq: 3 }),
          baseRef: fc.option(fc.constantFrom(...BASE_REFS), { freq: 3 }),
          trigger: fc.constantFrom(...TRIGGERS),
          tick: fc.integer({ min: 0, max: 40 }),
          k: fc.record({ a: fc.nat(2), b: fc.boolean(), c: fc.nat(3) }),
          offset: dayOffset,
        })
        .map((e) => ({
          type: e.type,
          repository: e.repository,
          pullRequest: e.pullRequest,
          baseRef: e.baseRef,
          trigger: e.trigger,
          receivedAtMs: T0 + e.tick * step + (step === DAY ? e.offset : 0),
          metadata: variedMetadata(e.type, e.k),
        })),
      // Sizes drawn uniformly (fast-check's default favours short arrays): multi-page walks are the point.
      { minLength: n, maxLength: n },
    ),
  );
}

type SetPick<T> = { mode: "include" | "exclude"; values: T[] } | undefined;
/** A filter present one time in three (so that many combinations still match many rows). */
const setOf = <T>(values: T[], maxLength = 3): fc.Arbitrary<SetPick<T>> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.record({
        mode: fc.constantFrom("include" as const, "exclude" as const),
        values: fc.subarray(values, { minLength: 1, maxLength }),
      }),
    },
  );

/** A filter combination with its ListLogs request and its model. */
export interface FilterCase {
  request: AggregateInit & object;
  model: ModelFilters;
}

const OUTCOMES: [string, Outcome][] = [
  ["success", Outcome.success],
  ["failure", Outcome.failure],
  ["pending", Outcome.pending],
  ["neutral", Outcome.neutral],
];
const canonical = (t: string) => (t === ALIAS ? "action.queue.checks_postponed" : t);

/** Filters for a repository slot (the last one has no events), a window on the run's ticks, and per_page. */
export function filterArbitrary(step: number): fc.Arbitrary<FilterCase & { perPage: number }> {
  return fc
    .record({
      repository: fc.oneof(
        { weight: 5, arbitrary: fc.constant(REPOSITORY_SLOTS[0]) },
        { weight: 4, arbitrary: fc.constantFrom(...REPOSITORY_SLOTS.slice(1, 3)) },
        { weight: 1, arbitrary: fc.constant(REPOSITORY_SLOTS[3]) },
      ),
      pr: setOf([...PULLS, 77n]),
      baseRef: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 4, arbitrary: fc.constantFrom(...BASE_REFS) },
        { weight: 1, arbitrary: fc.constant("nope") },
      ),
      bp: setOf([...BATCH_PULLS, 5n]),
      type: fc.oneof(setOf(HOT_TYPES, 3), setOf([...TYPES, ALIAS], 6)),
      outcome: setOf(
        OUTCOMES.map(([n]) => n),
        2,
      ),
      trigger: setOf([...TRIGGERS, "nobody"]),
      // Mostly the default window; with daily ticks, mostly windows of more than 25 days (12-hour buckets, rollups).
      from:
        step === DAY
          ? fc.oneof(
              { weight: 1, arbitrary: fc.constant(null) },
              { weight: 1, arbitrary: fc.integer({ min: -2, max: 42 }) },
              { weight: 6, arbitrary: fc.integer({ min: -2, max: 8 }) },
            )
          : fc.oneof(
              { weight: 2, arbitrary: fc.constant(null) },
              { weight: 1, arbitrary: fc.integer({ min: -2, max: 42 }) },
            ),
      to:
        step === DAY
          ? fc.oneof(
              { weight: 1, arbitrary: fc.constant(null) },
              { weight: 1, arbitrary: fc.integer({ min: 0, max: 44 }) },
              { weight: 6, arbitrary: fc.integer({ min: 32, max: 44 }) },
            )
          : fc.oneof(
              { weight: 2, arbitrary: fc.constant(null) },
              { weight: 1, arbitrary: fc.integer({ min: 0, max: 44 }) },
            ),
      perPage: fc.integer({ min: 1, max: 8 }),
      fromOffset: dayOffset,
      toOffset: dayOffset,
    })
    .map((r) => ({ ...r, fromShift: step === DAY ? r.fromOffset : 0, toShift: step === DAY ? r.toOffset : 0 }))
    .filter((r) => r.from === null || r.to === null || r.from * step + r.fromShift <= r.to * step + r.toShift)
    .map((r) => {
      const explicitFrom = r.from === null ? null : T0 + r.from * step + r.fromShift;
      const toMs =
        r.to === null ? (explicitFrom === null ? NOW : Math.max(NOW, explicitFrom)) : T0 + r.to * step + r.toShift;
      const fromMs = explicitFrom ?? toMs - DAY;
      const [owner, repository] = r.repository.split("/");
      const request: Record<string, unknown> = { owner, repository };
      const model: ModelFilters = { repository: r.repository, fromMs, toMs };
      const put = <T, U>(
        pick: SetPick<T>,
        include: string,
        exclude: string,
        toRequest: (v: T) => U,
        key: keyof ModelFilters,
        toModel: (v: T) => unknown,
      ) => {
        if (!pick) return;
        request[pick.mode === "include" ? include : exclude] = pick.values.map(toRequest);
        (model as unknown as Record<string, unknown>)[key] = {
          mode: pick.mode,
          values: [...new Set(pick.values.map(toModel))],
        };
      };
      put(
        r.pr,
        "pullRequest",
        "notPullRequest",
        (v) => v,
        "pullRequest",
        (v) => v,
      );
      put(
        r.bp,
        "batchPull",
        "notBatchPull",
        (v) => v,
        "batchPull",
        (v) => v,
      );
      put(r.type, "eventType", "notEventType", (v) => v, "eventType", canonical);
      put(
        r.outcome,
        "outcome",
        "notOutcome",
        (v) => OUTCOMES.find(([n]) => n === v)![1],
        "outcome",
        (v) => v,
      );
      put(
        r.trigger,
        "trigger",
        "notTrigger",
        (v) => v,
        "trigger",
        (v) => v,
      );
      if (r.baseRef !== null) {
        request.baseRef = r.baseRef;
        model.baseRef = r.baseRef;
      }
      if (r.from !== null) request.receivedFrom = timestampFromMs(fromMs);
      // received_to given explicitly only when drawn, or when received_from alone lies after NOW.
      if (r.to !== null || (r.from !== null && toMs !== NOW)) request.receivedTo = timestampFromMs(toMs);
      return { request: request as AggregateInit & object, model, perPage: r.perPage };
    });
}

/** Daily ticks only: windows of weeks, where the aggregate reads the 12-hour rollups. */
export const LONG_WINDOWS = [DAY];

/** One property execution: events and 1-3 filter cases on the same time step (one of `steps`). */
export function runArbitrary(steps: number[] = STEPS) {
  return fc.constantFrom(...steps).chain((step) =>
    fc.record({
      events: eventsArbitrary(step),
      filters: fc.array(filterArbitrary(step), { minLength: 1, maxLength: 3 }),
    }),
  );
}
