/**
 * Reading a file at a revision without a work tree: `git ls-tree` finds the entry, `git cat-file`
 * reads the blob. Rules: docs/local-forge.md "Files".
 */
import type { Sha } from "../../types.js";
import { runGit } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import { validateFilePath } from "./file-path.js";
import { resolveCommit } from "./refs.js";
import type { BareRepo } from "./bare-repo.js";

/** A file's bytes and blob SHA. */
export interface FileBlob {
  /** Blob SHA. */
  sha: Sha;
  content: Buffer;
  /** True for mode 100755. */
  executable: boolean;
}

/**
 * Reads `path` at `rev` as bytes.
 * @returns the blob, or null when the path does not exist at that commit or names a directory or
 *   a submodule (a symbolic link is a blob: its content is the link target)
 * @throws ForgeError not_found when `rev` names no commit; invalid for a bad path
 */
export async function readFileBlob(repo: BareRepo, rev: string, path: string): Promise<FileBlob | null> {
  validateFilePath(path);
  const commit = await resolveCommit(repo, rev);
  return withGitFailure(`reading ${path} at ${commit}`, async () => {
    const listing = await runGit(repo.gitDir, ["ls-tree", "-z", "--full-tree", commit, "--", path]);
    const entry = listing.stdout
      .toString("utf8")
      .split("\0")
      .find((e) => e.endsWith(`\t${path}`));
    if (entry === undefined) return null;
    const [mode, type, sha] = entry.slice(0, entry.indexOf("\t")).split(" ");
    if (type !== "blob" || sha === undefined) return null;
    const blob = await runGit(repo.gitDir, ["cat-file", "blob", sha]);
    return { sha, content: blob.stdout, executable: mode === "100755" };
  });
}

/**
 * Reads `path` at `rev` as UTF-8 text (the port's `readFile`).
 * @returns the text, or null when absent or not a file
 * @throws ForgeError not_found when `rev` names no commit; invalid for a bad path
 */
export async function readFile(repo: BareRepo, rev: string, path: string): Promise<string | null> {
  const blob = await readFileBlob(repo, rev, path);
  return blob === null ? null : blob.content.toString("utf8");
}
