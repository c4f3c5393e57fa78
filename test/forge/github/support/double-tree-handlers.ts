/**
 * The GitHub test double's tree operations: `POST .../git/trees` (entries with `content`, `sha`,
 * or `sha: null` to delete, on a `base_tree`), written with real git into a temporary index, and
 * the `files` of a comparison (`git diff --name-status -M`), as GitHub answers them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runGit } from "../../../../services/forge/local/git/index.js";
import { example, unprocessable, type Handler } from "./double-answers.js";
import type { DoubleRepo } from "./double-state.js";

const STATUS: Record<string, string> = { A: "added", M: "modified", D: "removed", R: "renamed" };

/** The files changed from `base` to `head`, as the `files` of GitHub's comparison. */
export async function changedFiles(repo: DoubleRepo, base: string, head: string): Promise<unknown[]> {
  const out = await runGit(repo.git.gitDir, ["diff", "--name-status", "-M", base, head]);
  const template = example("repos/compare-commits-with-basehead", 200).files?.[0] ?? {};
  return out.stdout
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [code, first, second] = line.split("\t") as [string, string, string | undefined];
      const renamed = code.startsWith("R");
      const file = { ...template, filename: renamed ? second! : first, status: STATUS[code[0]!] ?? "changed" };
      return renamed ? { ...file, previous_filename: first } : file;
    });
}

type Entry = { path: string; mode: string; type: string; sha?: string | null; content?: string };

export const treeHandlers: Record<string, Handler> = {
  "git/create-tree": async (ctx) => {
    const { base_tree: baseTree, tree } = ctx.body as { base_tree?: string; tree: Entry[] };
    const gitDir = ctx.repo.git.gitDir;
    const dir = await mkdtemp(path.join(os.tmpdir(), "ym-double-index-"));
    const env = { GIT_INDEX_FILE: path.join(dir, "index") };
    try {
      if (baseTree) {
        const read = await runGit(gitDir, ["read-tree", baseTree], { env, okExitCodes: [0, 128] });
        if (read.exitCode !== 0) return unprocessable("base_tree is not a valid tree oid");
      }
      const lines: string[] = [];
      for (const e of tree) {
        if (e.content !== undefined) {
          const blob = await runGit(gitDir, ["hash-object", "-w", "--stdin"], { input: e.content });
          lines.push(`${e.mode} ${blob.stdout.toString("utf8").trim()}\t${e.path}`);
        } else if (e.sha === null) lines.push(`0 ${"0".repeat(40)}\t${e.path}`);
        else lines.push(`${e.mode} ${e.sha}\t${e.path}`);
      }
      await runGit(gitDir, ["update-index", "--index-info"], { env, input: `${lines.join("\n")}\n` });
      const sha = (await runGit(gitDir, ["write-tree"], { env })).stdout.toString("utf8").trim();
      return { status: 201, body: { ...example("git/create-tree", 201), sha, truncated: false } };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
