import { execFileSync } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CI_CONFIG_CHECK,
  CiSlots,
  runCommitChecks,
  type CheckResult,
  type CiRunnerDeps,
} from "../../../services/forge/local/ci/index.js";
import { isRunning } from "../../../services/store/process-state.js";
import { eventually } from "../../support/eventually.js";
import { at, createTestRepo, git, type TestRepo } from "./git-fixture.js";

let t: TestRepo;
let scratch: string;
let tempRoot: string;
let tick: number;

beforeEach(async () => {
  t = await createTestRepo({ "README.md": "hello\n", "marker.txt": "first\n" });
  scratch = await mkdtemp(join(tmpdir(), "yardmaster-ci-scratch-"));
  tempRoot = await mkdtemp(join(tmpdir(), "yardmaster-ci-trees-"));
  tick = 0;
});
afterEach(async () => {
  await t.cleanup();
  await rm(scratch, { recursive: true, force: true });
  await rm(tempRoot, { recursive: true, force: true });
});

/** Runner dependencies with a counting clock (minute n of 2024-01-01) and a short kill grace. */
function deps(slots: number | CiSlots = 2, extra: Partial<CiRunnerDeps> = {}): CiRunnerDeps {
  return {
    slots: typeof slots === "number" ? new CiSlots(slots) : slots,
    now: () => at(tick++),
    tempRoot,
    killGraceMs: 500,
    ...extra,
  };
}

/** A commit on top of root whose `.yardmaster/ci.yml` is `yaml` (plus `files`). */
function commitWithCi(yaml: string, files: Record<string, string> = {}): Promise<string> {
  return t.commit(t.root, { ".yardmaster/ci.yml": yaml, ...files }, "ci");
}

/** Records start and end events in the order they happen. */
function recorder() {
  const events: string[] = [];
  const completed: CheckResult[] = [];
  return {
    events,
    completed,
    onStarted: (e: { name: string }) => void events.push(`start ${e.name}`),
    onCompleted: (r: CheckResult) => {
      events.push(`end ${r.name}`);
      completed.push(r);
    },
  };
}

/** Most checks running at once, from a start/end event log. */
function maxRunning(events: string[]): number {
  let running = 0;
  let max = 0;
  for (const e of events) {
    running += e.startsWith("start") ? 1 : -1;
    max = Math.max(max, running);
  }
  return max;
}

/** Resolves with the first data a check writes into the FIFO `path` (the check says it is running). */
function fifoMessage(path: string): Promise<string> {
  execFileSync("mkfifo", [path]);
  return new Promise((resolve, reject) => {
    const stream = createReadStream(path, { encoding: "utf8" });
    stream.once("data", (data) => {
      stream.destroy();
      resolve(String(data));
    });
    stream.once("error", reject);
  });
}

describe("local CI runner", () => {
  it("reports success and failure with exit codes, captured output and the CI environment", async () => {
    const sha = await commitWithCi(
      [
        "checks:",
        "  - name: test",
        '    run: echo "out $YARDMASTER_CHECK $YARDMASTER_SHA CI=$CI"; echo "to stderr" >&2; cat marker.txt',
        "  - name: lint",
        "    run: echo before; exit 3",
      ].join("\n"),
      { "marker.txt": "second\n" },
    );
    const log = recorder();
    const results = await runCommitChecks(deps(), { repo: t.repo, sha, ...log });
    expect(results.map((r) => [r.name, r.state, r.exitCode])).toEqual([
      ["test", "success", 0],
      ["lint", "failure", 3],
    ]);
    expect(results[0]!.output).toBe(`out test ${sha} CI=true\nto stderr\nsecond\n`);
    expect(results[1]!.output).toBe("before\n");
    expect(log.events.filter((e) => e.startsWith("end")).sort()).toEqual(["end lint", "end test"]);
    for (const r of results) expect(r.startedAt!.getTime()).toBeLessThan(r.completedAt.getTime());
  });

  it("runs each check in a work tree of that exact commit and removes it afterwards", async () => {
    const yaml = "checks:\n  - {name: marker, run: 'cat marker.txt; git rev-parse HEAD'}\n";
    const older = await commitWithCi(yaml);
    const newer = await t.commit(older, { "marker.txt": "newer\n" }, "newer");
    const [onOlder] = await runCommitChecks(deps(), { repo: t.repo, sha: older });
    const [onNewer] = await runCommitChecks(deps(), { repo: t.repo, sha: newer });
    expect(onOlder!.output).toBe(`first\n${older}\n`);
    expect(onNewer!.output).toBe(`newer\n${newer}\n`);
    expect(await readdir(tempRoot)).toEqual([]);
    expect(await git(t.repo, ["worktree", "list", "--porcelain"])).not.toMatch(/yardmaster-ci-/);
  });

  it("checks out without registering a work tree in the bare repository, which a push could trip on", async () => {
    // A registered work tree has a null HEAD while git creates it: a push then failed with
    // "bad object worktrees/.../HEAD". The check's repository is a clone borrowing the objects.
    const sha = await commitWithCi("checks:\n  - {name: where, run: 'git rev-parse --absolute-git-dir'}\n");
    const [result] = await runCommitChecks(deps(), { repo: t.repo, sha });
    expect(result!.state).toBe("success");
    expect(result!.output.trim().startsWith(tempRoot)).toBe(true);
    expect(await git(t.repo, ["worktree", "list", "--porcelain"])).not.toMatch(/yardmaster-ci-/);
  });

  it("kills a check that exceeds its timeout, with its children", async () => {
    const pidFile = join(scratch, "child.pid");
    const sha = await commitWithCi(
      `checks:\n  - name: slow\n    timeout: 1 s\n    run: 'sleep 30 & echo $! > ${pidFile}; echo waiting; wait'\n`,
    );
    const [result] = await runCommitChecks(deps(), { repo: t.repo, sha });
    expect(result).toMatchObject({ name: "slow", state: "timed_out", exitCode: null });
    expect(result!.output).toMatch(/^waiting\n[\s\S]*timed out after 1 s; process group killed/);
    expect(await isRunning(Number(await readFile(pidFile, "utf8")))).toBe(false);
    expect(await readdir(tempRoot)).toEqual([]);
  });

  it("reports no checks for a commit without .yardmaster/ci.yml", async () => {
    const log = recorder();
    expect(await runCommitChecks(deps(), { repo: t.repo, sha: t.root, ...log })).toEqual([]);
    expect(log.events).toEqual([]);
  });

  it("reports one failed yardmaster/ci-config check for a broken ci.yml", async () => {
    const sha = await commitWithCi("checks:\n  - {name: test, run: npm test, timeout: whenever}\n");
    const log = recorder();
    const results = await runCommitChecks(deps(), { repo: t.repo, sha, ...log });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: CI_CONFIG_CHECK, state: "failure", exitCode: null });
    expect(results[0]!.output).toMatch(/checks → item 1 → timeout: invalid duration "whenever"/);
    expect(log.events).toEqual([`start ${CI_CONFIG_CHECK}`, `end ${CI_CONFIG_CHECK}`]);
  });

  it("cancels a running check (killing its process group) and checks still waiting for a slot", async () => {
    const fifo = join(scratch, "ready");
    const pidFile = join(scratch, "child.pid");
    const sha = await commitWithCi(
      `checks:\n  - name: long\n    run: 'sleep 30 & echo $! > ${pidFile}; echo ready > ${fifo}; wait'\n  - name: queued\n    run: 'true'\n`,
    );
    const ready = fifoMessage(fifo);
    const controller = new AbortController();
    const log = recorder();
    const run = runCommitChecks(deps(1), { repo: t.repo, sha, signal: controller.signal, ...log });
    await ready;
    controller.abort();
    const results = await run;
    expect(results.map((r) => [r.name, r.state, r.exitCode])).toEqual([
      ["long", "cancelled", null],
      ["queued", "cancelled", null],
    ]);
    expect(results[1]!.startedAt).toBeNull();
    expect(log.events).toEqual(["start long", "end queued", "end long"]);
    expect(await isRunning(Number(await readFile(pidFile, "utf8")))).toBe(false);
    expect(await readdir(tempRoot)).toEqual([]);
  });

  it("starts scripts from the launcher's helper process, not from the server's", async () => {
    const sha = await commitWithCi(
      'checks:\n  - {name: parent, run: \'cat /proc/$PPID/cmdline | tr "\\\\0" " "; echo; echo $PPID\'}\n',
    );
    const [result] = await runCommitChecks(deps(), { repo: t.repo, sha });
    expect(result!.state).toBe("success");
    const [cmdline, ppid] = result!.output.trim().split("\n");
    expect(cmdline).toMatch(/launcher-child\.cjs/);
    expect(Number(ppid)).not.toBe(process.pid);
  });

  it("reports an error and kills the script's process group when the launcher's helper dies", async () => {
    const fifo = join(scratch, "ready");
    const pidFile = join(scratch, "child.pid");
    const sha = await commitWithCi(
      `checks:\n  - name: long\n    run: 'sleep 30 & echo $! > ${pidFile}; echo $PPID > ${fifo}; wait'\n`,
    );
    const ready = fifoMessage(fifo);
    const run = runCommitChecks(deps(), { repo: t.repo, sha });
    const helper = Number((await ready).trim());
    process.kill(helper, "SIGKILL");
    const [result] = await run;
    expect(result).toMatchObject({ name: "long", state: "error", exitCode: null });
    expect(result!.output).toMatch(/the process launcher exited \(SIGKILL\); process group killed/);
    // SIGKILL is sent to the group before the result; the kernel ends the orphaned `sleep` (and
    // init reaps it) a moment later, which a loaded machine can make longer than this await.
    const orphan = Number(await readFile(pidFile, "utf8"));
    await eventually(async () => expect(await isRunning(orphan)).toBe(false), 5_000, 20);
    expect(await readdir(tempRoot)).toEqual([]);
    const [after] = await runCommitChecks(deps(), {
      repo: t.repo,
      sha: await commitWithCi("checks:\n  - {name: again, run: 'true'}\n"),
    });
    expect(after!.state).toBe("success");
  });

  it("runs one check at a time with one slot", async () => {
    const sha = await commitWithCi(
      "checks:\n  - {name: a, run: 'true'}\n  - {name: b, run: 'false'}\n  - {name: c, run: 'true'}\n",
    );
    const log = recorder();
    await runCommitChecks(deps(1), { repo: t.repo, sha, ...log });
    expect(log.events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("shares the slot limit across runs, and fills every slot", async () => {
    // Each check waits until two checks have started: with two slots, two run together.
    const barrier = `touch ${scratch}/$YARDMASTER_CHECK-$YARDMASTER_SHA; until [ $(ls ${scratch} | wc -l) -ge 2 ]; do sleep 0.02; done`;
    const yaml = `checks:\n${["a", "b", "c"].map((n) => `  - {name: ${n}, timeout: 20 s, run: '${barrier}'}`).join("\n")}\n`;
    const first = await commitWithCi(yaml);
    const second = await t.commit(first, { "other.txt": "x" }, "second commit");
    const slots = new CiSlots(2);
    const log = recorder();
    const results = (
      await Promise.all([first, second].map((sha) => runCommitChecks(deps(slots), { repo: t.repo, sha, ...log })))
    ).flat();
    expect(results.map((r) => r.state)).toEqual(Array(6).fill("success"));
    expect(log.events.filter((e) => e.startsWith("start"))).toHaveLength(6);
    expect(maxRunning(log.events)).toBe(2);
    expect([slots.inUse, slots.waiting]).toEqual([0, 0]);
  });

  it("bounds the captured output to the last bytes", async () => {
    const sha = await commitWithCi("checks:\n  - {name: noisy, run: 'for i in $(seq 1 500); do echo line-$i; done'}\n");
    const [result] = await runCommitChecks(deps(2, { outputLimitBytes: 100 }), { repo: t.repo, sha });
    expect(result!.output).toMatch(/^\[yardmaster: \d+ earlier bytes of output dropped\]\n/);
    expect(result!.output.endsWith("line-500\n")).toBe(true);
    expect(result!.output).not.toContain("line-1\n");
  });

  it("passes every byte of a large output through the launcher, keeping the last ones", async () => {
    const sha = await commitWithCi(
      "checks:\n  - {name: flood, run: 'head -c 20000000 /dev/zero | tr \"\\\\0\" x; echo; echo the end'}\n",
    );
    const [result] = await runCommitChecks(deps(2, { outputLimitBytes: 100 }), { repo: t.repo, sha });
    expect(result!.state).toBe("success");
    // 20,000,000 x + newline + "the end\n" = 20,000,009 bytes, of which the last 100 are kept.
    expect(result!.output).toBe(`[yardmaster: 19999909 earlier bytes of output dropped]\n${"x".repeat(91)}\nthe end\n`);
  });

  it("reports an error when the work tree cannot be made", async () => {
    const sha = await commitWithCi("checks:\n  - {name: test, run: 'true'}\n");
    const [result] = await runCommitChecks(deps(2, { tempRoot: join(scratch, "missing", "dir") }), {
      repo: t.repo,
      sha,
    });
    expect(result).toMatchObject({ name: "test", state: "error", exitCode: null });
    expect(result!.output).toMatch(/ENOENT/);
  });

  it("tries a checkout that failed again before reporting an error", async () => {
    const sha = await commitWithCi("checks:\n  - {name: test, run: 'true'}\n");
    const later = join(scratch, "later");
    // The first attempt finds no directory to check out in; it appears before the retries.
    setTimeout(() => void mkdir(later), 20);
    const [result] = await runCommitChecks(deps(2, { tempRoot: later }), { repo: t.repo, sha });
    expect(result).toMatchObject({ name: "test", state: "success", exitCode: 0 });
    expect(await readdir(later)).toEqual([]);
  });

  it("refuses a commit that does not exist", async () => {
    await expect(runCommitChecks(deps(), { repo: t.repo, sha: "f".repeat(40) })).rejects.toMatchObject({
      kind: "not_found",
    });
  });
});
