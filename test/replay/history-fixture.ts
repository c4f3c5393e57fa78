/**
 * Git repositories with a chosen history, built by the tests with the git command line as a
 * person would: commits at chosen minutes (author and committer dates), branches, merges with
 * `--no-ff` (an octopus for several heads), nothing from the machine's git configuration.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** Minute `n` after 2024-01-01T00:00:00Z, as epoch milliseconds. */
export const minuteMs = (n: number): number => Date.UTC(2024, 0, 1) + n * 60_000;

/** A repository with a work tree whose history the test writes. */
export interface HistoryRepo {
  path: string;
  git(...args: string[]): string;
  /** Writes files (null deletes) and commits them on the current branch at minute `at`. @returns the SHA */
  commit(message: string, files: Record<string, string | null>, at: number, author?: string): Promise<string>;
  /** Switches to `branch`, creating it at `start` when given. */
  switchTo(branch: string, start?: string): void;
  /** Merges `heads` into the current branch at minute `at` with a merge commit (an octopus for several). @returns the SHA */
  merge(message: string, heads: string[], at: number): string;
  /** `git rev-parse rev^{tree}`. */
  tree(rev: string): string;
}

/** Creates an empty repository on `main` in `dir`. */
export async function historyRepo(dir: string): Promise<HistoryRepo> {
  await mkdir(dir, { recursive: true });
  let when = minuteMs(0);
  let who = "Ada";
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "commit.gpgSign=false", "-c", "core.hooksPath=/dev/null", ...args], {
      cwd: dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_AUTHOR_NAME: who,
        GIT_AUTHOR_EMAIL: `${who.toLowerCase()}@example.com`,
        GIT_COMMITTER_NAME: who,
        GIT_COMMITTER_EMAIL: `${who.toLowerCase()}@example.com`,
        GIT_AUTHOR_DATE: `${when / 1000} +0000`,
        GIT_COMMITTER_DATE: `${when / 1000} +0000`,
      },
    }).trim();
  git("init", "--quiet", "--initial-branch=main");
  return {
    path: dir,
    git,
    async commit(message, files, at, author = "Ada") {
      for (const [name, content] of Object.entries(files)) {
        const file = path.join(dir, name);
        if (content === null) git("rm", "--quiet", "--", name);
        else {
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, content);
          git("add", "--", name);
        }
      }
      when = minuteMs(at);
      who = author;
      git("commit", "--quiet", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD");
    },
    switchTo(branch, start) {
      if (start === undefined) git("switch", "--quiet", branch);
      else git("switch", "--quiet", "-c", branch, start);
    },
    merge(message, heads, at) {
      when = minuteMs(at);
      git("merge", "--quiet", "--no-ff", "-m", message, ...heads);
      return git("rev-parse", "HEAD");
    },
    tree: (rev) => git("rev-parse", `${rev}^{tree}`),
  };
}
