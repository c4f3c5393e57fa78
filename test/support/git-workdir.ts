/**
 * A git repository with a work tree, made by a test with the git command line as a person would
 * (identity and config fixed, nothing from the machine's global config).
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export interface GitWorkdir {
  path: string;
  git(...args: string[]): string;
  /** Writes files (relative paths) and commits them on the current branch; returns the SHA. */
  commit(message: string, files: Record<string, string>): Promise<string>;
}

export async function gitWorkdir(dir: string): Promise<GitWorkdir> {
  await mkdir(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync(
      "git",
      ["-c", "user.name=Ada", "-c", "user.email=ada@example.com", "-c", "commit.gpgSign=false", ...args],
      {
        cwd: dir,
        env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
        encoding: "utf8",
      },
    ).trim();
  git("init", "--quiet", "--initial-branch=main");
  return {
    path: dir,
    git,
    async commit(message, files) {
      for (const [name, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
        await writeFile(path.join(dir, name), content);
      }
      git("add", "-A");
      git("commit", "--quiet", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD");
    },
  };
}
