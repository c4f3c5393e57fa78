/**
 * The replay's own scratch git repository (docs/replay.md "The replayed repository"): a bare
 * repository in a temporary directory that borrows the history's objects (git alternates), where
 * the replay writes its few commits without touching the history: the commit adding the CI and
 * configuration files on top of A, and the marker commits of `--break`. Every commit or original
 * commit the replay pushes gets a ref here (`refs/replay/...`), so the forge fetches it by name.
 * Commits are written with git's plumbing (no work tree) by "yardmaster replay", at dates given.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runGit } from "../forge/index.js";

const IDENTITY = { name: "yardmaster replay", email: "replay@yardmaster.invalid" };

/** Files to write over a tree: path → text. */
export type FileTexts = Record<string, string>;

/** The scratch repository. */
export interface Workspace {
  /** Absolute path of the bare repository (what PushBranch's from_path names). */
  readonly path: string;
  /** Writes a commit whose tree is `parent`'s with `files` written over it. @returns its SHA */
  commitOnTop(parent: string, files: FileTexts, message: string, date: Date): Promise<string>;
  /** The tree of `commit` with `files` written over it (written, not committed). @returns the tree SHA */
  treeWith(commit: string, files: FileTexts): Promise<string>;
  /** Points `refs/replay/<name>` at `sha`. @returns the full ref name */
  setRef(name: string, sha: string): Promise<string>;
  /** Removes the directory. */
  dispose(): Promise<void>;
}

/**
 * Creates the scratch repository borrowing the objects of the repository at `historyPath`.
 * @throws GitCommandError when git fails (not a repository, no space)
 */
export async function createWorkspace(historyPath: string): Promise<Workspace> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "yardmaster-replay-"));
  const gitDir = path.join(dir, "replay.git");
  const git = async (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
    (await runGit(gitDir, args, options)).stdout.toString("utf8").trim();
  try {
    await runGit(null, ["init", "--quiet", "--bare", gitDir]);
    const common = (
      await runGit(null, ["-C", historyPath, "rev-parse", "--path-format=absolute", "--git-common-dir"])
    ).stdout
      .toString("utf8")
      .trim();
    await writeFile(path.join(gitDir, "objects", "info", "alternates"), `${path.join(common, "objects")}\n`);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  const treeWith = async (commit: string, files: FileTexts, index: string) => {
    const env = { GIT_INDEX_FILE: index };
    await git(["read-tree", commit], { env });
    for (const [file, text] of Object.entries(files)) {
      const blob = await git(["hash-object", "-w", "--stdin"], { input: text });
      await git(["update-index", "--add", "--cacheinfo", `100644,${blob},${file}`], { env });
    }
    return git(["write-tree"], { env });
  };
  let indexes = 0;
  const nextIndex = () => path.join(dir, `index-${indexes++}`);

  return {
    path: gitDir,
    async commitOnTop(parent, files, message, date) {
      const tree = await treeWith(parent, files, nextIndex());
      const when = `${Math.floor(date.getTime() / 1000)} +0000`;
      return git(["commit-tree", tree, "-p", parent], {
        input: message.endsWith("\n") ? message : `${message}\n`,
        env: {
          GIT_AUTHOR_NAME: IDENTITY.name,
          GIT_AUTHOR_EMAIL: IDENTITY.email,
          GIT_AUTHOR_DATE: when,
          GIT_COMMITTER_NAME: IDENTITY.name,
          GIT_COMMITTER_EMAIL: IDENTITY.email,
          GIT_COMMITTER_DATE: when,
        },
      });
    },
    treeWith: (commit, files) => treeWith(commit, files, nextIndex()),
    async setRef(name, sha) {
      const ref = `refs/replay/${name}`;
      await git(["update-ref", ref, sha]);
      return ref;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
