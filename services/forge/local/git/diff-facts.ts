/**
 * What a pull request changes: the diff from the merge base of base and head to head (GitHub's
 * three-dot diff), with rename detection (`git diff-tree -M`, 50 % similarity). Renamed files
 * contribute both paths to `files`, the old path to `removedFiles` and the new one to
 * `addedFiles` (docs/domain.md §2.2). Binary files count no lines.
 */
import type { Sha } from "../../types.js";
import { runGit } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import { mergeBase } from "./ancestry.js";
import { resolveCommit } from "./refs.js";
import { rememberForCommits } from "./commit-memo.js";
import { emptyTree } from "./write-commit.js";
import type { BareRepo } from "./bare-repo.js";

/** The file and line facts of a pull request; path lists sorted, each path once. */
export interface DiffFacts {
  files: string[];
  addedFiles: string[];
  modifiedFiles: string[];
  removedFiles: string[];
  addedLines: number;
  deletedLines: number;
}

/**
 * Diff facts of head against its merge base with base (the whole head tree when unrelated);
 * remembered per pair of full SHAs (commit-memo.ts), the caller gets its own copy.
 * @throws ForgeError not_found when either is not a commit
 */
export async function diffFacts(repo: BareRepo, base: string, head: string): Promise<DiffFacts> {
  return structuredClone(
    await rememberForCommits(repo, "diff-facts", [base, head], () => computeDiffFacts(repo, base, head)),
  );
}

async function computeDiffFacts(repo: BareRepo, base: string, head: string): Promise<DiffFacts> {
  const headSha = await resolveCommit(repo, head);
  const from = (await mergeBase(repo, base, headSha)) ?? (await emptyTree(repo));
  return diffBetween(repo, from, headSha);
}

/** Diff facts between two tree-ish objects (`from` → `to`), no merge base involved. */
export async function diffBetween(repo: BareRepo, from: Sha, to: Sha): Promise<DiffFacts> {
  const [status, numstat] = await withGitFailure(`diffing ${from} and ${to}`, () =>
    Promise.all([
      runGit(repo.gitDir, ["diff-tree", "-r", "-z", "-M", "--name-status", "--no-commit-id", from, to]),
      runGit(repo.gitDir, ["diff-tree", "-r", "-z", "-M", "--numstat", "--no-commit-id", from, to]),
    ]),
  );
  const files = new Set<string>();
  const added = new Set<string>();
  const modified = new Set<string>();
  const removed = new Set<string>();
  const fields = status.stdout.toString("utf8").split("\0");
  for (let i = 0; i < fields.length - 1; ) {
    const code = fields[i]!;
    if (code.startsWith("R") || code.startsWith("C")) {
      const [oldPath, newPath] = [fields[i + 1]!, fields[i + 2]!];
      files.add(oldPath).add(newPath);
      if (code.startsWith("R")) removed.add(oldPath);
      added.add(newPath);
      i += 3;
      continue;
    }
    const path = fields[i + 1]!;
    files.add(path);
    if (code === "A") added.add(path);
    else if (code === "D") removed.add(path);
    else modified.add(path);
    i += 2;
  }
  let addedLines = 0;
  let deletedLines = 0;
  // numstat -z: "<added>\t<deleted>\t<path>\0", or for a rename "<added>\t<deleted>\t\0<old>\0<new>\0".
  const stats = numstat.stdout.toString("utf8").split("\0");
  for (let i = 0; i < stats.length - 1; ) {
    const [a, d, path] = stats[i]!.split("\t");
    if (a !== "-") addedLines += Number(a);
    if (d !== "-") deletedLines += Number(d);
    i += path === "" ? 3 : 1;
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return {
    files: sorted(files),
    addedFiles: sorted(added),
    modifiedFiles: sorted(modified),
    removedFiles: sorted(removed),
    addedLines,
    deletedLines,
  };
}
