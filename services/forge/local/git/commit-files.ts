/**
 * Committing a set of file changes on top of a commit without a work tree: the parent's tree is
 * read into a temporary index (`GIT_INDEX_FILE`), blobs are written with `hash-object --stdin`,
 * entries replaced with `update-index --index-info`, and `write-tree` + `commit-tree` finish.
 * Used by tests, by pushes to the local forge and by the history replay. Rules:
 * docs/local-forge.md "Files".
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ForgeError, type Sha } from "../../types.js";
import { gitText, runGit } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import { validateFilePath } from "./file-path.js";
import { YARDMASTER_IDENTITY, datedIdentity, type GitIdentity } from "./identity.js";
import { compareAndSwapRef, branchRef, findBranchSha, resolveCommit } from "./refs.js";
import { writeCommit } from "./write-commit.js";
import type { BareRepo } from "./bare-repo.js";

/** New content of one file: text (UTF-8), bytes, or bytes with the executable bit; null deletes. */
export type FileChange = string | Buffer | { content: string | Buffer; executable: boolean } | null;

/** Input of {@link commitFiles}. */
export interface CommitFilesInput {
  /** Parent commit (any revision); null for a root commit. */
  parent: string | null;
  /**
   * Path → new content; null deletes the path (deleting an absent path is a no-op). Writing
   * `a/b` where `a` is a file replaces the file with a directory, as git does.
   */
  changes: Readonly<Record<string, FileChange>>;
  message: string;
  /** Author and committer date (UTC). */
  date: Date;
  /** Author (default Yardmaster); the committer is always Yardmaster. */
  author?: GitIdentity;
}

/**
 * Writes a commit whose tree is the parent's tree with `changes` applied. Moves no ref.
 * @returns the new commit SHA
 * @throws ForgeError invalid for a bad path or identity, or no changes given; not_found when the
 *   parent is not a commit
 */
export async function commitFiles(repo: BareRepo, input: CommitFilesInput): Promise<Sha> {
  const paths = Object.keys(input.changes);
  if (paths.length === 0) throw new ForgeError("invalid", "changes must name at least one file");
  for (const path of paths) validateFilePath(path, "changes path");
  const parent = input.parent === null ? null : await resolveCommit(repo, input.parent);
  const author = datedIdentity(input.author ?? YARDMASTER_IDENTITY, input.date);
  const committer = datedIdentity(YARDMASTER_IDENTITY, input.date);

  const tree = await withGitFailure(`writing files in ${repo.name}`, async () => {
    const dir = await mkdtemp(join(tmpdir(), "yardmaster-index-"));
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    try {
      await runGit(repo.gitDir, parent === null ? ["read-tree", "--empty"] : ["read-tree", parent], { env });
      const entries: string[] = [];
      for (const path of paths.sort()) {
        const change = input.changes[path] ?? null;
        if (change === null) {
          entries.push(`0 ${"0".repeat(40)}\t${path}\0`);
          continue;
        }
        const { content, executable } =
          typeof change === "string" || Buffer.isBuffer(change) ? { content: change, executable: false } : change;
        const blob = await gitText(repo.gitDir, ["hash-object", "-w", "--stdin"], { input: content });
        entries.push(`${executable ? "100755" : "100644"} ${blob}\t${path}\0`);
      }
      await runGit(repo.gitDir, ["update-index", "-z", "--index-info"], { input: entries.join(""), env });
      return await gitText(repo.gitDir, ["write-tree"], { env });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  return writeCommit(repo, {
    tree,
    parents: parent === null ? [] : [parent],
    message: input.message,
    author,
    committer,
  });
}

/** Input of {@link commitToBranch}. */
export interface CommitToBranchInput extends Omit<CommitFilesInput, "parent"> {
  branch: string;
  /** Create the branch (as a root commit) when it does not exist; default false (not_found). */
  create?: boolean;
}

/**
 * Commits `changes` on top of a branch's tip and moves the branch there with a compare-and-swap.
 * @returns the new tip SHA
 * @throws ForgeError not_found when the branch is missing (and `create` is false); conflict when
 *   the branch moved while the commit was written; invalid as {@link commitFiles}
 */
export async function commitToBranch(repo: BareRepo, input: CommitToBranchInput): Promise<Sha> {
  const tip = await findBranchSha(repo, input.branch);
  if (tip === null && input.create !== true)
    throw new ForgeError("not_found", `no branch "${input.branch}" in ${repo.name}`);
  const sha = await commitFiles(repo, { ...input, parent: tip });
  await compareAndSwapRef(repo, branchRef(input.branch), tip, sha);
  return sha;
}
