/**
 * `yardmaster tests list|show|quarantine|unquarantine` (docs/ci-insights.md "Quarantine"): a repository's
 * tests by health, one test's details and runs, and its quarantine, through CiInsightsService as
 * the admin. `show` and `unquarantine` take a test name (or a test id, a quarantine id), as
 * Mergify's `tests show` and `tests unquarantine` do.
 */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { CiInsightsService } from "../../../gen/yardmaster/v1/ci_insights_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";
import { parseRepoArgument } from "./repo.js";

type Repo = { owner: string; repository: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const client = () => serviceClient(CiInsightsService, readSettings());
/** A day's failures as a bar: ' ' none, then ▁▂▃▄▅▆▇█ relative to the busiest day. */
const sparkline = (days: readonly bigint[]) => {
  const max = Math.max(1, ...days.map(Number));
  return days.map((d) => (d === 0n ? "·" : "▁▂▃▄▅▆▇█"[Math.min(7, Math.floor((Number(d) / max) * 7.99))])).join("");
};

/** Adds `tests list|show|quarantine|unquarantine`. */
export function registerTests(program: Command): void {
  const tests = program.command("tests").description("CI Insights: tests, their health and quarantines");
  tests
    .command("list")
    .description("tests by health (broken, flaky, then healthy), with ratios and failures per day (14 days)")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .option("--branch <branch>", "the branch health is computed on (default: the default branch)")
    .option("--health <status...>", "only these: healthy, flaky, broken")
    .option("--limit <n>", "at most this many tests (a page)", "100")
    .option("--page-token <token>", "the page after the previous one (the token it printed)")
    .action(async (repo: Repo, o: { branch?: string; health?: string[]; limit: string; pageToken?: string }) => {
      const res = await (await client()).listTests({
        ...repo,
        branch: o.branch,
        healthStatus: o.health ?? [],
        perPage: Number(o.limit),
        pageToken: o.pageToken ?? "",
      });
      if (res.tests.length === 0 && !o.pageToken) return out(`no test has run on ${res.branch} in the window`);
      const n = res.totals;
      out(`health on ${res.branch}: ${n?.broken ?? 0n} broken, ${n?.flaky ?? 0n} flaky, ${n?.healthy ?? 0n} healthy`);
      for (const t of res.tests) {
        const q = t.quarantine ? "  [quarantined]" : "";
        out(
          `${t.healthStatus.padEnd(8)} ${sparkline(t.dailyFailures)}  fail ${pct(t.failureRatio).padStart(6)}  flaky ${pct(t.flakinessRatio).padStart(6)}  ${t.runs} runs  ${t.testName}${q}`,
        );
      }
      if (res.nextPageToken) out(`more: --page-token ${res.nextPageToken}`);
    });
  tests
    .command("show")
    .description("a test's health, ratios, first and last failure, quarantine and latest runs")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<test>", "the test's name, or its id")
    .option("--branch <branch>", "the branch health is computed on (default: the default branch)")
    .action(async (repo: Repo, test: string, o: { branch?: string }) => {
      const c = await client();
      const ids = UUID.test(test)
        ? [test]
        : (await c.searchTests({ ...repo, testName: [test] })).tests.map((t) => t.testId);
      if (ids.length === 0) throw new Error(`no test named "${test}" in ${repo.owner}/${repo.repository}`);
      for (const id of ids) {
        const d = await c.getTest({ ...repo, testId: id, branch: o.branch });
        const at = (t: typeof d.lastFailureAt) => (t ? timestampDate(t).toISOString() : "never");
        out(d.testName);
        out(`  test_id:        ${d.testId}`);
        out(`  pipeline:       ${d.pipelineName} › job: ${d.jobName}`);
        if (d.testFilepath) out(`  file:           ${d.testFilepath}`);
        out(`  health:         ${d.healthStatus} on ${d.branch} (${d.runs} runs)`);
        out(`  last result:    ${d.lastConclusion}`);
        out(`  success ratio:  ${pct(d.successRatio)}`);
        out(`  failure ratio:  ${pct(d.failureRatio)}`);
        out(`  flakiness:      ${pct(d.flakinessRatio)}`);
        out(
          `  first failure:  ${at(d.firstFailureAt)}${d.firstFailureCommit ? ` (${d.firstFailureCommit.slice(0, 7)})` : ""}`,
        );
        out(`  last failure:   ${at(d.lastFailureAt)}`);
        if (d.quarantine) out(`  quarantined:    ${d.quarantine.id} (${d.quarantine.source}) ${d.quarantine.reason}`);
        const runs = await c.listTestRuns({ ...repo, testId: id, limit: 10 });
        for (const r of runs.runs)
          out(
            `    ${timestampDate(r.receivedAt!).toISOString()}  ${r.outcome.padEnd(7)} ${r.durationMs} ms  ${r.branch} ${r.headSha.slice(0, 7)}`,
          );
      }
    });
  tests
    .command("quarantine")
    .description("quarantine a test: its failures no longer fail checks (on --branch, or every branch)")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<test>", "the test's name (<classname>.<name>)")
    .option("--reason <text>", "why", "")
    .option("--branch <branch>", "only on this branch")
    .option("--owner <who>", "who answers for the test while it is quarantined")
    .option("--expires <when>", "when it lifts itself: a date-time with offset, or a number of days")
    .action(
      async (repo: Repo, test: string, o: { reason: string; branch?: string; owner?: string; expires?: string }) => {
        let expiresAt;
        if (o.expires !== undefined) {
          const days = /^\d+$/.test(o.expires) ? Number(o.expires) : null;
          const when = days !== null ? new Date(Date.now() + days * 86_400_000) : new Date(o.expires);
          if (Number.isNaN(when.getTime()))
            throw new Error(`--expires: "${o.expires}" is neither a number of days nor a date-time`);
          expiresAt = timestampFromDate(when);
        }
        const res = await (await client()).createQuarantine({
          ...repo,
          testName: test,
          reason: o.reason,
          branch: o.branch,
          assignee: o.owner,
          expiresAt,
        });
        out(`quarantined "${test}"${o.branch ? ` on ${o.branch}` : ""} (id: ${res.id})`);
      },
    );
  tests
    .command("unquarantine")
    .description("lift a test's quarantine")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<test>", "the test's name, or the quarantine's id")
    .action(async (repo: Repo, test: string) => {
      const c = await client();
      const id = UUID.test(test)
        ? test
        : (await c.listQuarantines(repo)).quarantinedTests.find((q) => q.testName === test)?.id;
      if (id === undefined) throw new Error(`"${test}" is not quarantined`);
      await c.deleteQuarantine({ ...repo, id });
      out(`unquarantined ${test}`);
    });
}
