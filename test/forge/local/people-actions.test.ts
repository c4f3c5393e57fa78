/**
 * What people do on the local forge (ForgeService, the `yardmaster repo|pr|ci` commands):
 * creating and importing repositories, pushing, opening, reviewing and labelling, with GitHub's
 * refusals; and how each failure becomes an RPC status naming the field (docs/local-forge.md "CLI").
 */
import { Code, type ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ciLeaseFromEnvironment, ciSlotsFromEnvironment } from "../../../services/forge/local/index.js";
import { domainErrorToConnect } from "../../../services/contracts/index.js";
import { isInvalidArgumentError } from "../../../services/contracts/index.js";
import { ForgeError } from "../../../services/forge/types.js";
import { createWorld, createSourceRepo, REPO, widgets, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { filesAt } from "./git-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

/** The answer the gateway gives a forge error (contracts/domain-error.ts): anything else unchanged. */
const toConnectError = (e: unknown): unknown => domainErrorToConnect(e) ?? e;

let w: ForgeWorld;

/** A fresh world (database, data directory, forge) for each test of the calling describe block. */
function withWorld(): void {
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => w.cleanup());
}

describe("creating repositories", () => {
  withWorld();
  it("starts a new repository with one empty commit on its default branch", async () => {
    const created = await w.forge.addRepository({
      repo: "acme/fresh",
      fromPath: null,
      defaultBranch: "trunk",
      atRef: null,
    });
    expect(created.defaultBranch).toBe("trunk");
    expect(await w.forge.getBranchSha("acme/fresh", "trunk")).toBe(created.headSha);
    expect(await w.forge.getDefaultBranch("acme/fresh")).toBe("trunk");
  });

  it("imports every branch, and can set the default branch's tip to an older commit", async () => {
    const src = await createSourceRepo(w.dir, { "a.txt": "1\n" });
    const second = await src.commit("main", src.root, { "a.txt": "2\n" });
    const topic = await src.commit("topic", second, { "t.txt": "t\n" });
    const created = await w.forge.addRepository({
      repo: REPO,
      fromPath: src.path,
      defaultBranch: null,
      atRef: "main~1",
    });
    expect(created).toEqual({ defaultBranch: "main", headSha: src.root });
    expect(await w.forge.getBranchSha(REPO, "topic")).toBe(topic);
  });

  const refusals: [string, () => Promise<unknown>, object][] = [
    [
      "a repository that exists",
      async () => {
        await w.forge.addRepository({ repo: REPO, fromPath: null, defaultBranch: null, atRef: null });
        return w.forge.addRepository({ repo: "ACME/Widgets", fromPath: null, defaultBranch: null, atRef: null });
      },
      { kind: "conflict", detail: { rpc: "already_exists" } },
    ],
    [
      "a path that is not a directory",
      () => w.forge.addRepository({ repo: REPO, fromPath: "/nonexistent/repo", defaultBranch: null, atRef: null }),
      { kind: "not_found", detail: { field: "from_path" } },
    ],
    [
      "a directory that is not a git repository",
      () => w.forge.addRepository({ repo: REPO, fromPath: w.dir, defaultBranch: null, atRef: null }),
      { kind: "not_found", detail: { field: "from_path" } },
    ],
    [
      "a bad default branch name",
      () => w.forge.addRepository({ repo: REPO, fromPath: null, defaultBranch: "a..b", atRef: null }),
      { kind: "invalid", detail: { field: "default_branch" } },
    ],
    [
      "a bad repository name",
      () => w.forge.addRepository({ repo: "acme/..", fromPath: null, defaultBranch: null, atRef: null }),
      { kind: "invalid", detail: { field: "repository" } },
    ],
    [
      "a revision the import lacks",
      async () => {
        const src = await createSourceRepo(w.dir, { "a.txt": "1\n" });
        return w.forge.addRepository({ repo: REPO, fromPath: src.path, defaultBranch: null, atRef: "nope" });
      },
      { kind: "not_found", detail: { field: "at_ref" } },
    ],
  ];
  it.each(refusals)("refuses %s and leaves nothing behind", async (_name, attempt, error) => {
    await expect(attempt()).rejects.toMatchObject(error);
    if ((error as { kind: string }).kind !== "conflict") {
      await expect(w.forge.getDefaultBranch(REPO)).rejects.toMatchObject({ kind: "not_found" });
      expect(
        await w.forge.addRepository({ repo: REPO, fromPath: null, defaultBranch: null, atRef: null }),
      ).toMatchObject({ defaultBranch: "main" });
    }
  });
});

describe("pushing", () => {
  withWorld();
  let repo: Widgets;
  beforeEach(async () => {
    repo = await widgets(w, { "a.txt": "1\n" });
  });

  it("creates and fast-forwards branches, refuses a rewrite unless forced", async () => {
    const one = await repo.push("topic", repo.src.root, { "b.txt": "b\n" });
    const two = await repo.push("topic", one, { "c.txt": "c\n" });
    expect(await w.forge.getBranchSha(REPO, "topic")).toBe(two);
    const other = await repo.src.commit("other", repo.src.root, { "d.txt": "d\n" });
    const push = (force: boolean) =>
      w.forge.pushBranch({
        repo: REPO,
        fromPath: repo.src.path,
        sourceRef: other,
        branch: "topic",
        force,
        pusher: "ada",
      });
    await expect(push(false)).rejects.toMatchObject({
      kind: "conflict",
      detail: { rpc: "failed_precondition" },
      message: /not a fast-forward/,
    });
    expect(await push(true)).toEqual({ before: two, after: other });
    expect(await filesAt(repo.git, "topic")).toEqual({ "a.txt": "1\n", "d.txt": "d\n" });
    expect(await push(true)).toEqual({ before: other, after: other });
  });

  it("refuses a bad branch, an unknown revision and a bad pusher, naming the field", async () => {
    const push = (over: object) =>
      w.forge.pushBranch({
        repo: REPO,
        fromPath: repo.src.path,
        sourceRef: "main",
        branch: "x",
        force: false,
        pusher: "ada",
        ...over,
      });
    await expect(push({ branch: "bad..name" })).rejects.toMatchObject({ kind: "invalid", detail: { field: "branch" } });
    await expect(push({ sourceRef: "no-such-ref" })).rejects.toMatchObject({
      kind: "not_found",
      detail: { field: "source_ref" },
    });
    await expect(push({ pusher: "-ada" })).rejects.toMatchObject({ kind: "invalid", detail: { field: "pusher" } });
    await expect(push({ fromPath: "/nonexistent" })).rejects.toMatchObject({
      kind: "not_found",
      detail: { field: "from_path" },
    });
  });
});

describe("opening and reviewing", () => {
  let repo: Widgets;
  const snapshot = worldSnapshot({ "a.txt": "1\n" }, async (_, repo) => {
    await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
  });
  beforeAll(snapshot.build);
  afterAll(snapshot.dispose);
  beforeEach(async () => {
    ({ world: w, repo } = await snapshot.restore());
  });
  afterEach(async () => w.cleanup());

  const refusals: [string, () => Promise<unknown>, object][] = [
    ["head equal to base", () => repo.open("main"), { kind: "invalid", detail: { field: "head" } }],
    [
      "no commits between base and head",
      async () => {
        await w.forge.pushBranch({
          repo: REPO,
          fromPath: repo.src.path,
          sourceRef: "main",
          branch: "same",
          force: false,
          pusher: "ada",
        });
        return repo.open("same");
      },
      { kind: "invalid", detail: { rpc: "failed_precondition" }, message: /no commits between main and same/ },
    ],
    [
      "a second open pull request from the same head into the same base",
      async () => {
        await repo.open("feature");
        return repo.open("feature");
      },
      { kind: "invalid", detail: { rpc: "already_exists" }, message: /#1 from feature into main is already open/ },
    ],
    ["an unknown base", () => repo.open("feature", { base: "nope" }), { kind: "not_found", detail: { field: "base" } }],
    ["a blank title", () => repo.open("feature", { title: " " }), { kind: "invalid", detail: { field: "title" } }],
    ["a bad author", () => repo.open("feature", { author: "a b" }), { kind: "invalid", detail: { field: "author" } }],
    [
      "approving one's own pull request",
      async () => {
        await repo.open("feature");
        return w.forge.review(REPO, 1, { event: "APPROVE", body: "", author: "ada" });
      },
      { kind: "invalid", detail: { field: "author" } },
    ],
    [
      "requesting changes without a body",
      async () => {
        await repo.open("feature");
        return w.forge.review(REPO, 1, { event: "REQUEST_CHANGES", body: "", author: "bob" });
      },
      { kind: "invalid", detail: { field: "body" } },
    ],
    [
      "a label longer than 50 characters",
      async () => {
        await repo.open("feature");
        return w.forge.label(REPO, 1, ["x".repeat(51)], []);
      },
      { kind: "invalid", detail: { field: "add" } },
    ],
  ];
  it.each(refusals)("refuses %s", async (_name, attempt, error) => {
    await expect(attempt()).rejects.toMatchObject(error);
  });

  it("records each review with the head it was given on; the newest review counts per person", async () => {
    const n = await repo.open("feature");
    await w.forge.review(REPO, n, { event: "REQUEST_CHANGES", body: "Please add tests", author: "bob" });
    await w.forge.review(REPO, n, { event: "APPROVE", body: "", author: "bob" });
    await w.forge.review(REPO, n, { event: "COMMENT", body: "Nice", author: "carol" });
    const view = await w.forge.describePullRequest(REPO, n);
    expect(view.reviews.map((r) => [r.author, r.state, r.body, r.commitSha])).toEqual([
      ["bob", "CHANGES_REQUESTED", "Please add tests", view.pull.headSha],
      ["bob", "APPROVED", "", view.pull.headSha],
      ["carol", "COMMENTED", "Nice", view.pull.headSha],
    ]);
  });
});

describe("RPC statuses", () => {
  const cases: [string, unknown, Code, RegExp][] = [
    ["not_found", new ForgeError("not_found", "no branch x"), Code.NotFound, /no branch x/],
    ["conflict", new ForgeError("conflict", "main moved"), Code.Aborted, /main moved/],
    ["invalid without a field", new ForgeError("invalid", "bad"), Code.InvalidArgument, /bad/],
    ["permission", new ForgeError("permission", "no"), Code.PermissionDenied, /no/],
    ["rate_limited", new ForgeError("rate_limited", "later", 1000), Code.ResourceExhausted, /later/],
    ["transient", new ForgeError("transient", "git failed"), Code.Unavailable, /git failed/],
  ];
  it.each(cases)("maps %s", (_name, error, code, message) => {
    const mapped = toConnectError(error) as ConnectError;
    expect([mapped.code, mapped.rawMessage]).toEqual([code, expect.stringMatching(message)]);
  });

  describe("of the forge's own errors", () => {
    withWorld();
    it("names the field of an invalid argument and honours the finer status of an action", async () => {
      const repo = await widgets(w, { "a.txt": "1\n" });
      const invalid = await repo.open("feature", { author: "a b" }).catch(toConnectError);
      expect(isInvalidArgumentError(invalid)).toBe(true);
      expect((invalid as ConnectError).rawMessage).toMatch(/^author: "a b" is not a login/);
      const exists = await w.forge
        .addRepository({ repo: REPO, fromPath: null, defaultBranch: null, atRef: null })
        .catch(toConnectError);
      expect((exists as ConnectError).code).toBe(Code.AlreadyExists);
      const other = new Error("not a forge error");
      expect(toConnectError(other)).toBe(other);
    });
  });
});

describe("YARDMASTER_CI_SLOTS", () => {
  it.each([
    [undefined, 2],
    ["", 2],
    ["1", 1],
    [" 8 ", 8],
  ] as [string | undefined, number][])("%j gives %d slots", (value, slots) => {
    expect(ciSlotsFromEnvironment({ YARDMASTER_CI_SLOTS: value })).toBe(slots);
  });
  it.each(["0", "-1", "1.5", "many", "1000"])("%j is refused, naming the variable", (value) => {
    expect(() => ciSlotsFromEnvironment({ YARDMASTER_CI_SLOTS: value })).toThrow(/^YARDMASTER_CI_SLOTS: /);
  });
});

describe("YARDMASTER_CI_LEASE_SECONDS", () => {
  it.each([
    [undefined, {}],
    ["", {}],
    ["60", { leaseMs: 60_000, heartbeatMs: 15_000 }],
    [" 8 ", { leaseMs: 8_000, heartbeatMs: 2_000 }],
  ] as [string | undefined, object][])("%j gives the lease %j", (value, lease) => {
    expect(ciLeaseFromEnvironment({ YARDMASTER_CI_LEASE_SECONDS: value })).toEqual(lease);
  });
  it.each(["0", "3", "1.5", "soon", "3601"])("%j is refused, naming the variable", (value) => {
    expect(() => ciLeaseFromEnvironment({ YARDMASTER_CI_LEASE_SECONDS: value })).toThrow(
      /^YARDMASTER_CI_LEASE_SECONDS: /,
    );
  });
});
