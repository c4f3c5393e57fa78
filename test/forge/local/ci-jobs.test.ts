/**
 * The local CI wired into the forge (docs/local-forge.md "CI jobs"): a pull request's head gets a
 * durable job; the worker runs `.yardmaster/ci.yml` at that commit and reports success, failure
 * and timeout as check runs (pending first), each write a `checks_changed`; a superseded job is
 * cancelled, queued or running; a job left by a crashed worker (a real process, killed) or by a
 * clean stop runs again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localForgeStore as store } from "../../../services/store/index.js";
import { eventually } from "../../support/eventually.js";
import { ROOT } from "../../support/server-process.js";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

let w: ForgeWorld;
let repo: Widgets;

const snapshot = worldSnapshot({ "README.md": "hello\n" }, async () => undefined);
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({ world: w, repo } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

const ciFile = (checks: string) => ({ ".yardmaster/ci.yml": `checks:\n${checks}` });
const runs = async (sha: string) => store.newestCheckRunsOfCommit(w.db.pool, 1, sha);
const jobs = async (sha: string) => (await store.ciJobsOfCommit(w.db.pool, 1, sha)).map((j) => j.state);

describe("check runs from the local CI", () => {
  it("reports success, failure and timeout, pending first, each write a checks_changed", async () => {
    const sha = await repo.push(
      "feature",
      repo.src.root,
      ciFile(
        "  - {name: pass, run: 'echo all good'}\n  - {name: fail, run: 'echo broken >&2; exit 3'}\n  - {name: slow, run: 'sleep 30', timeout: 1}\n",
      ),
    );
    const n = await repo.open("feature");
    expect(
      (await w.forge.getPullRequest(REPO, n)).checks.map((c) => [c.name, c.state, c.description, c.startedAt]),
    ).toEqual([
      ["fail", "pending", "queued", null],
      ["pass", "pending", "queued", null],
      ["slow", "pending", "queued", null],
    ]);
    w.events.take();
    await w.forge.ci.drain();
    const byName = Object.fromEntries((await runs(sha)).map((r) => [r.name, r]));
    expect([byName.pass!.state, byName.fail!.state, byName.slow!.state]).toEqual(["success", "failure", "timed_out"]);
    expect(byName.pass!.output).toBe("all good\n");
    expect(byName.fail!.output).toBe("broken\n");
    expect(byName.fail!.description).toMatch(/^failed with exit code 3/);
    expect(byName.slow!.description).toMatch(/^timed out/);
    for (const r of Object.values(byName))
      expect([r.app, r.startedAt !== null, r.completedAt !== null]).toEqual(["local-ci", true, true]);
    // Started and finished: two writes per check, each reported.
    expect(w.events.take()).toEqual(Array(6).fill({ kind: "checks_changed", repo: REPO, sha }));
    expect(await jobs(sha)).toEqual(["done"]);
    const snapshot = await w.forge.getPullRequest(REPO, n);
    expect(snapshot.checks.find((c) => c.name === "pass")?.state).toBe("success");
  });

  it("links each run to its log, which the forge reads back whole (GetCheckRunLog)", async () => {
    const sha = await repo.push("feature", repo.src.root, ciFile("  - {name: fail, run: 'echo broken >&2; exit 3'}\n"));
    const n = await repo.open("feature");
    await w.forge.ci.drain();
    const [run] = await runs(sha);
    const [check] = (await w.forge.getPullRequest(REPO, n)).checks;
    expect(check!.detailsUrl).toBe(`local-forge://${REPO}/check-runs/${run!.id}`);
    const read = await w.forge.readCheckRun(REPO, run!.id);
    expect([read.name, read.state, read.output, read.sha]).toEqual(["fail", "failure", "broken\n", sha]);
    await expect(w.forge.readCheckRun(REPO, run!.id + 1000)).rejects.toMatchObject({ kind: "not_found" });
    await expect(w.forge.readCheckRun("acme/nothing", run!.id)).rejects.toMatchObject({ kind: "not_found" });
  });

  it("reports a CI file that does not parse as a failed yardmaster/ci-config check", async () => {
    const sha = await repo.push("feature", repo.src.root, {
      ".yardmaster/ci.yml": "checks:\n  - {name: test, timout: 3}\n",
    });
    await repo.open("feature");
    await w.forge.ci.drain();
    expect((await runs(sha)).map((r) => [r.name, r.state])).toEqual([["yardmaster/ci-config", "failure"]]);
    expect((await runs(sha))[0]!.output).toMatch(/unknown key "timout"/);
  });

  it("runs nothing for a commit without a CI file", async () => {
    const sha = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
    await repo.open("feature");
    expect(await jobs(sha)).toEqual([]);
    expect(await w.forge.runChecks(REPO, "feature")).toEqual({ sha, checks: [] });
  });

  it("runs a speculative branch's checks, and again on demand with `ci run`", async () => {
    const head = await repo.push("feature", repo.src.root, ciFile("  - {name: test, run: 'test -f README.md'}\n"));
    await repo.open("feature");
    const spec = await w.forge.createSpeculativeBranch(REPO, "yardmaster/merge-queue/main/1", repo.src.root, [
      { number: 1, headSha: head },
    ]);
    await w.forge.ci.drain();
    const done = await runs(spec);
    expect(
      done.map((r) => r.state),
      done.map((r) => r.output).join("\n"),
    ).toEqual(["success"]);
    const first = (await runs(spec))[0]!.id;
    expect(await w.forge.runChecks(REPO, spec)).toEqual({ sha: spec, checks: ["test"] });
    expect((await runs(spec)).map((r) => [r.state, r.id > first])).toEqual([["pending", true]]);
    await w.forge.ci.drain();
    expect((await runs(spec)).map((r) => r.state)).toEqual(["success"]);
    expect(await jobs(spec)).toEqual(["done", "done"]);
    expect((await w.forge.runChecks(REPO, "#1")).sha).toBe(head);
    await expect(w.forge.runChecks(REPO, "no-such-thing")).rejects.toMatchObject({
      kind: "not_found",
      detail: { field: "ref" },
    });
  });
});

describe("superseded jobs", () => {
  it("cancels a queued job when the head moves, and runs the new head", async () => {
    const old = await repo.push("feature", repo.src.root, ciFile("  - {name: test, run: 'true'}\n"));
    await repo.open("feature");
    const next = await repo.push("feature", old, { "more.txt": "more\n" });
    expect(await jobs(old)).toEqual(["cancelled"]);
    expect((await runs(old)).map((r) => [r.state, r.description])).toEqual([["cancelled", "cancelled: superseded"]]);
    await w.forge.ci.drain();
    expect((await runs(next)).map((r) => r.state)).toEqual(["success"]);
    expect((await runs(old)).map((r) => r.state)).toEqual(["cancelled"]);
  });

  it("stops a running job when the head moves", async () => {
    const old = await repo.push("feature", repo.src.root, ciFile("  - {name: test, run: 'sleep 600'}\n"));
    w.forge.ci.start();
    // The pending run's creation, then the worker taking it.
    const running = w.events.next((e) => e.kind === "checks_changed" && e.sha === old, 2);
    await repo.open("feature");
    await running;
    const next = await repo.push("feature", old, ciFile("  - {name: test, run: 'true'}\n"));
    await w.forge.ci.drain();
    expect(await jobs(old)).toEqual(["cancelled"]);
    expect((await runs(old)).map((r) => r.state)).toEqual(["cancelled"]);
    expect((await runs(next)).map((r) => r.state)).toEqual(["success"]);
  });
});

describe("durability", () => {
  it("a clean stop puts a running job back in the queue, pending, and the next worker runs it", async () => {
    const marker = join(w.dir, "ran-once");
    const sha = await repo.push(
      "feature",
      repo.src.root,
      ciFile(`  - {name: test, run: 'if [ -f ${marker} ]; then exit 0; fi; touch ${marker}; sleep 600'}\n`),
    );
    w.forge.ci.start();
    await repo.open("feature");
    await eventually(() => readFile(marker));
    await w.forge.close();
    expect(await jobs(sha)).toEqual(["queued"]);
    expect((await runs(sha)).map((r) => r.state)).toEqual(["pending"]);
    await w.another().ci.drain();
    expect((await runs(sha)).map((r) => r.state)).toEqual(["success"]);
    expect((await store.ciJobsOfCommit(w.db.pool, 1, sha)).map((j) => [j.state, j.attempts])).toEqual([["done", 2]]);
  });

  it("a job left running by a crashed worker process runs again once its lease ran out", async () => {
    const marker = join(w.dir, "ran-once");
    const pidFile = join(w.dir, "pid");
    const sha = await repo.push(
      "feature",
      repo.src.root,
      ciFile(
        `  - {name: test, run: 'if [ -f ${marker} ]; then exit 0; fi; touch ${marker}; echo $$ > ${pidFile}; sleep 600'}\n`,
      ),
    );
    await repo.open("feature");
    const child = spawnWorker();
    try {
      await eventually(() =>
        readFile(pidFile, "utf8").then((t) => (t.trim() === "" ? Promise.reject(new Error("empty")) : t)),
      );
    } finally {
      await kill(child);
    }
    process.kill(-Number((await readFile(pidFile, "utf8")).trim()), "SIGKILL"); // the crashed worker's orphaned check
    expect(await jobs(sha)).toEqual(["running"]);
    expect((await runs(sha)).map((r) => [r.state, r.startedAt !== null])).toEqual([["pending", true]]);

    // Before the lease ran out, nobody takes the job; after, the next worker does.
    await w.another({ now: () => new Date() }).ci.drain();
    expect(await jobs(sha)).toEqual(["running"]);
    await w.another({ now: () => new Date(Date.now() + 3_600_000) }).ci.drain();
    expect((await runs(sha)).map((r) => r.state)).toEqual(["success"]);
    expect((await store.ciJobsOfCommit(w.db.pool, 1, sha)).map((j) => [j.state, j.attempts])).toEqual([["done", 2]]);
  });

  it("gives a job up as an error after its workers died three times", async () => {
    const sha = await repo.push("feature", repo.src.root, ciFile("  - {name: test, run: 'true'}\n"));
    await repo.open("feature");
    // Three workers claim it in turn and die: each lease runs out before the next claim.
    for (const second of [1, 2, 3]) {
      const claimed = await store.claimCiJob(w.db.pool, {
        owner: `dead-${second}`,
        now: new Date(second * 1000),
        leaseUntil: new Date(second * 1000 + 500),
      });
      expect(claimed?.attempts).toBe(second);
    }
    await w.forge.ci.drain();
    expect((await runs(sha)).map((r) => [r.state, r.description])).toEqual([
      ["error", "the CI runner stopped 3 times while running this check"],
    ]);
  });

  /** The worker process (support/ci-worker-process.ts) on this test's database and data directory. */
  function spawnWorker(): ChildProcess {
    return spawn(process.execPath, ["--import", "tsx", join(ROOT, "test/forge/local/support/ci-worker-process.ts")], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: w.db.url, YARDMASTER_DATA_DIR: join(w.dir, "data"), CI_TEMP_ROOT: w.dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
  }

  async function kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
});
