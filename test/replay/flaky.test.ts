/**
 * Flaky tests in a history replay (docs/replay.md "Flaky tests"): the options, named in their
 * errors; the CI file, run for real with bash as the local CI runs it, failing exactly the runs
 * the rate spreads evenly, round robin over the named tests, with a JUnit report the project's own
 * reader reads; and the report's retries, ignored failures and good pull requests sent back.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  BROKEN_TEST,
  brokenMarker,
  CI_TEST,
  ciFile,
  DEFAULT_FLAKY_TESTS,
  DEFAULT_QUARANTINED_TESTS,
  flakyReport,
  formatReport,
  parseFlaky,
  parseReplayOptions,
  ReplayError,
  type LogEvent,
  type ReplayReport,
} from "../../services/replay/index.js";
import { parseJunit } from "../../services/test-reports/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ym-replay-flaky-"));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("--flaky options", () => {
  it("defaults to two known flaky tests and one quarantined one", () => {
    expect(parseFlaky({ flaky: "0.1" })).toEqual({
      rate: 0.1,
      known: DEFAULT_FLAKY_TESTS,
      quarantined: DEFAULT_QUARANTINED_TESTS,
    });
    expect(parseFlaky({ flaky: "1", flakyTests: "a.b, c", quarantinedTests: "" })).toEqual({
      rate: 1,
      known: ["a.b", "c"],
      quarantined: [],
    });
    expect(parseFlaky({})).toBeNull();
  });

  // biome-ignore format: a table, one row per line
  const refused: [Parameters<typeof parseFlaky>[0], RegExp][] = [
    [{ flaky: "0" }, /^--flaky: "0" must be a rate above 0 and at most 1/],
    [{ flaky: "1.5" }, /^--flaky: "1.5" must be a rate/],
    [{ flaky: "ten" }, /^--flaky: "ten" must be a rate/],
    [{ flakyTests: "a" }, /^--flaky-tests: needs --flaky RATE/],
    [{ quarantinedTests: "a" }, /^--quarantined-tests: needs --flaky RATE/],
    [{ flaky: "0.1", flakyTests: "a b" }, /^--flaky-tests: "a b" is not a test name/],
    [{ flaky: "0.1", flakyTests: "x'y" }, /^--flaky-tests: "x'y" is not a test name/],
    [{ flaky: "0.1", flakyTests: CI_TEST }, /^--flaky-tests: "replay.ci" is not a test name/],
    [{ flaky: "0.1", flakyTests: "a,a" }, /^--flaky-tests: a is named twice/],
    [{ flaky: "0.1", flakyTests: "a", quarantinedTests: "a" }, /^--quarantined-tests: a is also in --flaky-tests/],
    [{ flaky: "0.1", flakyTests: "", quarantinedTests: "" }, /^--flaky-tests: name at least one flaky test/],
  ];
  it.each(refused)("refuses %j naming the option", (raw, message) => {
    expect(() => parseFlaky(raw)).toThrow(ReplayError);
    expect(() => parseFlaky(raw)).toThrow(message);
  });

  it("puts the tests' report in the replay's CI file, and leaves it as it was without --flaky", async () => {
    const plain = await parseReplayOptions({ from: ".", repo: "demo/shop" });
    expect(plain.flaky).toBeNull();
    expect(parse(plain.ciYml).checks[0].junit).toBeUndefined();
    const flaky = await parseReplayOptions({ from: ".", repo: "demo/shop", flaky: "0.2" });
    expect(flaky.flaky?.rate).toBe(0.2);
    expect(parse(flaky.ciYml).checks[0]).toMatchObject({ name: "replay", junit: ".yardmaster/replay-reports/*.xml" });
  });
});

describe("the CI file with flaky tests", () => {
  const tests = { rate: 0.25, known: ["net.timeout", "ui.render"], quarantined: ["clock.drift"] };
  let work: string;
  let tmp: string;
  beforeAll(async () => {
    work = path.join(dir, "work");
    tmp = path.join(dir, "tmp");
    await mkdir(work, { recursive: true });
    await mkdir(tmp, { recursive: true });
    execFileSync("git", ["init", "--quiet", work]);
  });

  /** One run of the check in `work` (each file has its own counter); its status and report. */
  async function run(ciYml: string) {
    const script = parse(ciYml).checks[0].run as string;
    const r = spawnSync("bash", ["-c", script], { cwd: work, encoding: "utf8", env: { ...process.env, TMPDIR: tmp } });
    const xml = await readFile(path.join(work, ".yardmaster/replay-reports/junit.xml"), "utf8");
    const failing = parseJunit(xml)
      .cases.filter((c) => c.outcome === "failed")
      .map((c) => c.name);
    const names = parseJunit(xml).cases.map((c) => c.name);
    return { status: r.status, stdout: r.stdout, failing, names };
  }

  it("fails exactly every fourth run at 0.25, on the named tests in turn, known flaky ones first", async () => {
    const file = ciFile("true", { tests, counter: "every-fourth" });
    const runs = [];
    for (let k = 1; k <= 12; k++) runs.push(await run(file));
    expect(runs.map((r) => r.status)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(runs.map((r) => r.failing.join())).toEqual(
      ["", "", "", "net.timeout", "", "", "", "ui.render", "", "", "", "clock.drift"].map(String),
    );
    expect(runs[0]!.names).toEqual([CI_TEST, "net.timeout", "ui.render", "clock.drift"]);
    expect(runs[3]!.stdout).toContain("spurious failure of net.timeout (run 4 of this replay's CI");
  });

  it("reports the command's failure and a pull request broken on purpose as tests of their own", async () => {
    const failing = await run(ciFile("echo checked; exit 3", { tests: { ...tests, rate: 0.001 }, counter: "failing" }));
    expect(failing).toMatchObject({ status: 1, failing: [CI_TEST] });
    expect(failing.stdout).toContain("checked");
    const marker = brokenMarker(2);
    await mkdir(path.dirname(path.join(work, marker.path)), { recursive: true });
    await writeFile(path.join(work, marker.path), marker.content);
    const broken = await run(ciFile("true", { tests: { ...tests, rate: 0.001 }, counter: "broken" }));
    expect(broken).toMatchObject({ status: 1, failing: [BROKEN_TEST] });
    expect(broken.stdout).toContain("broken on purpose by yardmaster replay --break: pull-2");
    await rm(path.join(work, ".yardmaster/replay-broken"), { recursive: true });
  });
});

describe("the flaky part of the report", () => {
  const event = (type: string, pullRequest: number, metadata: LogEvent["metadata"]): LogEvent =>
    ({ type, pullRequest, receivedAt: 0, metadata }) as LogEvent;
  const end = (members: number[], ignored?: string[]) =>
    members.map((n) =>
      event("action.queue.checks_end", n, {
        pull_request_numbers: members,
        batch_name: `Batch ${members[0]}`,
        ...(ignored ? { ignored_failing_tests: ignored } : {}),
      }),
    );

  it("counts the retries of the known flaky rule, one ignored failure per check, and good pull requests sent back", () => {
    const events = [
      event("ci_insights.job_retried", 9, { rule_name: "known flaky tests", outcome: "retried" }),
      event("ci_insights.job_retried", 10, { rule_name: "known flaky tests", outcome: "retried" }),
      event("ci_insights.job_retried", 11, { rule_name: "my retry rule", outcome: "retried" }),
      ...end([1, 2], ["clock.drift"]),
      ...end([3, 4]),
    ];
    const dequeued = [
      { order: 5, number: 5 },
      { order: 6, number: 6 },
    ];
    const r = flakyReport({ rate: 0.5, known: ["a"], quarantined: ["clock.drift"] }, events, dequeued, new Set([6]));
    expect(r).toEqual({
      rate: 0.5,
      known: ["a"],
      quarantined: ["clock.drift"],
      retries: 2,
      ignoredFailures: [{ batch: "Batch 1", tests: ["clock.drift"] }],
      goodSentBack: [5],
    });
  });
});

describe("the flaky part of the text report", () => {
  const report = {
    repository: "demo/flaky",
    mode: "merges",
    changes: 4,
    pullRequests: 4,
    merged: [1, 2, 4],
    mergedWithLater: [],
    dequeued: [{ order: 3, number: 3, code: "CHECKS_FAILED", reason: "" }],
    notQueued: [],
    broken: [],
    outsideChanges: { pushed: 0, refused: [] },
    ciRuns: 5,
    ciRunsCompleted: 5,
    ciRunsPerMerge: 5 / 3,
    timeInQueue: null,
    batches: 2,
    subBatches: 2,
    bisections: 1,
    log: { listed: {}, aggregated: {}, consistent: true },
    tree: { expected: "t1", actual: "t2", equal: false },
    wallSeconds: 10,
    speed: 60,
    ok: true,
  };

  it("says the tests, the retries, the ignored failures and the good pull requests sent back", () => {
    const flaky = {
      rate: 0.2,
      known: ["net.timeout"],
      quarantined: ["clock.drift"],
      retries: 2,
      ignoredFailures: [{ batch: "Batch 1", tests: ["clock.drift"] }],
      goodSentBack: [3],
    };
    const text = formatReport({ ...report, flaky } as ReplayReport);
    expect(text).toContain("flaky tests (--flaky 0.2): known flaky net.timeout; quarantined clock.drift");
    expect(text).toContain(
      "  retries (known flaky tests): 2; ignored failures (quarantined tests): 1 checks passed (clock.drift)",
    );
    expect(text).toContain("  good pull requests sent back: #3");
    expect(formatReport({ ...report, flaky: null } as ReplayReport)).not.toContain("flaky tests");
  });
});
