/**
 * The queue runner over the real local forge and CI when branches change under the queue
 * (docs/domain.md §1.3, §3.9; docs/merge-queue.md rule 10): a deleted base branch
 * (BASE_BRANCH_MISSING), a pull request retargeted to another branch (BASE_BRANCH_CHANGED), commits pushed to a batch's draft pull request by someone else
 * (DRAFT_PULL_REQUEST_CHANGED, or with `allow_queue_branch_edit` the edited draft is what merges).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EngineState } from "../../services/engine/index.js";
import { CI_FILE, queueWorld, REPO, type QueueWorld } from "./queue-world.js";

let world: QueueWorld | undefined;
let gateDir: string;
beforeEach(async () => {
  gateDir = await mkdtemp(join(tmpdir(), "ym-gate-"));
});
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
  await rm(gateDir, { recursive: true, force: true });
});

/**
 * CI whose check keeps running until the test opens the gate (a file it creates), so the test acts
 * while the queue's check runs however slow the machine, and waits no longer than it must. A pull
 * request's own check (on its head SHA, which the queue waits for) passes once the test lets that
 * SHA through.
 */
const gatedCi = () =>
  CI_FILE.replace(
    'run: "test ! -e BROKEN"',
    `run: "test ! -e BROKEN && until [ -e ${join(gateDir, "open")} ] || [ -e ${join(gateDir, "$YARDMASTER_SHA")} ]; do sleep 0.05; done"`,
  );
const openGate = () => writeFile(join(gateDir, "open"), "");

/** Opens a pull request with `w.pull` and lets its own check through the gate. */
async function gatedPull(w: QueueWorld, ...args: Parameters<QueueWorld["pull"]>): Promise<number> {
  const n = await w.pull(...args);
  await writeFile(join(gateDir, (await w.forge.getPullRequest(REPO, n)).headSha), "");
  return n;
}

const config = (rule: string[] = ["    batch_size: 1"]) =>
  ["queue_rules:", "  - name: default", ...rule, "merge_queue:", "  max_parallel_checks: 2", ""].join("\n");

async function leaveOf(w: QueueWorld, number: number) {
  return w.until(async () => {
    const leave = (await w.loggedTypes()).find(
      (e) => e.type === "action.queue.leave" && Number(e.pull_request) === number,
    );
    expect(leave).toBeDefined();
    return leave!;
  });
}

/** The running draft check of the queue's first batch, once its CI runs. */
async function runningDraft(w: QueueWorld): Promise<{ branch: string; headSha: string; number: number }> {
  return w.until(async () => {
    const state = (await w.state()) as EngineState;
    const check = state.trains[0]?.batches[0]?.check;
    expect(check?.phase).toBe("running");
    return { branch: check!.branch!, headSha: check!.headSha!, number: check!.number! };
  });
}

describe("branches changed under the queue", () => {
  it("dequeues the pull requests of a deleted base branch with BASE_BRANCH_MISSING", async () => {
    world = await queueWorld(config(), { ".yardmaster/ci.yml": gatedCi() });
    const w = world;
    await w.branch("release");
    const n = await gatedPull(w, "fix", { "fix.txt": "fix\n" }, { base: "release" });
    await w.comment(n, "@yardmaster queue");
    await runningDraft(w);
    await w.forge.deleteBranchAs(REPO, "release", "ada");
    const leave = await leaveOf(w, n);
    expect(leave.metadata).toMatchObject({
      dequeue_code: "BASE_BRANCH_MISSING",
      merged: false,
      reason: "The base branch release was deleted",
    });
    expect((await w.state())?.pulls).toEqual({});
  });

  it("dequeues a pull request moved to another base branch with BASE_BRANCH_CHANGED", async () => {
    world = await queueWorld(config(), { ".yardmaster/ci.yml": gatedCi() });
    const w = world;
    await w.branch("release");
    const n = await gatedPull(w, "fix", { "fix.txt": "fix\n" });
    await w.comment(n, "@yardmaster queue");
    await runningDraft(w);
    await w.forge.editPullRequest(REPO, n, { base: "release" });
    const leave = await leaveOf(w, n);
    expect(leave.metadata).toMatchObject({
      dequeue_code: "BASE_BRANCH_CHANGED",
      merged: false,
      reason: "The base branch of the pull request changed from main to release",
    });
    expect(await w.forge.readFile(REPO, "main", "fix.txt")).toBeNull();
    expect((await w.forge.getPullRequest(REPO, n)).state).toBe("open");
  });

  it("dequeues a batch whose draft pull request got someone else's commit (DRAFT_PULL_REQUEST_CHANGED)", async () => {
    world = await queueWorld(config(), { ".yardmaster/ci.yml": gatedCi() });
    const w = world;
    const n = await gatedPull(w, "feature", { "feature.txt": "feature\n" });
    await w.comment(n, "@yardmaster queue");
    const draft = await runningDraft(w);
    await w.commitOnTop(draft.branch, { "extra.txt": "not reviewed\n" }, "mallory");
    const leave = await leaveOf(w, n);
    expect(leave.metadata).toMatchObject({ dequeue_code: "DRAFT_PULL_REQUEST_CHANGED", merged: false });
    expect(await w.forge.readFile(REPO, "main", "extra.txt")).toBeNull();
    expect((await w.forge.getPullRequest(REPO, n)).state).toBe("open");
  });

  it("with allow_queue_branch_edit, checks the edited draft again and merges exactly that tree", async () => {
    world = await queueWorld(
      config([
        "    batch_size: 2",
        '    batch_max_wait_time: "1 s"',
        "    merge_method: merge-batch",
        "    allow_queue_branch_edit: true",
      ]),
      { ".yardmaster/ci.yml": gatedCi() },
    );
    const w = world;
    const n = await gatedPull(w, "feature", { "feature.txt": "feature\n" });
    await w.comment(n, "@yardmaster queue");
    const draft = await runningDraft(w);
    const edited = await w.commitOnTop(draft.branch, { "fixup.txt": "maintainer fix\n" }, "maintainer");
    await openGate();
    const leave = await leaveOf(w, n);
    expect(leave.metadata).toMatchObject({ dequeue_code: "PR_MERGED", merged: true });
    // merge-batch: one merge commit of the edited draft, exactly the tree its check passed on.
    const { treeSha } = await w.forge.getBranch(REPO, "main");
    expect(treeSha).toBe(await w.treeOf(edited));
    expect(await w.forge.readFile(REPO, "main", "fixup.txt")).toBe("maintainer fix\n");
    expect(await w.forge.readFile(REPO, "main", "feature.txt")).toBe("feature\n");
    const ends = (await w.loggedTypes()).filter(
      (e) => e.type === "action.queue.checks_end" && Number(e.pull_request) === n,
    );
    expect(ends.map((e) => e.metadata.aborted)).toEqual([false]);
  });
});
