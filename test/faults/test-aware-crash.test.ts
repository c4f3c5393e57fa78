/**
 * A server killed between a batch check's failure on a known flaky test and the re-run of its
 * failed job, then started again on the same data directory and database, re-runs the job once and
 * merges each pull request once, with no bisection (docs/merge-queue.md "Verdicts from test
 * results"; docs/reliability.md "Crashes: every effect exactly once"). The repository's CI writes a
 * JUnit report in which `app.flaky` fails the first time a batch's merge commit is tested; the test
 * is known flaky on main (a failed and a passed run of one commit, uploaded). The failpoint kills
 * the first process once the re-run effect is recorded as started (before it is performed), or
 * once it is performed (before that is recorded: replayed, it must not run the job again). The
 * failed run ends a moment before the queue reads it, often after the round that reads it began:
 * the re-run is judged on runs that ended after the failed one, never on the failed one itself.
 * A server killed during a suspect-first bisection round (the suspect's own check just created)
 * checks the suspect alone once, dequeues it, and merges the others once. The restarted process
 * has no failpoint.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { restCall } from "../support/rest-client.js";
import { expectMergedExactlyOnce, faultWorld, rpc, type FaultWorld } from "./support/fault-world.js";

let world: FaultWorld | undefined;
let marker: string | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
  if (marker !== undefined) for (const f of await markerFiles(marker)) await rm(f, { force: true });
  marker = undefined;
});

/** The marker files of one scenario (outside every checkout, so a re-run of a commit sees them). */
async function markerFiles(prefix: string): Promise<string[]> {
  const dir = os.tmpdir();
  return (await readdir(dir)).filter((f) => f.startsWith(`${prefix}-`)).map((f) => path.join(dir, f));
}

/**
 * The CI: app.ok passes; app.flaky fails the first time each merge commit is tested (a marker
 * `<marker>-<sha>`); each run of a merge commit appends a line to `<marker>-<sha>.runs`.
 */
function ciScript(prefix: string): string {
  return [
    "mkdir -p reports",
    `seen="${os.tmpdir()}/${prefix}-$YARDMASTER_SHA"`,
    "status=0",
    "{",
    '  echo \'<testsuites><testsuite name="app"><testcase classname="app" name="ok"/>\'',
    "  git log -1 --format=%s | grep -q '^Merge of #' && echo run >> \"$seen.runs\"",
    "  if git log -1 --format=%s | grep -q '^Merge of #' && [ ! -e \"$seen\" ]; then",
    '    touch "$seen"; echo \'<testcase classname="app" name="flaky"><failure message="timing"/></testcase>\'; status=1',
    '  else echo \'<testcase classname="app" name="flaky"/>\'; fi',
    "  echo '</testsuite></testsuites>'",
    "} > reports/junit.xml",
    "exit $status",
    "",
  ].join("\n");
}

/** Uploads one JUnit report of `main`'s commit `sha` (run attempt `attempt`), as a CI would. */
async function upload(w: FaultWorld, sha: string, attempt: number, xml: string): Promise<void> {
  const query = new URLSearchParams({
    pipeline_name: "yardmaster-ci",
    job_name: "test",
    head_sha: sha,
    branch: "main",
    run_attempt: String(attempt),
  });
  const res = await fetch(`${w.server.url}/v1/repos/acme/faults/ci/junit?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${w.server.adminKey}`, "content-type": "application/xml" },
    body: xml,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** How many times the CI script ran merge commit `sha` (0 when never). */
async function scriptRuns(prefix: string, sha: string): Promise<number> {
  const text = await readFile(path.join(os.tmpdir(), `${prefix}-${sha}.runs`), "utf8").catch(() => "");
  return text.split("\n").length - 1;
}

/**
 * Starts a server armed with `failpoints` on a repository of three pull requests whose CI runs
 * `script` and writes JUnit reports, switches CI Insights on, makes `app.flaky` known flaky on
 * main (a failed and a passed run of main's commit, uploaded), and queues the pull requests.
 */
async function queuedWorld(failpoints: string, script: string): Promise<FaultWorld> {
  world = await faultWorld(3, { YARDMASTER_FAILPOINTS: failpoints }, "true", {
    queue: false,
    ci: "checks:\n  - name: test\n    run: sh ci.sh\n    junit: reports/*.xml\n",
    files: { "ci.sh": script },
  });
  const w = world;
  await rpc(w, "ProductService/SetProductEnabled", {
    owner: "acme",
    repository: "faults",
    product: "ci_insights",
    enabled: true,
  });
  const main = w.git("rev-parse", "main");
  const flaky = (failure: string) =>
    `<testsuite><testcase classname="app" name="flaky">${failure}</testcase></testsuite>`;
  await upload(w, main, 1, flaky('<failure message="timing"/>'));
  await upload(w, main, 2, flaky(""));
  for (const n of w.pulls)
    await rpc(w, "ForgeService/CommentPullRequest", {
      owner: "acme",
      repository: "faults",
      number: n,
      body: "@yardmaster queue",
    });
  return w;
}

/**
 * The local CI's runs of job `test`, in order (check runs have ids 1, 2, ... in a new database):
 * a re-run adds one; a job run again after a crash (its lease ran out) keeps its run.
 */
async function ciRuns(w: FaultWorld): Promise<{ sha: string; state: string }[]> {
  const runs: { sha: string; state: string }[] = [];
  for (let id = 1; id <= 500; id++) {
    const body = { owner: "acme", repository: "faults", check_run_id: id };
    const res = await restCall(w.server, "POST", "/yardmaster.v1.ForgeService/GetCheckRunLog", body);
    if (res.status === 404) return runs;
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    if (res.json.app === "local-ci" && res.json.name === "test")
      runs.push({ sha: res.json.sha, state: res.json.state });
  }
  throw new Error("more than 500 check runs");
}

describe("a server killed between a failure on a known flaky test and its re-run", () => {
  it.each([
    ["after the re-run was marked started, before it was performed", "runner.effect.rerun_checks.after-start"],
    ["after the re-run was performed, before it was recorded", "runner.effect.rerun_checks.after-perform"],
  ])(
    "(%s) re-runs the failed job once, with no bisection, and merges each pull request once",
    async (_, failpoint) => {
      marker = `ym-flaky-${randomBytes(4).toString("hex")}`;
      const w = await queuedWorld(`${failpoint}=kill`, ciScript(marker));
      expect(await w.died()).toContain(`failpoint ${failpoint}: kill`);
      await w.restart();
      await expectMergedExactlyOnce(w, 120_000);
      // The log is written by the outbox relay: wait for every merge's leave, then read the rest.
      await eventually(async () => expect((await w.events("action.queue.leave")).length).toBe(3));
      const retried = await w.events("ci_insights.job_retried");
      expect(retried.map((e: any) => e.metadata.rule_name)).toEqual(["known flaky tests"]);
      expect(await w.events("action.queue.batch_bisection_start")).toEqual([]);
      const ends = await w.events("action.queue.checks_end");
      expect(ends.map((e: any) => [e.pull_request, e.outcome]).sort()).toEqual([
        [1, "success"],
        [2, "success"],
        [3, "success"],
      ]);
      // The batch's commit has two runs of its job: the failed one and its one re-run, which passed.
      const draft = ends[0].metadata.speculative_check_pull_request.number;
      const head = (await rpc(w, "ForgeService/GetPullRequest", { owner: "acme", repository: "faults", number: draft }))
        .pull_request.head_sha;
      expect((await ciRuns(w)).filter((r) => r.sha === head).map((r) => r.state)).toEqual(["failure", "success"]);
      // The CI ran that commit at least twice (a job the kill cut short runs again, in the same run).
      expect(await scriptRuns(marker, head)).toBeGreaterThanOrEqual(2);
    },
    300_000,
  );
});

/**
 * The CI of the suspect-first scenario: `app.broken` (in file `changes/2.txt`) fails on every
 * merge commit holding #2's change; #2 is the only member whose diff touches that file.
 */
const BROKEN_BY_TWO = [
  "mkdir -p reports",
  "status=0",
  "{",
  '  echo \'<testsuites><testsuite name="app"><testcase classname="app" name="ok"/>\'',
  "  if git log -1 --format=%s | grep -q '^Merge of #' && [ -e changes/2.txt ]; then",
  '    echo \'<testcase classname="app" name="broken" file="changes/2.txt"><failure message="no"/></testcase>\'; status=1',
  '  else echo \'<testcase classname="app" name="broken" file="changes/2.txt"/>\'; fi',
  "  echo '</testsuite></testsuites>'",
  "} > reports/junit.xml",
  "exit $status",
  "",
].join("\n");

describe("a server killed during a suspect-first bisection round", () => {
  it("checks the suspect alone once, dequeues it once, and merges the others once", async () => {
    // The first draft is the batch's; the second, the suspect's own check in the bisection round.
    const failpoint = "runner.effect.create_speculative_check.after-perform";
    const w = await queuedWorld(`${failpoint}=1*off->kill`, BROKEN_BY_TWO);
    expect(await w.died()).toContain(`failpoint ${failpoint}: kill`);
    await w.restart();
    const state = async (n: number) =>
      (await rpc(w, "ForgeService/GetPullRequest", { owner: "acme", repository: "faults", number: n })).pull_request
        .state;
    await eventually(async () => expect([await state(1), await state(3)]).toEqual(["merged", "merged"]), 120_000, 500);
    const leaves = await eventually(async () => {
      const found = await w.events("action.queue.leave");
      expect(found.length).toBe(3);
      return found;
    }, 60_000);
    expect(leaves.map((e: any) => [e.pull_request, e.metadata.dequeue_code]).sort()).toEqual([
      [1, "PR_MERGED"],
      [2, "CHECKS_FAILED"],
      [3, "PR_MERGED"],
    ]);
    expect(await state(2)).toBe("open");
    const merges = w.firstParents().map((s) => /^Merge pull request #(\d+)/.exec(s)?.[1]);
    expect(merges.sort()).toEqual(["1", "3"]);
    // One bisection round, split suspect first: the suspect alone and the rest together.
    const rounds = await w.events("action.queue.batch_bisection_start");
    expect(rounds.map((e: any) => [e.pull_request, e.metadata.batch_name, e.metadata.split_strategy]).sort()).toEqual([
      [1, "Batch 1", "suspect_first"],
      [2, "Batch 1", "suspect_first"],
      [3, "Batch 1", "suspect_first"],
    ]);
    expect(rounds[0].metadata).toMatchObject({ suspect_pr_number: 2, suspect_reason: "touches_test_file" });
    expect(await w.events("ci_insights.job_retried")).toEqual([]);
  }, 300_000);
});
