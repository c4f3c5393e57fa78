/**
 * Writing commit objects with `git commit-tree` (no work tree, no index): a tree, its parents,
 * a message on stdin, identities and dates through the environment. Rules: docs/local-forge.md
 * "Identity and dates".
 */
import { ForgeError, type Sha } from "../../types.js";
import { gitText, runGit } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import { YARDMASTER_IDENTITY, datedIdentity, identityEnvironment, type DatedIdentity } from "./identity.js";
import type { BareRepo } from "./bare-repo.js";
import { isFullSha } from "./full-sha.js";

/** What a new commit is made of. */
export interface NewCommit {
  /** Tree SHA. */
  tree: Sha;
  /** Parent commit SHAs, first parent first (empty for a root commit). */
  parents: readonly Sha[];
  /** Full message; a final newline is added when missing. */
  message: string;
  author: DatedIdentity;
  committer: DatedIdentity;
}

/**
 * Writes a commit object (no ref moves).
 * @returns the new commit's SHA
 * @throws ForgeError invalid for a bad identity; transient when git refuses (e.g. a missing tree)
 */
export async function writeCommit(repo: BareRepo, commit: NewCommit): Promise<Sha> {
  const args = ["commit-tree", "--no-gpg-sign", commit.tree];
  for (const parent of commit.parents) args.push("-p", parent);
  args.push("-F", "-");
  const message = commit.message.endsWith("\n") ? commit.message : `${commit.message}\n`;
  const env = identityEnvironment(commit.author, commit.committer);
  return withGitFailure(`writing a commit in ${repo.name}`, () => gitText(repo.gitDir, args, { input: message, env }));
}

/**
 * Writes a commit authored and committed by Yardmaster at `date` (merge commits, squashes,
 * speculative merges).
 * @returns the new commit's SHA
 */
export function writeYardmasterCommit(
  repo: BareRepo,
  tree: Sha,
  parents: readonly Sha[],
  message: string,
  date: Date,
): Promise<Sha> {
  const me = datedIdentity(YARDMASTER_IDENTITY, date);
  return writeCommit(repo, { tree, parents, message, author: me, committer: me });
}

/** The tree SHA of a commit (one `rev-parse`). @throws ForgeError not_found when `commit` names no commit */
export async function treeOf(repo: BareRepo, commit: string): Promise<Sha> {
  if (commit.trim() === "" || commit.includes("\0")) throw new ForgeError("invalid", `"${commit}" is not a revision`);
  const out = await withGitFailure(`reading the tree of ${commit}`, () =>
    runGit(repo.gitDir, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${commit}^{commit}^{tree}`], {
      okExitCodes: [0, 1, 128],
    }),
  );
  const tree = out.stdout.toString("utf8").trim();
  if (out.exitCode !== 0 || !isFullSha(tree))
    throw new ForgeError("not_found", `no commit "${commit}" in ${repo.name}`);
  return tree;
}

/** Writes (if needed) and returns the empty tree's SHA. */
export function emptyTree(repo: BareRepo): Promise<Sha> {
  return withGitFailure(`writing the empty tree in ${repo.name}`, () =>
    gitText(repo.gitDir, ["mktree"], { input: "" }),
  );
}
