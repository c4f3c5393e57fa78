/**
 * ForgeService.PushBranch with `merge` (docs/local-forge.md "Pushing"): a commit merged into a
 * branch that moved meanwhile, as `yardmaster replay` pushes a change that landed without a pull
 * request. The merge is git's three-way merge; the move has the events of any push; a conflict
 * is FAILED_PRECONDITION naming the files and moves nothing.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { domainErrorToConnect } from "../../services/contracts/index.js";
import { readCommit } from "../../services/forge/local/git/index.js";
import { createWorld, REPO, widgets, type ForgeWorld, type Widgets } from "../forge/local/forge-fixture.js";
import { filesAt } from "../forge/local/git-fixture.js";

/** The answer the gateway gives a forge error (contracts/domain-error.ts). */
const toConnectError = (e: unknown): unknown => domainErrorToConnect(e) ?? e;

let w: ForgeWorld;
let repo: Widgets;

beforeEach(async () => {
  w = await createWorld();
  repo = await widgets(w, { "a.txt": "1\n", "shared.txt": "base\n" });
});
afterEach(async () => w.cleanup());

/** Pushes `sourceRef` of the source repository into `branch` with merge. */
const mergePush = (sourceRef: string, branch = "main", over: object = {}) =>
  w.forge.pushBranch({
    repo: REPO,
    fromPath: repo.src.path,
    sourceRef,
    branch,
    force: false,
    pusher: "ada",
    merge: true,
    ...over,
  });

describe("pushing with merge", () => {
  it("merges the commit into the moved tip with a merge commit, and merges the pull request whose head it brings", async () => {
    const outside = await repo.src.commit("outside", repo.src.root, { "b.txt": "b\n" }, "Outside change");
    const moved = await repo.push("main", repo.src.root, { "c.txt": "c\n" }, "Moved meanwhile");
    await repo.push("feature", repo.src.root, { "b.txt": "b\n" });
    // A pull request whose head is exactly the outside commit: the push brings it into main.
    await w.forge.pushBranch({
      repo: REPO,
      fromPath: repo.src.path,
      sourceRef: outside,
      branch: "feature",
      force: true,
      pusher: "ada",
    });
    const number = await repo.open("feature");
    w.events.take();

    const pushed = await mergePush(outside);

    expect(pushed.before).toBe(moved);
    const commit = await readCommit(repo.git, pushed.after);
    expect(commit.parents).toEqual([moved, outside]);
    expect(commit.message.trim()).toBe(`Merge ${outside} into main`);
    expect(await filesAt(repo.git, "main")).toEqual({
      "a.txt": "1\n",
      "shared.txt": "base\n",
      "b.txt": "b\n",
      "c.txt": "c\n",
    });
    expect(w.events.take()).toEqual([
      { kind: "branch_pushed", repo: REPO, branch: "main", before: moved, after: pushed.after, forced: false },
      { kind: "pull_request_closed", repo: REPO, number, merged: true, mergeCommitSha: pushed.after },
    ]);
  });

  it("synchronizes a pull request whose head branch it merges into, as any push does", async () => {
    const topic = await repo.push("topic", repo.src.root, { "t.txt": "t\n" });
    const number = await repo.open("topic");
    const onMain = await repo.src.commit("main-2", repo.src.root, { "m.txt": "m\n" });
    w.events.take();

    const pushed = await mergePush(onMain, "topic");

    expect(pushed.before).toBe(topic);
    expect(await filesAt(repo.git, "topic")).toMatchObject({ "t.txt": "t\n", "m.txt": "m\n" });
    expect(w.events.take()).toEqual([
      { kind: "branch_pushed", repo: REPO, branch: "topic", before: topic, after: pushed.after, forced: false },
      { kind: "pull_request_synchronized", repo: REPO, number, headSha: pushed.after, by: "ada" },
    ]);
  });

  it("changes nothing when the tip already contains the commit", async () => {
    const tip = await repo.push("main", repo.src.root, { "c.txt": "c\n" });
    w.events.take();
    expect(await mergePush(repo.src.root)).toEqual({ before: tip, after: tip });
    expect(await mergePush(tip)).toEqual({ before: tip, after: tip });
    expect(w.events.take()).toEqual([]);
  });

  it("refuses a conflict with FAILED_PRECONDITION naming the file, and moves nothing", async () => {
    const theirs = await repo.src.commit("theirs", repo.src.root, { "shared.txt": "theirs\n" });
    const tip = await repo.push("main", repo.src.root, { "shared.txt": "ours\n" });
    w.events.take();

    const refused = await mergePush(theirs).catch((e: unknown) => e);

    expect(refused).toMatchObject({
      kind: "conflict",
      detail: { field: "source_ref", rpc: "failed_precondition" },
      message: /conflict in shared\.txt/,
    });
    const status = toConnectError(refused);
    expect(status).toBeInstanceOf(ConnectError);
    expect((status as ConnectError).code).toBe(Code.FailedPrecondition);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(tip);
    expect(w.events.take()).toEqual([]);
  });

  const refusals: [string, () => Promise<unknown>, object][] = [
    [
      "a branch that does not exist",
      () => mergePush("main", "nowhere"),
      { kind: "not_found", detail: { field: "branch" } },
    ],
    [
      "merge together with force",
      () => mergePush("main", "main", { force: true }),
      { kind: "invalid", detail: { field: "merge" } },
    ],
    [
      "a revision the source lacks",
      () => mergePush("no-such-ref"),
      { kind: "not_found", detail: { field: "source_ref" } },
    ],
  ];
  it.each(refusals)("refuses %s, naming the field", async (_name, attempt, error) => {
    const tip = await w.forge.getBranchSha(REPO, "main");
    await expect(attempt()).rejects.toMatchObject(error);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(tip);
  });
});
