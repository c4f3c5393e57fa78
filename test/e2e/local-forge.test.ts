/**
 * The local forge end to end (docs/local-forge.md): the real server process and the real
 * `yardmaster` CLI. `repo add` imports a real git repository made here with the git command line;
 * `pr open`, `pr comment "@yardmaster queue"`, `pr review --approve`, `pr label`, `ci run`; the
 * local CI runs the repository's `.yardmaster/ci.yml`, and `pr show` shows its checks; `pr edit`
 * retargets a pull request and `repo delete-branch` closes what it was the base of. Errors come
 * back as one line naming the problem; ForgeService answers only the admin key.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { runCli } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let work: string;
let source: string;

/** git in the test's work tree, as a person would run it. */
function git(...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Ada", "-c", "user.email=ada@example.com", "-c", "commit.gpgSign=false", ...args],
    {
      cwd: source,
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
      encoding: "utf8",
    },
  ).trim();
}

async function cli(...args: string[]) {
  const res = await runCli(args, server.cliEnv);
  return { ...res, stdout: res.stdout.trim(), stderr: res.stderr.trim() };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-forge-"));
  source = path.join(work, "widgets");
  await mkdir(path.join(source, ".yardmaster"), { recursive: true });
  git("init", "--quiet", "--initial-branch=main");
  await writeFile(path.join(source, "README.md"), "widgets\n");
  await writeFile(
    path.join(source, ".yardmaster", "ci.yml"),
    [
      "checks:",
      "  - name: test",
      "    run: test -f feature.txt && echo tested",
      "  - name: lint",
      "    run: \"echo 'lint found 1 problem' >&2; exit 1\"",
      "",
    ].join("\n"),
  );
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("switch", "--quiet", "-c", "feature");
  await writeFile(path.join(source, "feature.txt"), "a feature\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Add the feature");
  git("switch", "--quiet", "main");
  server = await startServerProcess({ YARDMASTER_CI_SLOTS: "2" });
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("a pull request through the CLI", () => {
  it("is imported, opened, commented, approved, labelled, checked, and shown", async () => {
    const relative = path.relative(ROOT, source);
    const added = await cli("repo", "add", "acme/widgets", "--from", relative);
    expect(added, added.stderr).toMatchObject({ code: 0, stdout: `acme/widgets: main at ${git("rev-parse", "main")}` });

    const opened = await cli(
      "pr",
      "open",
      "acme/widgets",
      "--head",
      "feature",
      "--base",
      "main",
      "--title",
      "Add the feature",
      "--author",
      "ada",
    );
    expect(opened.stdout).toBe(
      `#1 opened: Add the feature (feature -> main, head ${git("rev-parse", "feature").slice(0, 12)})`,
    );
    expect((await cli("pr", "comment", "acme/widgets", "1", "@yardmaster queue", "--author", "ada")).stdout).toMatch(
      /^comment \d+ on #1$/,
    );
    expect((await cli("pr", "review", "acme/widgets", "1", "--approve", "--author", "bob")).stdout).toBe(
      "review APPROVE on #1",
    );
    expect((await cli("pr", "label", "acme/widgets", "1", "--add", "ready", "--add", "backend")).stdout).toBe(
      "#1 labels: backend, ready",
    );
    expect((await cli("ci", "run", "acme/widgets", "feature")).stdout).toBe(
      `${git("rev-parse", "feature")}: running test, lint`,
    );

    const shown = await eventually(async () => {
      const res = await cli("pr", "show", "acme/widgets", "1");
      expect(res.stdout).toMatch(/^ {2}test +success +passed/m);
      expect(res.stdout).toMatch(/^ {2}lint +failure +failed with exit code 1/m);
      return res.stdout;
    }, 60_000);
    expect(shown).toContain("acme/widgets#1: Add the feature");
    expect(shown).toContain(`head:     feature at ${git("rev-parse", "feature")} -> main`);
    expect(shown).toContain("state:    open");
    expect(shown).toContain("labels:   backend, ready");
    expect(shown).toMatch(/^ {2}bob: APPROVED/m);
    expect(shown).toMatch(/^ {2}ada \(.*\):\n {4}@yardmaster queue$/m);
    const withOutput = (await cli("pr", "show", "acme/widgets", "1", "--output")).stdout;
    expect(withOutput).toMatch(/^ {2}lint +failure .*\n(?: {4}\| .*\n)* {4}\| lint found 1 problem$/m);
    expect(withOutput).toMatch(/^ {4}\| tested$/m);
  }, 180_000);

  it("follows a push to the head and lists pull requests; an external CI posts a check", async () => {
    git("switch", "--quiet", "feature");
    await writeFile(path.join(source, "feature.txt"), "a better feature\n");
    git("commit", "--quiet", "-am", "Improve the feature");
    git("switch", "--quiet", "main");
    const head = git("rev-parse", "feature");
    const pushed = await cli(
      "repo",
      "push",
      "acme/widgets",
      "--from",
      source,
      "--ref",
      "feature",
      "--branch",
      "feature",
    );
    expect(pushed.stdout).toBe(`feature: ${git("rev-parse", "feature~1")} -> ${head}`);
    expect(
      (await cli("ci", "post", "acme/widgets", head, "deploy-preview", "success", "--app", "previews")).stdout,
    ).toBe(`check deploy-preview on ${head}: success`);
    const shown = await eventually(async () => {
      const res = await cli("pr", "show", "acme/widgets", "1");
      expect(res.stdout).toMatch(/^ {2}test +success/m);
      return res.stdout;
    }, 60_000);
    expect(shown).toContain(`head:     feature at ${head} -> main`);
    expect(shown).toMatch(/^ {2}deploy-preview +success .*\[previews\]$/m);
    expect((await cli("pr", "list", "acme/widgets", "--state", "open")).stdout).toMatch(
      /^#1 {2}open {2}feature -> main {2}Add the feature {2}\(ada, checks 2\/3 passed\) {2}\[backend, ready\]$/,
    );
    expect((await cli("pr", "close", "acme/widgets", "1")).stdout).toBe("#1 closed");
    expect((await cli("pr", "list", "acme/widgets", "--state", "open")).stdout).toBe("(no pull requests)");
  }, 180_000);
});

describe("landing a change on a branch that moved", () => {
  it("merges the pushed commit into the branch's tip with --merge", async () => {
    git("switch", "--quiet", "-c", "hotfix", "main");
    await writeFile(path.join(source, "hotfix.txt"), "hotfix\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", "Hotfix");
    git("switch", "--quiet", "main");
    const forgeGit = path.join(server.dataDir, "repos", "acme", "widgets.git");
    const before = execFileSync("git", ["--git-dir", forgeGit, "rev-parse", "feature"], { encoding: "utf8" }).trim();
    const pushed = await cli(
      "repo",
      "push",
      "acme/widgets",
      "--from",
      source,
      "--ref",
      "hotfix",
      "--branch",
      "feature",
      "--merge",
    );
    expect(pushed, pushed.stderr).toMatchObject({ code: 0 });
    const after = /-> ([0-9a-f]{40})$/.exec(pushed.stdout)?.[1];
    expect(pushed.stdout).toBe(`feature: ${before} -> ${after}`);
    // A merge commit whose parents are the old tip and the pushed commit; both changes are in its tree.
    const parents = execFileSync("git", ["--git-dir", forgeGit, "log", "-1", "--format=%P", after!], {
      encoding: "utf8",
    }).trim();
    expect(parents).toBe(`${before} ${git("rev-parse", "hotfix")}`);
    const files = execFileSync("git", ["--git-dir", forgeGit, "ls-tree", "--name-only", after!], {
      encoding: "utf8",
    }).split("\n");
    expect(files).toEqual(expect.arrayContaining(["feature.txt", "hotfix.txt"]));
  }, 120_000);
});

describe("errors", () => {
  beforeAll(async () => {
    git("switch", "--quiet", "-c", "second", "main");
    await writeFile(path.join(source, "second.txt"), "second\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", "Second change");
    git("switch", "--quiet", "main");
    await cli("repo", "push", "acme/widgets", "--from", source, "--ref", "second", "--branch", "second");
    expect((await cli("pr", "open", "acme/widgets", "--head", "second", "--author", "ada")).stdout).toMatch(
      /^#2 opened: second /,
    );
  });

  const cases: [string, string[], number, RegExp][] = [
    [
      "an unknown pull request",
      ["pr", "show", "acme/widgets", "99"],
      1,
      /pull request #99 does not exist in acme\/widgets \(NotFound\)/,
    ],
    [
      "an existing repository",
      ["repo", "add", "acme/widgets"],
      1,
      /repository acme\/widgets already exists \(AlreadyExists\)/,
    ],
    [
      "approving one's own pull request",
      ["pr", "review", "acme/widgets", "2", "--approve", "--author", "ada"],
      1,
      /author: ada cannot approve their own pull request \(InvalidArgument\)/,
    ],
    [
      "reviewing a closed pull request",
      ["pr", "review", "acme/widgets", "1", "--approve", "--author", "bob"],
      1,
      /pull request #1 is closed \(FailedPrecondition\)/,
    ],
    [
      "a second pull request from the same head",
      ["pr", "open", "acme/widgets", "--head", "second"],
      1,
      /pull request #2 from second into main is already open \(AlreadyExists\)/,
    ],
    [
      "a non-fast-forward push",
      ["repo", "push", "acme/widgets", "--from", "SOURCE", "--ref", "main", "--branch", "second"],
      1,
      /not a fast-forward/,
    ],
    [
      "a branch that does not exist",
      ["pr", "open", "acme/widgets", "--head", "nope"],
      1,
      /no branch "nope" in acme\/widgets \(NotFound\)/,
    ],
    [
      "a repository written without its owner",
      ["pr", "show", "widgets", "1"],
      2,
      /"widgets" must be written owner\/name/,
    ],
    [
      "--merge with --force",
      ["repo", "push", "acme/widgets", "--from", "SOURCE", "--ref", "main", "--branch", "second", "--merge", "--force"],
      1,
      /--force and --merge exclude each other/,
    ],
    [
      "two review verdicts",
      ["pr", "review", "acme/widgets", "2", "--approve", "--comment"],
      1,
      /exactly one of --approve, --request-changes, --comment/,
    ],
  ];
  it.each(cases)("%s", async (_name, args, code, message) => {
    const res = await cli(...args.map((a) => (a === "SOURCE" ? source : a)));
    expect(res.code, `signal ${res.signal}, stderr: ${res.stderr}`).toBe(code);
    expect(res.stderr).toMatch(message);
  });

  it("ForgeService answers the admin key only, not a token of the repository", async () => {
    const created = await cli("token", "create", "--repo", "acme/widgets");
    const client = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
    try {
      const request = { owner: "acme", repository: "widgets", number: 1n };
      await expect(grpcUnary(client, "getPullRequest", request, created.stdout)).rejects.toMatchObject({
        code: grpc.status.PERMISSION_DENIED,
      });
      const res = await grpcUnary(client, "getPullRequest", request, server.adminKey);
      expect(res.pullRequest.title).toBe("Add the feature");
    } finally {
      client.close();
    }
  });
});

describe("retargeting a pull request and deleting a branch", () => {
  it("pr edit moves #2 onto another base; repo delete-branch of that base closes it, but never deletes the default branch", async () => {
    await cli("repo", "push", "acme/widgets", "--from", source, "--ref", "main", "--branch", "release");
    expect(await cli("pr", "edit", "acme/widgets", "2", "--base", "release")).toMatchObject({
      code: 0,
      stdout: "#2 now targets release",
    });
    expect(await cli("pr", "edit", "acme/widgets", "2", "--title", "Second, for the release")).toMatchObject({
      code: 0,
      stdout: "#2 edited: Second, for the release",
    });
    expect((await cli("pr", "list", "acme/widgets", "--state", "open")).stdout).toMatch(
      /^#2 {2}open {2}second -> release {2}Second, for the release /,
    );
    expect((await cli("pr", "edit", "acme/widgets", "2")).stderr).toMatch(/give --title, --body or --base/);
    expect((await cli("pr", "edit", "acme/widgets", "2", "--base", "nope")).stderr).toMatch(
      /no branch "nope" in acme\/widgets \(NotFound\)/,
    );

    const main = await cli("repo", "delete-branch", "acme/widgets", "main");
    expect([main.code, main.stderr]).toEqual([
      1,
      expect.stringMatching(/main is the default branch of acme\/widgets; it cannot be deleted \(FailedPrecondition\)/),
    ]);
    expect(await cli("repo", "delete-branch", "acme/widgets", "release", "--pusher", "bob")).toMatchObject({
      code: 0,
      stdout: `release: deleted (was ${git("rev-parse", "main")})`,
    });
    expect((await cli("pr", "list", "acme/widgets", "--state", "open")).stdout).toBe("(no pull requests)");
    expect((await cli("repo", "delete-branch", "acme/widgets", "release")).stderr).toMatch(
      /no branch "release" in acme\/widgets \(NotFound\)/,
    );
  }, 120_000);
});
