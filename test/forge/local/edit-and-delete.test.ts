/**
 * Retargeting a pull request (a new base, as GitHub's "Edit" button allows) and deleting a branch
 * as a person, on the local forge (docs/local-forge.md "CLI", "Events per action"): what reads
 * show afterwards, GitHub's refusals with their field and status, and the two ForgeService RPCs.
 */
import { Code, ConnectError, createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ForgeService } from "../../../gen/yardmaster/v1/forge_pb.js";
import { violationsOf } from "../../../services/contracts/index.js";
import { createForgeService } from "../../../services/forge/local/index.js";
import pino from "pino";
import { createAuthorizer } from "../../../services/auth/index.js";
import { createGuardInterceptor } from "../../../services/gateway/interceptors.js";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

let w: ForgeWorld;
let repo: Widgets;
/** Head of #1 (feature -> main, adds f.txt) and tip of `release` (main + r.txt). */
let head: string;
let release: string;

const snapshot = worldSnapshot({ "README.md": "hello\n" }, async (_, repo) => {
  const head = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
  const release = await repo.push("release", repo.src.root, { "r.txt": "r\n" });
  await repo.open("feature");
  return { head, release };
});
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({
    world: w,
    repo,
    built: { head, release },
  } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

describe("retargeting a pull request", () => {
  it("makes reads diff against the new base, with one pull_request_edited for the whole edit", async () => {
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({
      base: "main",
      baseSha: repo.src.root,
      commitsBehind: 0,
    });
    await w.forge.editPullRequest(REPO, 1, { title: "Feature for the release", body: "Backport", base: "release" });
    expect(w.events.take()).toEqual([{ kind: "pull_request_edited", repo: REPO, number: 1 }]);
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({
      title: "Feature for the release",
      body: "Backport",
      base: "release",
      baseSha: release,
      headSha: head,
      commitsBehind: 1,
      conflict: false,
      files: ["f.txt"],
    });
    expect((await w.forge.describePullRequest(REPO, 1)).pull.baseBranch).toBe("release");
  });

  it("shows a conflict with the new base, and edits nothing when the base is already that one", async () => {
    const clashing = await repo.push("clashing", repo.src.root, { "f.txt": "other f\n" });
    await w.forge.editPullRequest(REPO, 1, { base: "clashing" });
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({
      base: "clashing",
      baseSha: clashing,
      conflict: true,
    });
    w.events.take();
    await w.forge.editPullRequest(REPO, 1, { base: "clashing" });
    expect(w.events.take()).toEqual([]);
  });

  it("is merged by a push that brings its head into the new base, no longer by one into the old base", async () => {
    await w.forge.editPullRequest(REPO, 1, { base: "release" });
    await repo.push("main", head, { "m.txt": "m\n" });
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({ state: "open", base: "release" });
    const tip = await repo.push("release", head, { "r.txt": "r\n" }, "release with the feature", { force: true });
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({ state: "merged", mergeCommitSha: tip });
  });

  const refusals: [string, () => Promise<unknown>, object][] = [
    [
      "a base that does not exist",
      () => w.forge.editPullRequest(REPO, 1, { base: "nope" }),
      { kind: "not_found", detail: { field: "base" } },
    ],
    [
      "a base that is not a branch name",
      () => w.forge.editPullRequest(REPO, 1, { base: "a..b" }),
      { kind: "invalid", detail: { field: "base" } },
    ],
    [
      "the head branch as base",
      () => w.forge.editPullRequest(REPO, 1, { base: "feature" }),
      { kind: "invalid", detail: { field: "base" } },
    ],
    [
      "a closed pull request",
      async () => {
        await w.forge.closePullRequest(REPO, 1);
        w.events.take();
        return w.forge.editPullRequest(REPO, 1, { base: "release" });
      },
      { kind: "invalid", detail: { rpc: "failed_precondition" }, message: /#1 is closed/ },
    ],
    [
      "a base where another pull request from the same head is open",
      async () => {
        await repo.open("feature", { base: "release" });
        w.events.take();
        return w.forge.editPullRequest(REPO, 2, { base: "main" });
      },
      {
        kind: "invalid",
        detail: { field: "base", rpc: "already_exists" },
        message: /#1 from feature into main is already open/,
      },
    ],
    [
      "a base that already holds every commit of the head",
      async () => {
        await w.forge.pushBranch({
          repo: REPO,
          fromPath: repo.src.path,
          sourceRef: head,
          branch: "done",
          force: false,
          pusher: "ada",
        });
        w.events.take();
        return w.forge.editPullRequest(REPO, 1, { base: "done" });
      },
      {
        kind: "invalid",
        detail: { field: "base", rpc: "failed_precondition" },
        message: /no commits between done and feature/,
      },
    ],
  ];
  it.each(refusals)("refuses %s, changing nothing", async (_name, attempt, error) => {
    await expect(attempt()).rejects.toMatchObject(error);
    expect(w.events.take()).toEqual([]);
    expect((await w.forge.getPullRequest(REPO, 1)).base).toBe("main");
  });
});

describe("deleting a branch as a person", () => {
  it("reports the push of nothing and closes the pull requests into and from it", async () => {
    const topic = await repo.push("topic", release, { "t.txt": "t\n" });
    await repo.open("topic", { base: "release" });
    await repo.open("release");
    w.events.take();
    expect(await w.forge.deleteBranchAs(REPO, "release", "bob")).toBe(release);
    expect(w.events.take()).toEqual([
      { kind: "branch_pushed", repo: REPO, branch: "release", before: release, after: null, forced: false },
      { kind: "pull_request_closed", repo: REPO, number: 2, merged: false, mergeCommitSha: null },
      { kind: "pull_request_closed", repo: REPO, number: 3, merged: false, mergeCommitSha: null },
    ]);
    await expect(w.forge.getBranchSha(REPO, "release")).rejects.toMatchObject({ kind: "not_found" });
    // A closed pull request keeps the diff it had against the deleted base.
    expect(await w.forge.getPullRequest(REPO, 2)).toMatchObject({
      state: "closed",
      baseSha: release,
      headSha: topic,
      files: ["t.txt"],
    });
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({ state: "open" });
  });

  it("refuses the default branch and a branch that does not exist; the port's deletion stays quiet about the latter", async () => {
    await expect(w.forge.deleteBranchAs(REPO, "main", "bob")).rejects.toMatchObject({
      kind: "invalid",
      detail: { field: "branch", rpc: "failed_precondition" },
    });
    await expect(w.forge.deleteBranchAs(REPO, "ghost", "bob")).rejects.toMatchObject({
      kind: "not_found",
      detail: { field: "branch" },
    });
    await expect(w.forge.deleteBranchAs(REPO, "feature", "-bob")).rejects.toMatchObject({
      kind: "invalid",
      detail: { field: "pusher" },
    });
    await w.forge.deleteBranch(REPO, "ghost");
    expect(w.events.take()).toEqual([]);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(repo.src.root);
    expect(await w.forge.getPullRequest(REPO, 1)).toMatchObject({ state: "open" });
  });
});

const ADMIN_KEY = "admin-key-of-the-test";

describe("through ForgeService", () => {
  let client: Client<typeof ForgeService>;
  beforeEach(() => {
    // The gateway's own guard: it authenticates the admin key and answers refusals (docs/errors.md).
    const authorizer = createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } });
    const transport = createRouterTransport(({ service }) => service(ForgeService, createForgeService(w.forge)), {
      router: { interceptors: [createGuardInterceptor(authorizer, pino({ level: "silent" }))] },
      transport: {
        interceptors: [
          (next) => (req) => {
            req.header.set("authorization", `Bearer ${ADMIN_KEY}`);
            return next(req);
          },
        ],
      },
    });
    client = createClient(ForgeService, transport);
  });
  const at = { owner: "acme", repository: "widgets" };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => ConnectError.from(e),
    );

  it("EditPullRequest retargets and answers the updated pull request; an empty edit names what to give", async () => {
    const res = await client.editPullRequest({ ...at, number: 1n, base: "release" });
    expect(res.pullRequest).toMatchObject({
      number: 1n,
      base: "release",
      head: "feature",
      title: "Work on feature",
      state: "open",
    });
    expect(w.events.take()).toEqual([{ kind: "pull_request_edited", repo: REPO, number: 1 }]);

    const renamed = await client.editPullRequest({ ...at, number: 1n, title: "Renamed", body: "" });
    expect(renamed.pullRequest).toMatchObject({ title: "Renamed", body: "", base: "release" });

    const empty = await failure(client.editPullRequest({ ...at, number: 1n }));
    expect(empty?.code).toBe(Code.InvalidArgument);
    expect(violationsOf(empty!)).toEqual([
      { field: "title", description: "give at least one of title, body and base to change" },
    ]);
  });

  it("EditPullRequest answers NOT_FOUND, INVALID_ARGUMENT, ALREADY_EXISTS and FAILED_PRECONDITION", async () => {
    await repo.open("feature", { base: "release" });
    expect((await failure(client.editPullRequest({ ...at, number: 1n, base: "nope" })))?.code).toBe(Code.NotFound);
    const same = await failure(client.editPullRequest({ ...at, number: 1n, base: "feature" }));
    expect([same?.code, violationsOf(same!)[0]?.field]).toEqual([Code.InvalidArgument, "base"]);
    expect((await failure(client.editPullRequest({ ...at, number: 1n, title: " " })))?.code).toBe(Code.InvalidArgument);
    const duplicate = await failure(client.editPullRequest({ ...at, number: 2n, base: "main" }));
    expect([duplicate?.code, duplicate?.rawMessage]).toEqual([
      Code.AlreadyExists,
      "pull request #1 from feature into main is already open",
    ]);
    await client.closePullRequest({ ...at, number: 1n });
    expect((await failure(client.editPullRequest({ ...at, number: 1n, base: "release" })))?.code).toBe(
      Code.FailedPrecondition,
    );
    expect((await failure(client.editPullRequest({ ...at, number: 9n, title: "x" })))?.code).toBe(Code.NotFound);
  });

  it("DeleteBranch deletes, answering the old tip; the default branch is FAILED_PRECONDITION, an unknown one NOT_FOUND", async () => {
    expect(await client.deleteBranch({ ...at, branch: "feature", pusher: "bob" })).toMatchObject({ beforeSha: head });
    expect(w.events.take()).toEqual([
      { kind: "branch_pushed", repo: REPO, branch: "feature", before: head, after: null, forced: false },
      { kind: "pull_request_closed", repo: REPO, number: 1, merged: false, mergeCommitSha: null },
    ]);
    const main = await failure(client.deleteBranch({ ...at, branch: "main" }));
    expect([main?.code, main?.rawMessage]).toEqual([
      Code.FailedPrecondition,
      "main is the default branch of acme/widgets; it cannot be deleted",
    ]);
    const gone = await failure(client.deleteBranch({ ...at, branch: "feature" }));
    expect([gone?.code, gone?.rawMessage]).toEqual([Code.NotFound, 'no branch "feature" in acme/widgets']);
  });
});
