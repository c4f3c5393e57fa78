/**
 * SimulateTraffic (docs/what-if.md): what a configuration would have done to a repository's
 * recorded traffic. Reads the window's traffic from the activity log (activity-log/
 * traffic-reader.ts), refuses a window with too little of it, simulates it again in
 * virtual time under the configuration the queue runs with and under the caller's text (their
 * self-tuned rules with the settings the window's traffic chooses: window-tuning.ts), each in a
 * worker thread within its time limit (offload/), and answers both beside what the log observed.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  SimulateTrafficRequest,
  SimulateTrafficResponseSchema,
  TrafficOutcomeSchema,
} from "../../gen/yardmaster/v1/simulator_pb.js";
import { readRecordedTraffic, type RecordedTraffic } from "../activity-log/index.js";
import type { Configuration } from "../config/index.js";
import { DomainError, InvalidArgumentError } from "../contracts/index.js";
import type { ConfigurationInput } from "../engine/index.js";
import { simulateTrafficBounded, WorkLimitError } from "../offload/index.js";
import { nearestRank, type QueueOutcome, type TrafficInput } from "../simulation/index.js";
import { isProductEnabled } from "../store/index.js";
import { callerOf, runningConfiguration, validate, type SimulatorDeps } from "./caller-configuration.js";
import { testAssumptions, type TestAssumptions } from "./test-assumptions.js";
import { configurationForWindow } from "./window-tuning.js";

/** Fewest pull requests entering the queue, and concluded CI runs, a window must hold (docs/what-if.md "Too little traffic"). */
export const MIN_PULL_REQUESTS = 10;
export const MIN_CI_RUNS = 5;
/** Longest window, days. */
export const MAX_WINDOW_DAYS = 90;
/** The seed of the virtual forge's draws: the same request gives the same answer. */
export const TRAFFIC_SEED = 26;
/** Deadline of the activity log read, milliseconds (a month of a busy repository is one scan). */
const READ_TIMEOUT_MS = 20_000;

function windowOf(req: SimulateTrafficRequest, now: number): { fromMs: number; toMs: number } {
  const fromMs = timestampMs(req.since!);
  const toMs = req.until ? timestampMs(req.until) : now;
  const field = (name: string, description: string) => new InvalidArgumentError([{ field: name, description }]);
  if (toMs <= fromMs) throw field("until", "must be after since");
  if (toMs - fromMs > MAX_WINDOW_DAYS * 86_400_000)
    throw field("since", `the window is at most ${MAX_WINDOW_DAYS} days`);
  return { fromMs, toMs };
}

function requireEnough(t: RecordedTraffic): void {
  const span = `${new Date(t.fromMs).toISOString()} to ${new Date(t.toMs).toISOString()}`;
  const where = t.branch === "" ? "any branch" : `the queue of ${t.branch}`;
  const short = (figure: string, min: number) =>
    new DomainError(
      "failed_precondition",
      `too little traffic to simulate: from ${span}, ${figure} in ${where}; a what-if needs at least ${min}: widen since and until`,
      { field: "since" },
    );
  if (t.arrivals.length < MIN_PULL_REQUESTS)
    throw short(`${t.arrivals.length} pull requests entered the queue`, MIN_PULL_REQUESTS);
  if (t.ciDurationsMs.length < MIN_CI_RUNS) throw short(`${t.ciDurationsMs.length} CI runs concluded`, MIN_CI_RUNS);
}

const engineInput = (c: Configuration): ConfigurationInput => ({
  queue_rules: c.queue_rules,
  merge_queue: c.merge_queue,
  priority_rules: c.priority_rules,
  scopes: c.scopes,
  partition_rules: c.partition_rules,
});

async function simulate(
  input: TrafficInput,
  config: Configuration,
  t: RecordedTraffic,
  caller: string,
): Promise<QueueOutcome> {
  try {
    return await simulateTrafficBounded(input, configurationForWindow(engineInput(config), t), caller);
  } catch (e) {
    if (!(e instanceof WorkLimitError)) throw e;
    throw new DomainError("resource_exhausted", `the what-if ${e.message}: narrow the window (since, until)`);
  }
}

function outcome(o: QueueOutcome): MessageInitShape<typeof TrafficOutcomeSchema> {
  const seconds = (ms: number | null) => (ms ?? 0) / 1000;
  return {
    merges: BigInt(o.merges),
    timeInQueueP50Seconds: seconds(o.timeInQueueP50Ms),
    timeInQueueP95Seconds: seconds(o.timeInQueueP95Ms),
    ciRuns: BigInt(o.ciRuns),
    ciRunsPerMerge: o.merges === 0 ? 0 : o.ciRuns / o.merges,
    ciHoursPerMerge: o.merges === 0 ? 0 : o.ciMs / 3_600_000 / o.merges,
    batches: BigInt(o.batches),
    bisections: BigInt(o.bisections),
    dequeuesByCode: Object.fromEntries(Object.entries(o.dequeuesByCode).map(([k, v]) => [k, BigInt(v)])),
    stillQueued: BigInt(o.stillQueued),
    retries: BigInt(o.retries),
    ignoredFailures: BigInt(o.ignoredFailures),
  };
}

function trafficSummary(t: RecordedTraffic, a: TestAssumptions) {
  const sorted = [...t.ciDurationsMs].sort((a, b) => a - b);
  const first = t.arrivals[0]!.at;
  const hours = (t.arrivals.at(-1)!.at - first) / 3_600_000;
  return {
    branch: t.branch,
    since: timestampFromMs(t.fromMs),
    until: timestampFromMs(t.toMs),
    pullRequests: BigInt(t.arrivals.length),
    arrivalsPerHour: hours > 0 ? (t.arrivals.length - 1) / hours : 0,
    ciRuns: BigInt(t.ciDurationsMs.length),
    ciP50Seconds: nearestRank(sorted, 0.5)! / 1000,
    ciP95Seconds: nearestRank(sorted, 0.95)! / 1000,
    mergeSeconds: t.mergeMs / 1000,
    draftSeconds: t.draftMs / 1000,
    failedAlone: BigInt(t.arrivals.filter((a) => a.bad).length),
    flakeRate: t.flakeRate,
    outsidePushes: BigInt(t.outsidePushes.length),
    withdrawn: BigInt(t.arrivals.filter((a) => a.withdrawal !== null).length),
    ignoredFailures: BigInt(t.ignoredFailures),
    retries: BigInt(t.retries),
    tests: {
      testAware: a.testAware,
      spuriousRate: a.spuriousRate,
      quarantinedShare: a.quarantinedShare,
      knownFlakyShare: a.knownFlakyShare,
      note: a.note,
    },
  };
}

/**
 * The SimulateTraffic handler (see the module comment).
 * @throws InvalidArgumentError (422) naming `until` or `since` for a bad window, `service_yml` for
 *   a text that does not load; DomainError failed_precondition (422) naming the figure short of
 *   its minimum; resource_exhausted (429) past the time limit or over the caller's share of the
 *   what-if threads; unavailable (503) when this process reads no activity log or ClickHouse does
 *   not answer
 */
export async function simulateTraffic(
  deps: SimulatorDeps,
  req: SimulateTrafficRequest,
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof SimulateTrafficResponseSchema>> {
  const { fromMs, toMs } = windowOf(req, (deps.now ?? Date.now)());
  const { config: candidate } = await validate(deps, ctx, req.owner, req.repository, {
    text: req.serviceYml,
    field: "service_yml",
  });
  if (!deps.clickhouse)
    throw new DomainError(
      "unavailable",
      "this process does not read the activity log: serve the simulator with the activity log, or set CLICKHOUSE_URL",
    );
  const repository = `${req.owner}/${req.repository}`;
  const window = { repository, fromMs, toMs, branch: req.branch === "" ? null : req.branch };
  const traffic = await readRecordedTraffic(deps.clickhouse, window, { readTimeoutMs: READ_TIMEOUT_MS });
  requireEnough(traffic);
  const caller = callerOf(ctx);
  const current = await runningConfiguration(deps, req.owner, req.repository, caller);
  // Quarantines and retries (test-assumptions.ts): the queue reads test results when CI Insights is on.
  const assumed = testAssumptions(traffic, await isProductEnabled(deps.db, repository, "ci_insights"));
  const input: TrafficInput = {
    arrivals: traffic.arrivals,
    outsidePushes: traffic.outsidePushes,
    ciDurationsMs: traffic.ciDurationsMs,
    mergeMs: traffic.mergeMs,
    draftMs: traffic.draftMs,
    flakeRate: traffic.flakeRate,
    ...(assumed.workload ? { tests: assumed.workload } : {}),
    seed: TRAFFIC_SEED,
  };
  const [now, next] = await Promise.all([
    simulate(input, current, traffic, caller),
    simulate(input, candidate, traffic, caller),
  ]);
  return {
    traffic: trafficSummary(traffic, assumed),
    observed: outcome(traffic.observed),
    current: outcome(now),
    candidate: outcome(next),
    seed: BigInt(TRAFFIC_SEED),
  };
}
