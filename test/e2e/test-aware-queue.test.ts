/**
 * docs/merge-queue.md "Verdicts from test results", "Try it on the local forge", run as written
 * against a real server process: the first shell block (a repository whose CI writes JUnit
 * reports, twelve pull requests, CI Insights on, a quarantine, a known flaky test) runs in an
 * empty directory with bash (`set -e`), `yardmaster` being the checkout's bin/yardmaster.js on the
 * PATH; each of the four next blocks queues one batch and waits until the queue is empty, then
 * the test checks what the page says of it: a batch failing only on a quarantined test is merged
 * and the log names the ignored failure; a batch failing on a new test is bisected and the culprit
 * dequeued; a batch whose failing test failed in one member's own CI checks that member alone
 * first and dequeues it after one round; a batch failing on a known flaky test is merged after one
 * logged re-run, with no bisection.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docBlocks, startWalkthrough, type Walkthrough } from "../support/doc-walkthrough.js";
import { eventually } from "../support/eventually.js";
import { restCall } from "../support/rest-client.js";
import type { ServerProcess } from "../support/server-process.js";

let walk: Walkthrough;
let server: ServerProcess;
let blocks: string[];

/** Runs `script` with bash in the scenario's directory; fails with its output when it fails. */
const bash = (script: string): Promise<string> => walk.run(script);

interface LogEvent {
  pull_request: number | null;
  type: string;
  metadata: Record<string, any>;
}

async function events(type: string, pull?: number): Promise<LogEvent[]> {
  const query = `event_type=${type}&per_page=100${pull === undefined ? "" : `&pull_request=${pull}`}`;
  const res = await restCall(server, "GET", `/v1/repos/acme/shop/logs?${query}`);
  expect(res.status).toBe(200);
  return (res.json.events as LogEvent[]).reverse();
}

async function state(n: number): Promise<string> {
  const res = await restCall(server, "POST", "/yardmaster.v1.ForgeService/GetPullRequest", {
    owner: "acme",
    repository: "shop",
    number: n,
  });
  return res.json.pull_request.state;
}

const leaveCode = async (n: number) => (await events("action.queue.leave", n)).map((e) => e.metadata.dequeue_code);

/** The events of `type` once at least `count` of them reached the log (it is written by the outbox relay, after the merge). */
const logged = (type: string, pull: number | undefined, count = 1) =>
  eventually(async () => {
    const found = await events(type, pull);
    expect(found.length).toBeGreaterThanOrEqual(count);
    return found;
  });

beforeAll(async () => {
  blocks = await docBlocks("merge-queue.md", "### Try it on the local forge", "sh", "## Verdicts from test results");
  if (blocks.length !== 5) throw new Error(`expected the set-up block and four batches, found ${blocks.length} blocks`);
  walk = await startWalkthrough({ name: "test-aware", repository: "shop" });
  server = walk.server;
  await bash(blocks[0]!);
}, 300_000);

afterAll(async () => {
  await walk?.close();
});

describe("docs/merge-queue.md, the queue that knows its tests, on the local forge as written", () => {
  it("merges a batch failing only on a quarantined test, the log and the summary naming the ignored failure", async () => {
    await bash(blocks[1]!);
    for (const n of [1, 2, 3]) expect(await state(n), `#${n}`).toBe("merged");
    await logged("action.queue.leave", 1);
    const ends = (await events("action.queue.checks_end", 1)).filter((e) => !e.metadata.aborted);
    expect(ends.at(-1)!.metadata).toMatchObject({
      ignored_failing_tests: ["app.clock"],
      test_results_note: "passed: its only failing tests are quarantined (1): app.clock",
      speculative_check_pull_request: { checks_conclusion: "success" },
    });
    const draft = ends.at(-1)!.metadata.speculative_check_pull_request.number;
    const shown = await bash(`yardmaster pr show acme/shop ${draft}`);
    expect(shown).toMatch(/Yardmaster\s+success\s+Batch \d+ passed: quarantined failing tests ignored/);
    expect(await events("ci_insights.job_retried")).toEqual([]);
  }, 180_000);

  it("bisects a batch failing on a test never seen before, and dequeues the culprit", async () => {
    await bash(blocks[2]!);
    await logged("action.queue.leave", 5);
    expect(await leaveCode(5)).toEqual(["CHECKS_FAILED"]);
    for (const n of [4, 6]) expect(await state(n), `#${n}`).toBe("merged");
    const starts = await events("action.queue.batch_bisection_start", 4);
    expect(starts.map((e) => e.metadata.split_strategy)).toEqual(expect.arrayContaining(["halving"]));
    expect(starts.every((e) => e.metadata.split_strategy === "halving")).toBe(true);
    const end = (await events("action.queue.checks_end", 5)).find((e) => e.metadata.test_results_note);
    expect(end!.metadata.test_results_note).toContain("app.login");
    expect(await events("ci_insights.job_retried")).toEqual([]);
  }, 180_000);

  it("checks alone first the member whose own CI failed the failing test, and dequeues it after one round", async () => {
    await bash(blocks[3]!);
    await Promise.all([7, 8, 9].map((n) => logged("action.queue.leave", n)));
    expect(await leaveCode(8)).toEqual(["CHECKS_FAILED"]);
    for (const n of [7, 9]) expect(await state(n), `#${n}`).toBe("merged");
    const starts = [7, 8, 9].map(async (n) =>
      (await events("action.queue.batch_bisection_start", n)).map((e) => e.metadata),
    );
    for (const list of await Promise.all(starts)) {
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        split_strategy: "suspect_first",
        suspect_pr_number: 8,
        suspect_reason: "failed_in_own_ci",
        bisection_depth: 0,
      });
    }
    const checked = (await events("action.queue.checks_start", 8)).map((e) => e.metadata);
    expect(checked.at(-1)).toMatchObject({
      pull_request_numbers: [8],
      batch_name: expect.stringMatching(/^Sub-batch /),
    });
    expect(checked.at(-1)!.start_reason).toContain("checking #8 alone");
  }, 180_000);

  it("re-runs a batch failing on a known flaky test once, logged, with no bisection, and merges it", async () => {
    await bash(blocks[4]!);
    for (const n of [10, 11, 12]) expect(await state(n), `#${n}`).toBe("merged");
    // Leaves are logged after the retry and the pass that merged them.
    await Promise.all([10, 11, 12].map((n) => logged("action.queue.leave", n)));
    const retried = await events("ci_insights.job_retried");
    expect(retried).toHaveLength(1);
    expect(retried[0]!.metadata).toMatchObject({
      rule_name: "known flaky tests",
      outcome: "retried",
      retry_mode: "job",
    });
    expect(retried[0]!.metadata.condition_matches[0].failing_tests).toEqual(["app.flaky"]);
    for (const n of [10, 11, 12]) expect(await events("action.queue.batch_bisection_start", n)).toEqual([]);
  }, 180_000);
});
