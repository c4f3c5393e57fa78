/**
 * Three-way merges of trees without a work tree, with `git merge-tree --write-tree` (the `ort`
 * strategy, rename detection included). Git 2.39 has no `--merge-base` option, so a merge with a
 * chosen base (a cherry-pick, for rebases) merges two synthetic commits whose only parent is a
 * commit of the chosen base tree: their merge base is then exactly that tree. Rules:
 * docs/local-forge.md "Merging without a work tree".
 */
import type { Sha } from "../../types.js";
import { GitCommandError, runGit } from "./git-command.js";
import { gitFailure } from "./errors.js";
import { YARDMASTER_IDENTITY, datedIdentity } from "./identity.js";
import { emptyTree, treeOf, writeCommit } from "./write-commit.js";
import { rememberForCommits } from "./commit-memo.js";
import type { BareRepo } from "./bare-repo.js";

/** Result of a tree merge: the merged tree, or the conflicting paths with git's messages. */
export type TreeMerge =
  | { clean: true; tree: Sha }
  | {
      clean: false;
      /** The merged tree with conflict markers in the conflicting files (absent for unrelated histories). */
      conflictedTree?: Sha;
      /** Conflicting paths, sorted, each once (empty for unrelated histories). */
      paths: string[];
      /** Git's conflict messages, one per line ("CONFLICT (content): Merge conflict in f"). */
      messages: string;
    };

/**
 * Merges commit `theirs` into commit `ours`, with the merge base git computes from history.
 * @throws ForgeError transient when git fails for another reason than a conflict
 */
export async function mergeCommits(repo: BareRepo, ours: Sha, theirs: Sha): Promise<TreeMerge> {
  try {
    const out = await runGit(repo.gitDir, ["merge-tree", "--write-tree", "-z", "--name-only", ours, theirs], {
      okExitCodes: [0, 1],
    });
    return parseMergeTree(out.stdout.toString("utf8"), out.exitCode);
  } catch (error) {
    if (error instanceof GitCommandError && /unrelated histories/.test(error.stderr)) {
      return { clean: false, paths: [], messages: error.stderr };
    }
    throw gitFailure(`merging ${theirs} into ${ours} in ${repo.name}`, error);
  }
}

/**
 * Three-way merge of the trees of `ours` and `theirs` against the tree of `base` (the empty tree
 * when `base` is null): what `git cherry-pick theirs` onto `ours` computes when base is theirs'
 * parent.
 * @throws ForgeError transient when git fails for another reason than a conflict
 */
export async function mergeCommitsWithBase(
  repo: BareRepo,
  base: Sha | null,
  ours: Sha,
  theirs: Sha,
): Promise<TreeMerge> {
  const epoch = datedIdentity(YARDMASTER_IDENTITY, new Date(0));
  const synthetic = (tree: Sha, parents: Sha[], message: string) =>
    writeCommit(repo, { tree, parents, message, author: epoch, committer: epoch });
  const baseTree = base === null ? await emptyTree(repo) : await treeOf(repo, base);
  const anchor = await synthetic(baseTree, [], "yardmaster: merge base\n");
  const [oursTree, theirsTree] = await Promise.all([treeOf(repo, ours), treeOf(repo, theirs)]);
  const [left, right] = await Promise.all([
    synthetic(oursTree, [anchor], "yardmaster: ours\n"),
    synthetic(theirsTree, [anchor], "yardmaster: theirs\n"),
  ]);
  return mergeCommits(repo, left, right);
}

/**
 * True when `head` does not merge cleanly into `base` (the pull request's `conflict` attribute);
 * remembered per pair of commits (commit-memo.ts).
 * @throws ForgeError transient when git fails
 */
export async function hasConflict(repo: BareRepo, base: Sha, head: Sha): Promise<boolean> {
  return rememberForCommits(repo, "conflict", [base, head], async () => !(await mergeCommits(repo, base, head)).clean);
}

/**
 * Parses `merge-tree --write-tree -z --name-only` output: `<tree>\0`, then on conflict the
 * conflicted paths each followed by `\0`, an empty field, and messages as records of
 * `<n>\0<path>\0 x n <type>\0<message>\0`.
 */
export function parseMergeTree(stdout: string, exitCode: number): TreeMerge {
  const fields = stdout.split("\0");
  const tree = fields[0]!.trim();
  if (exitCode === 0) return { clean: true, tree };
  const paths = new Set<string>();
  let i = 1;
  for (; i < fields.length && fields[i] !== ""; i++) paths.add(fields[i]!);
  i++;
  const messages: string[] = [];
  while (i < fields.length && fields[i] !== "") {
    const count = Number(fields[i]);
    if (!Number.isInteger(count)) break;
    const message = fields[i + count + 2];
    if (message !== undefined) messages.push(message.trim());
    i += count + 3;
  }
  return {
    clean: false,
    conflictedTree: /^[0-9a-f]{40,64}$/.test(tree) ? tree : undefined,
    paths: [...paths].sort(),
    messages: messages.filter((m) => m.startsWith("CONFLICT")).join("\n"),
  };
}
