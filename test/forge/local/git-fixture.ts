/**
 * Named builders for the local forge's git tests: a real bare repository in a `mkdtemp`
 * directory, commits written through the layer under test (`commitFiles`), fixed dates, and a
 * reader of a commit's whole tree for assertions.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  commitFiles,
  createRepository,
  readFile,
  setBranch,
  type BareRepo,
  type FileChange,
} from "../../../services/forge/local/git/index.js";
import { runGit } from "../../../services/forge/local/git/git-command.js";

/** A date `minutes` after 2024-01-01T00:00:00Z: every commit of a test gets a fixed date. */
export function at(minutes: number): Date {
  return new Date(Date.UTC(2024, 0, 1, 0, minutes));
}

/** A test repository with a `main` branch holding `README.md`, and helpers to grow it. */
export interface TestRepo {
  repo: BareRepo;
  /** Temporary directory holding everything; removed by `cleanup`. */
  dir: string;
  /** SHA of the first commit on main. */
  root: string;
  /** Writes a commit on top of `parent` (no ref moves). */
  commit(parent: string, changes: Record<string, FileChange>, message?: string): Promise<string>;
  /** Points a branch at a commit (force). */
  branch(name: string, sha: string): Promise<string>;
  /** Every file of a commit: path → text. */
  filesAt(rev: string): Promise<Record<string, string>>;
  cleanup(): Promise<void>;
}

let clock = 1;

/** Creates a bare repository whose `main` starts with `README.md` = "hello\n" (or `files`). */
export async function createTestRepo(
  files: Record<string, FileChange> = { "README.md": "hello\n" },
): Promise<TestRepo> {
  const dir = await mkdtemp(join(tmpdir(), "yardmaster-git-test-"));
  const repo = await createRepository({ gitDir: join(dir, "repo.git"), name: "acme/widgets", defaultBranch: "main" });
  const root = await commitFiles(repo, { parent: null, changes: files, message: "initial", date: at(0) });
  await setBranch(repo, "main", root);
  return {
    repo,
    dir,
    root,
    commit: (parent, changes, message = "change") =>
      commitFiles(repo, {
        parent,
        changes,
        message,
        date: at(clock++),
        author: { name: "Ada", email: "ada@example.com" },
      }),
    branch: async (name, sha) => {
      await setBranch(repo, name, sha);
      return sha;
    },
    filesAt: (rev) => filesAt(repo, rev),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Every file of a commit as path → UTF-8 text. */
export async function filesAt(repo: BareRepo, rev: string): Promise<Record<string, string>> {
  const out = await runGit(repo.gitDir, ["ls-tree", "-r", "-z", "--name-only", rev]);
  const paths = out.stdout
    .toString("utf8")
    .split("\0")
    .filter((p) => p !== "");
  const result: Record<string, string> = {};
  for (const path of paths) result[path] = (await readFile(repo, rev, path)) ?? "<missing>";
  return result;
}

/** Raw `git` output for assertions on structure (parents, messages). */
export async function git(repo: BareRepo, args: string[]): Promise<string> {
  return (await runGit(repo.gitDir, args)).stdout.toString("utf8").trim();
}
