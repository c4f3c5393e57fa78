/**
 * `yardmaster whatif --repo owner/name --since 30d --config FILE` (docs/what-if.md): what the
 * configuration in FILE would have done to the repository's recorded traffic, beside what the
 * configuration the queue runs with would have done and what the log observed, through
 * SimulatorService.SimulateTraffic on the running service. `--since` and `--until` take a
 * duration before now ("30d", "12 h") or an RFC 3339 instant with a UTC offset. Prints a
 * side-by-side table, or the response as JSON with `--json`.
 */
import { readFile } from "node:fs/promises";
import { toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { InvalidArgumentError, type Command } from "commander";
import {
  SimulateTrafficResponseSchema,
  SimulatorService,
  type SimulateTrafficResponse,
  type TrafficOutcome,
} from "../../../gen/yardmaster/v1/simulator_pb.js";
import { parseDuration } from "../../config/index.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { parseInstant } from "./freeze.js";
import { out } from "./output.js";
import { parseRepoArgument } from "./repo.js";

/**
 * A `--since` / `--until` value: an RFC 3339 instant, or a duration before now (e.g. "30d").
 * @throws InvalidArgumentError (a usage error) for anything else
 */
export function parseWhen(value: string): Timestamp {
  const now = Date.now();
  if (/^\d{4}-/.test(value)) return parseInstant(value);
  try {
    return timestampFromDate(new Date(now - parseDuration(value) * 1000));
  } catch {
    throw new InvalidArgumentError(
      `"${value}" must be a duration before now ("30d", "12 h") or a date-time with a UTC offset`,
    );
  }
}

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const codes = (o: TrafficOutcome) =>
  Object.entries(o.dequeuesByCode)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none";

/** The side-by-side report of a SimulateTraffic response, one line per figure. */
export function renderWhatIf(res: SimulateTrafficResponse): string[] {
  const t = res.traffic!;
  const cols = [res.observed!, res.current!, res.candidate!];
  const row = (name: string, f: (o: TrafficOutcome) => string) =>
    `${name.padEnd(26)}${cols.map((o) => f(o).padStart(12)).join("")}`;
  const iso = (x: Timestamp | undefined) => (x ? timestampDate(x).toISOString() : "-");
  return [
    `Traffic of ${t.branch}, ${iso(t.since)} to ${iso(t.until)}:`,
    `  ${t.pullRequests} pull requests (${fixed(t.arrivalsPerHour, 1)}/h), ${t.failedAlone} broke the build, ${t.withdrawn} withdrawn`,
    `  ${t.ciRuns} CI runs concluded: p50 ${fixed(t.ciP50Seconds, 1)} s, p95 ${fixed(t.ciP95Seconds, 1)} s; draft ${fixed(t.draftSeconds, 1)} s, merge ${fixed(t.mergeSeconds, 1)} s; flake rate ${fixed(t.flakeRate * 100, 1)}%; ${t.outsidePushes} outside pushes`,
    `  ${t.ignoredFailures} failures ignored (quarantined tests), ${t.retries} retries (known flaky tests)`,
    `Assumed: ${t.tests?.note ?? "nothing of the tests"}`,
    "",
    "".padEnd(26) + ["observed", "current", "candidate"].map((h) => h.padStart(12)).join(""),
    row("merges", (o) => String(o.merges)),
    row("time in queue p50 (min)", (o) => fixed(o.timeInQueueP50Seconds / 60, 2)),
    row("time in queue p95 (min)", (o) => fixed(o.timeInQueueP95Seconds / 60, 2)),
    row("CI runs", (o) => String(o.ciRuns)),
    row("CI runs per merge", (o) => fixed(o.ciRunsPerMerge, 2)),
    row("CI hours per merge", (o) => fixed(o.ciHoursPerMerge, 3)),
    row("batches", (o) => String(o.batches)),
    row("bisections", (o) => String(o.bisections)),
    row("retries (known flaky)", (o) => String(o.retries)),
    row("ignored failures", (o) => String(o.ignoredFailures)),
    row("still queued", (o) => String(o.stillQueued)),
    "",
    "dequeues by code:",
    `  observed:  ${codes(res.observed!)}`,
    `  current:   ${codes(res.current!)}`,
    `  candidate: ${codes(res.candidate!)}`,
  ];
}

/** Adds `whatif` to the CLI. */
export function registerWhatIf(program: Command): void {
  program
    .command("whatif")
    .description("what a configuration would have done to the repository's recorded traffic (docs/what-if.md)")
    .requiredOption("--repo <owner/name>", "the repository", parseRepoArgument)
    .requiredOption("--config <file>", "the candidate configuration (YAML)")
    .option("--since <when>", 'start of the window: a duration before now ("30d") or a date-time', parseWhen)
    .option("--until <when>", "end of the window (default: now)", parseWhen)
    .option("--branch <name>", "the base branch (default: the one with the most arrivals)")
    .option("--json", "print the response as JSON")
    .action(
      async (o: {
        repo: { owner: string; repository: string };
        config: string;
        since?: Timestamp;
        until?: Timestamp;
        branch?: string;
        json?: boolean;
      }) => {
        const serviceYml = await readFile(o.config, "utf8").catch(() => {
          throw new Error(`--config: cannot read ${o.config}`);
        });
        const client = await serviceClient(SimulatorService, readSettings());
        const res = await client.simulateTraffic({
          ...o.repo,
          since: o.since ?? parseWhen("30d"),
          until: o.until,
          serviceYml,
          branch: o.branch ?? "",
        });
        if (o.json) out(JSON.stringify(toJson(SimulateTrafficResponseSchema, res, { useProtoFieldName: true })));
        else for (const line of renderWhatIf(res)) out(line);
      },
    );
}
