import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isForgeError } from "../../../services/forge/types.js";
import {
  commitFiles,
  commitToBranch,
  compareAndSwapRef,
  createRepository,
  deleteBranch,
  findBranchSha,
  getBranchSha,
  getDefaultBranch,
  importRepository,
  listBranches,
  openRepository,
  readFile,
  readFileBlob,
  repositoryPath,
  resolveCommit,
  setBranch,
  treeOf,
  validateBranchName,
} from "../../../services/forge/local/git/index.js";
import { at, createTestRepo, git, type TestRepo } from "./git-fixture.js";

let t: TestRepo;
afterEach(async () => t?.cleanup());

async function expectForgeError(promise: Promise<unknown>, kind: string, pattern?: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isForgeError(error), `expected a ForgeError, got ${String(error)}`).toBe(true);
  expect((error as { kind: string }).kind).toBe(kind);
  if (pattern) expect((error as Error).message).toMatch(pattern);
}

describe("repositories", () => {
  it("stores owner/name under <data dir>/repos and refuses names that escape it", () => {
    expect(repositoryPath("/data", "acme/widgets")).toBe("/data/repos/acme/widgets.git");
    for (const bad of ["acme", "acme/../x", "../x/y", "acme/..", "-acme/x", "acme/wid gets", "a/b/c"]) {
      expect(() => repositoryPath("/data", bad), bad).toThrow(/owner\/name|owner|name/);
    }
  });

  it("creates an empty bare repository whose default branch is unborn until the first commit", async () => {
    t = await createTestRepo();
    const repo = await createRepository({
      gitDir: join(t.dir, "empty.git"),
      name: "acme/empty",
      defaultBranch: "trunk",
    });
    expect(await getDefaultBranch(repo)).toBe("trunk");
    expect(await listBranches(repo)).toEqual([]);
    expect(await git(repo, ["rev-parse", "--is-bare-repository"])).toBe("true");
    await expectForgeError(getBranchSha(repo, "trunk"), "not_found", /trunk/);
  });

  it("can start the default branch at an empty commit", async () => {
    t = await createTestRepo();
    const repo = await createRepository({
      gitDir: join(t.dir, "started.git"),
      name: "acme/started",
      defaultBranch: "main",
      initialCommit: { message: "start", date: at(5) },
    });
    const sha = await getBranchSha(repo, "main");
    expect(await git(repo, ["log", "-1", "--format=%an <%ae>|%cI|%s", sha])).toBe(
      "Yardmaster <yardmaster@localhost>|2024-01-01T00:05:00+00:00|start",
    );
  });

  it("refuses to create over an existing repository and leaves no temporary directory", async () => {
    t = await createTestRepo();
    await expectForgeError(
      createRepository({ gitDir: t.repo.gitDir, name: "acme/widgets", defaultBranch: "main" }),
      "conflict",
      /already exists/,
    );
    await expectForgeError(
      createRepository({ gitDir: join(t.dir, "x.git"), name: "acme/x", defaultBranch: "bad..name" }),
      "invalid",
      /bad\.\.name/,
    );
    expect(execFileSync("ls", ["-A", t.dir], { encoding: "utf8" }).trim().split("\n").sort()).toEqual(["repo.git"]);
  });

  it("imports every branch of a repository with a work tree, keeping its default branch", async () => {
    t = await createTestRepo();
    const source = join(t.dir, "source");
    await mkdir(source);
    const run = (...args: string[]) =>
      execFileSync("git", ["-C", source, "-c", "user.name=a", "-c", "user.email=a@b", ...args], { encoding: "utf8" });
    run("init", "-q", "-b", "trunk");
    await writeFile(join(source, "a.txt"), "one\n");
    run("add", "a.txt");
    run("commit", "-q", "-m", "one");
    run("branch", "feature");
    run("tag", "v1");
    const imported = await importRepository({
      gitDir: join(t.dir, "imported.git"),
      name: "acme/imported",
      from: source,
    });
    expect(imported.defaultBranch).toBe("trunk");
    expect(imported.branches.map((b) => b.name)).toEqual(["feature", "trunk"]);
    expect(await getDefaultBranch(imported.repo)).toBe("trunk");
    expect(await readFile(imported.repo, "feature", "a.txt")).toBe("one\n");
    expect(await git(imported.repo, ["tag"])).toBe("v1");
  });

  it("refuses to import a path that is not a repository", async () => {
    t = await createTestRepo();
    await expectForgeError(
      importRepository({ gitDir: join(t.dir, "i.git"), name: "acme/i", from: t.dir }),
      "not_found",
      /not a git repository/,
    );
    await expectForgeError(openRepository(join(t.dir, "nope.git"), "acme/nope"), "not_found", /acme\/nope/);
  });
});

describe("branch names", () => {
  it.each([
    ["feature/x", true],
    ["yardmaster/merge-queue/main/1-2", true],
    ["a..b", false],
    ["-x", false],
    ["HEAD", false],
    ["with space", false],
    ["ends.lock", false],
    ["x~1", false],
    ["", false],
    ["a:b", false],
  ])("%s valid: %s", async (name, valid) => {
    const outcome = await validateBranchName(name).then(
      () => true,
      (e: unknown) => (isForgeError(e, "invalid") ? false : e),
    );
    expect(outcome).toBe(valid);
  });
});

describe("refs", () => {
  it("lists, resolves, creates, force-moves and deletes branches", async () => {
    t = await createTestRepo();
    const second = await t.commit(t.root, { "b.txt": "b\n" });
    await setBranch(t.repo, "feature", second);
    expect(await listBranches(t.repo)).toEqual([
      { name: "feature", sha: second },
      { name: "main", sha: t.root },
    ]);
    expect(await resolveCommit(t.repo, "feature")).toBe(second);
    expect(await resolveCommit(t.repo, `${second}^`)).toBe(t.root);
    await setBranch(t.repo, "feature", t.root);
    expect(await getBranchSha(t.repo, "feature")).toBe(t.root);
    await deleteBranch(t.repo, "feature");
    expect(await findBranchSha(t.repo, "feature")).toBeNull();
    await deleteBranch(t.repo, "feature"); // absent: not an error
    await expectForgeError(resolveCommit(t.repo, "nope"), "not_found", /nope/);
    await expectForgeError(setBranch(t.repo, "x", "0123456789012345678901234567890123456789"), "not_found");
    await expectForgeError(setBranch(t.repo, "bad..name", t.root), "invalid", /bad\.\.name/);
  });

  it("compare-and-swap moves a ref only from the expected value", async () => {
    t = await createTestRepo();
    const next = await t.commit(t.root, { "b.txt": "b\n" });
    await expectForgeError(compareAndSwapRef(t.repo, "refs/heads/main", next, t.root), "conflict", /moved/);
    expect(await getBranchSha(t.repo, "main")).toBe(t.root);
    await compareAndSwapRef(t.repo, "refs/heads/main", t.root, next);
    expect(await getBranchSha(t.repo, "main")).toBe(next);
    await expectForgeError(setBranch(t.repo, "main", t.root, { expectedOldSha: null }), "conflict", /expected no ref/);
    await expectForgeError(deleteBranch(t.repo, "main", { expectedOldSha: t.root }), "conflict");
    await compareAndSwapRef(t.repo, "refs/pull/7/head", null, next);
    expect(await resolveCommit(t.repo, "refs/pull/7/head")).toBe(next);
  });

  it("keeps git's stderr as the cause of a refused update", async () => {
    t = await createTestRepo();
    const next = await t.commit(t.root, { "b.txt": "b\n" });
    const error = await compareAndSwapRef(t.repo, "refs/heads/main", next, next).catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect(String((error as Error).cause)).toMatch(/but expected/);
  });
});

describe("files", () => {
  it("commits additions, changes and deletions without a work tree and reads them back", async () => {
    t = await createTestRepo({
      "README.md": "hello\n",
      "src/a.ts": "a\n",
      "bin/run": { content: "#!/bin/sh\n", executable: true },
    });
    const sha = await commitFiles(t.repo, {
      parent: t.root,
      changes: { "src/a.ts": "A\n", "src/b.ts": Buffer.from("b\n"), "README.md": null, "ghost.txt": null },
      message: "edit",
      date: at(9),
      author: { name: "Ada", email: "ada@example.com" },
    });
    expect(await t.filesAt(sha)).toEqual({ "bin/run": "#!/bin/sh\n", "src/a.ts": "A\n", "src/b.ts": "b\n" });
    expect((await readFileBlob(t.repo, sha, "bin/run"))?.executable).toBe(true);
    expect(await readFile(t.repo, sha, "README.md")).toBeNull();
    expect(await readFile(t.repo, sha, "src")).toBeNull();
    expect(await git(t.repo, ["log", "-1", "--format=%an <%ae>|%cn <%ce>|%cI|%P", sha])).toBe(
      `Ada <ada@example.com>|Yardmaster <yardmaster@localhost>|2024-01-01T00:09:00+00:00|${t.root}`,
    );
  });

  it("produces the same SHA for the same input (dates are injected)", async () => {
    t = await createTestRepo();
    const input = { parent: t.root, changes: { "x.txt": "x\n" }, message: "same", date: at(3) };
    expect(await commitFiles(t.repo, input)).toBe(await commitFiles(t.repo, input));
  });

  it.each([
    ["../escape", /"\.\." segment/],
    ["/abs", /relative/],
    ["a//b", /empty segment/],
    [".git/config", /\.git/],
    ["", /empty/],
  ])("refuses the path %j", async (path, message) => {
    t = await createTestRepo();
    await expectForgeError(
      commitFiles(t.repo, { parent: t.root, changes: { [path]: "x" }, message: "m", date: at(1) }),
      "invalid",
      message,
    );
  });

  it("commits to a branch with a compare-and-swap and reports a missing branch", async () => {
    t = await createTestRepo();
    const sha = await commitToBranch(t.repo, {
      branch: "main",
      changes: { "n.txt": "n\n" },
      message: "n",
      date: at(2),
    });
    expect(await getBranchSha(t.repo, "main")).toBe(sha);
    await expectForgeError(
      commitToBranch(t.repo, { branch: "gone", changes: { "n.txt": "n" }, message: "n", date: at(2) }),
      "not_found",
      /gone/,
    );
    const created = await commitToBranch(t.repo, {
      branch: "orphan",
      create: true,
      changes: { "o.txt": "o" },
      message: "o",
      date: at(2),
    });
    expect(await git(t.repo, ["log", "--format=%H", "orphan"])).toBe(created);
    expect(await treeOf(t.repo, created)).toMatch(/^[0-9a-f]{40}$/);
  });
});
