/**
 * Branches, files and speculative branches through the GitHub adapter (ForgePort.getBranchSha,
 * deleteBranch, fastForwardBranch, readFile, readConfigFile, getDefaultBranch,
 * createSpeculativeBranch), against the OpenAPI-checked double over real git.
 */
import { describe, expect, it } from "vitest";
import { isMergeConflict, readCommit, readFile, readRef, runGit } from "../../../services/forge/local/git/index.js";
import { isForgeError } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, freshRepoName, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

describe("files", () => {
  it("reads the configuration file from .yardmaster.yml first, then .github/yardmaster.yml", async () => {
    const forge = forgeFor(double);
    const both = await double.addRepo(freshRepoName(), {
      defaultBranch: "trunk",
      files: { ".yardmaster.yml": "queue_rules: []\n", ".github/yardmaster.yml": "other: 1\n" },
    });
    expect(await forge.getDefaultBranch(both.fullName)).toBe("trunk");
    // Read at the branch, named by the file's blob (a conditional read: 304 while it is unchanged).
    const blob = (await runGit(both.git.gitDir, ["rev-parse", "trunk:.yardmaster.yml"])).stdout.toString().trim();
    expect(await forge.readConfigFile(both.fullName)).toEqual({
      path: ".yardmaster.yml",
      text: "queue_rules: []\n",
      sha: blob,
    });
    expect(double.calls("repos/get-content").at(-1)!.query.ref).toBe("trunk");
    const nested = await double.addRepo(freshRepoName(), {
      files: { ".github/yardmaster.yml": "pull_request_rules: []\n" },
    });
    expect(await forge.readConfigFile(nested.fullName)).toMatchObject({
      path: ".github/yardmaster.yml",
      text: "pull_request_rules: []\n",
    });
    const none = await double.addRepo(freshRepoName());
    expect(await forge.readConfigFile(none.fullName)).toBeNull();
  });

  it("reads a file at a ref, a large one through the blob API, and null for an absent path", async () => {
    const big = "x".repeat(1_200_000);
    const repo = await double.addRepo(freshRepoName(), { files: { "docs/a.md": "héllo\n", "big.bin": big } });
    const forge = forgeFor(double);
    expect(await forge.readFile(repo.fullName, "main", "docs/a.md")).toBe("héllo\n");
    expect(await forge.readFile(repo.fullName, "main", "missing.md")).toBeNull();
    expect(await forge.readFile(repo.fullName, "main", "big.bin")).toBe(big);
    expect(double.calls("git/get-blob")).toHaveLength(1);
  });
});

describe("branches", () => {
  it("reads, deletes (absent is fine) and fast-forwards branches", async () => {
    const repo = await double.addRepo(freshRepoName());
    const forge = forgeFor(double);
    const main = await forge.getBranchSha(repo.fullName, "main");
    const ahead = await repo.commit("topic/one", { "t.txt": "t\n" }, "Topic");
    expect(await forge.getBranchSha(repo.fullName, "topic/one")).toBe(ahead);
    expect(isForgeError(await forge.getBranchSha(repo.fullName, "nope").catch((e) => e), "not_found")).toBe(true);

    await forge.fastForwardBranch(repo.fullName, "main", ahead);
    expect(await forge.getBranchSha(repo.fullName, "main")).toBe(ahead);
    const err = await forge.fastForwardBranch(repo.fullName, "main", main).catch((e) => e);
    expect(isForgeError(err, "conflict")).toBe(true);
    expect(await forge.getBranchSha(repo.fullName, "main")).toBe(ahead);

    await forge.deleteBranch(repo.fullName, "topic/one");
    await forge.deleteBranch(repo.fullName, "topic/one");
    expect(await readRef(repo.git, "refs/heads/topic/one")).toBeNull();
  });

  it("refuses a branch name git would not accept", async () => {
    const repo = await double.addRepo(freshRepoName());
    const err = await forgeFor(double)
      .getBranchSha(repo.fullName, "bad..name")
      .catch((e) => e);
    expect(isForgeError(err, "invalid")).toBe(true);
    expect(double.requests.filter((r) => r.path.includes("bad"))).toEqual([]);
  });
});

describe("createSpeculativeBranch", () => {
  it("writes one commit with the base and every head as parents, and moves the branch once", async () => {
    const { repo, pulls } = await repoWithPulls(double, 3);
    const forge = forgeFor(double);
    const base = await forge.getBranchSha(repo.fullName, "main");
    const branch = "yardmaster/merge-queue/abc123";
    const [created, deleted, updated] = ["git/create-ref", "git/delete-ref", "graphql UpdateRefs"].map(
      (op) => double.calls(op).length,
    );
    const tip = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls);

    expect(await readRef(repo.git, `refs/heads/${branch}`)).toBe(tip);
    const c = await readCommit(repo.git, tip);
    // The tested commit carries no [skip ci]: CI runs on it; the merges made to build it do carry it.
    expect({ message: c.title, parents: c.parents }).toEqual({
      message: "Merge of #1, #2, #3",
      parents: [base, ...pulls.map((p) => p.headSha)],
    });
    const built = double.calls("repos/merge").map((r) => (r.body as { commit_message: string }).commit_message);
    expect(built.slice(-3)).toEqual(pulls.map((p) => `Merge of #${p.number} [skip ci]`));
    expect((await readFile(repo.git, tip, "f3.txt"))?.toString()).toBe("file 3\n");
    // Built on a temporary branch, gone afterwards; the final branch was written once, in the same
    // request (one updateRefs mutation) as the temporary branch's deletion.
    expect(await readRef(repo.git, "refs/heads/yardmaster/merge-queue/tmp-abc123")).toBeNull();
    expect(
      double
        .calls("git/create-ref")
        .slice(created)
        .map((r) => (r.body as { ref: string }).ref),
    ).toEqual(["refs/heads/yardmaster/merge-queue/tmp-abc123"]);
    expect(double.calls("git/delete-ref").length).toBe(deleted);
    expect(
      double
        .calls("graphql UpdateRefs")
        .slice(updated)
        .map((r) => (r.body as { variables: unknown }).variables),
    ).toEqual([
      {
        repositoryId: `R_${repo.id}`,
        refUpdates: [
          { name: `refs/heads/${branch}`, afterOid: tip, force: true },
          { name: "refs/heads/yardmaster/merge-queue/tmp-abc123", afterOid: "0".repeat(40), force: true },
        ],
      },
    ]);

    // Rebuilding force-moves the existing branch.
    const again = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls.slice(0, 1));
    expect(await readRef(repo.git, `refs/heads/${branch}`)).toBe(again);
    expect(await forge.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/empty", base, [])).toBe(base);
  });

  it("writes the batch's notes with the branch in one request, and with REST where GitHub refuses it", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const forge = forgeFor(double);
    const base = await forge.getBranchSha(repo.fullName, "main");
    const branch = "yardmaster/merge-queue/noted";
    const refs = [`refs/notes/yardmaster/${branch}`, `refs/notes/mergify/${branch}`];
    const show = async (ref: string, sha: string) =>
      (await runGit(repo.git.gitDir, ["notes", `--ref=${ref}`, "show", sha])).stdout.toString("utf8");
    const routes = ["graphql UpdateRefs", "git/create-ref", "git/update-ref", "git/delete-ref"];
    const count = () => routes.map((r) => double.calls(r).length);
    let before = count();
    const tip = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls, {
      notes: { refs, text: "---\nbatch_name: Batch 1\n" },
    });
    // The temporary branch created (REST), then one mutation: final branch, temporary deleted, two notes refs.
    expect(count().map((n, i) => n - before[i])).toEqual([1, 1, 0, 0]);
    const mutation = double.calls("graphql UpdateRefs").at(-1)!.body as {
      variables: { refUpdates: { name: string }[] };
    };
    expect(mutation.variables.refUpdates.map((u) => u.name)).toEqual([
      `refs/heads/${branch}`,
      "refs/heads/yardmaster/merge-queue/tmp-noted",
      ...refs,
    ]);
    for (const ref of refs) expect(await show(ref, tip)).toBe("---\nbatch_name: Batch 1\n");

    // Built again (a retry): the notes refs exist, GitHub refuses the mutation (nothing written),
    // and REST writes the branch, deletes the temporary one and extends each notes ref.
    before = count();
    const again = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls.slice(0, 1), {
      notes: { refs, text: "---\nbatch_name: Batch 1 retried\n" },
    });
    expect(await readRef(repo.git, `refs/heads/${branch}`)).toBe(again);
    expect(await readRef(repo.git, "refs/heads/yardmaster/merge-queue/tmp-noted")).toBeNull();
    for (const ref of refs) {
      expect(await show(ref, tip)).toBe("---\nbatch_name: Batch 1\n");
      expect(await show(ref, again)).toBe("---\nbatch_name: Batch 1 retried\n");
    }
    expect(count()[0] - before[0]).toBe(1);
  });

  it("names the pull request that does not merge and leaves the branch untouched", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const clash = await repo.commit("clash", { "f1.txt": "different\n" }, "Clash with f1");
    const third = await repo.openPull({ head: "clash" });
    const forge = forgeFor(double);
    const base = await forge.getBranchSha(repo.fullName, "main");
    const branch = "yardmaster/merge-queue/clash";
    const before = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls.slice(0, 1));

    const err = await forge
      .createSpeculativeBranch(repo.fullName, branch, base, [...pulls, { number: third.number, headSha: clash }])
      .catch((e) => e);
    expect(isForgeError(err, "conflict")).toBe(true);
    expect(isMergeConflict(err) && err.pullRequest).toBe(third.number);
    expect(await readRef(repo.git, `refs/heads/${branch}`)).toBe(before);
    expect(await readRef(repo.git, "refs/heads/yardmaster/merge-queue/tmp-clash")).toBeNull();
  });

  it("builds a batch behind another on the other's build: one merge per own pull request, the same tree", async () => {
    const { repo, pulls } = await repoWithPulls(double, 4);
    const forge = forgeFor(double);
    const base = await forge.getBranchSha(repo.fullName, "main");
    await forge.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/ahead", base, pulls.slice(0, 2));
    const merges = double.calls("repos/merge").length;
    const refs = double.calls("git/create-ref").length;
    const tip = await forge.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/behind", base, pulls);

    const made = double.calls("repos/merge").slice(merges);
    expect(made.map((r) => (r.body as { commit_message: string }).commit_message)).toEqual([
      "Merge of #3 [skip ci]",
      "Merge of #4 [skip ci]",
    ]);
    // The temporary branch starts at the batch ahead's last merge, which carries [skip ci]: no workflow runs.
    const start = (double.calls("git/create-ref")[refs].body as { ref: string; sha: string }).sha;
    expect((await readCommit(repo.git, start)).title).toBe("Merge of #2 [skip ci]");
    const c = await readCommit(repo.git, tip);
    expect({ message: c.title, parents: c.parents }).toEqual({
      message: "Merge of #1, #2, #3, #4",
      parents: [base, ...pulls.map((p) => p.headSha)],
    });
    // The tree a build from the base makes (a fresh adapter keeps no builds).
    const fresh = await forgeFor(double).createSpeculativeBranch(
      repo.fullName,
      "yardmaster/merge-queue/f",
      base,
      pulls,
    );
    expect(double.calls("repos/merge").length - merges).toBe(2 + 4);
    expect((await readCommit(repo.git, fresh)).tree).toBe(c.tree);

    // A start GitHub no longer has (an unreferenced commit removed): built from the base, the same tree.
    double.inject({
      operationId: "git/create-ref",
      status: 422,
      body: {
        message: "Object does not exist",
        documentation_url: "https://docs.github.com/rest/git/refs#create-a-reference",
      },
    });
    const before = double.calls("repos/merge").length;
    const rebuilt = await forge.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/again", base, [
      ...pulls.slice(0, 2),
      pulls[3],
    ]);
    expect(double.calls("repos/merge").length - before).toBe(3);
    const tree = (await readCommit(repo.git, rebuilt)).tree;
    expect((await runGit(repo.git.gitDir, ["ls-tree", "--name-only", tree])).stdout.toString()).toContain("f4.txt");
  });

  it("refuses a pull request listed twice", async () => {
    const { repo, pulls } = await repoWithPulls(double, 1);
    const err = await forgeFor(double)
      .createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/dup", pulls[0].headSha, [pulls[0], pulls[0]])
      .catch((e) => e);
    expect(isForgeError(err, "invalid")).toBe(true);
  });
});
