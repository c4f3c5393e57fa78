/**
 * Runs the `git` binary against one bare repository: `execFile` (never a shell) in the launcher's
 * helper process (git-launcher.ts), arguments as an array, optional stdin, and an environment
 * built from scratch so that neither the user's git configuration nor a `GIT_DIR`/`GIT_INDEX_FILE`
 * inherited from a hook can change what a command does. Rules: docs/local-forge.md "Running git".
 */
import { launchGit } from "./git-launcher.js";

/** Why a git command failed: the command, its exit code and its stderr (kept for `cause`). */
export class GitCommandError extends Error {
  override readonly name = "GitCommandError";
  constructor(
    /** Arguments given to git, after the global options. */
    readonly args: readonly string[],
    /** Exit code, or null when git could not be started or was killed. */
    readonly exitCode: number | null,
    /** Git's stderr, trimmed. */
    readonly stderr: string,
    options?: { cause?: unknown },
  ) {
    super(`git ${args.join(" ")} failed (exit ${exitCode ?? "none"}): ${stderr || "no message"}`, options);
  }
}

/** What a finished git command printed. */
export interface GitOutput {
  /** Raw stdout bytes (object contents may be binary). */
  stdout: Buffer;
  /** Stderr as UTF-8 text. */
  stderr: string;
  /** Exit code (one of `okExitCodes`). */
  exitCode: number;
}

/** Options of {@link runGit}. */
export interface GitRunOptions {
  /** Bytes written to git's stdin (blobs, messages, `--stdin` lists). */
  input?: string | Buffer;
  /** Extra environment variables (identity, dates, `GIT_INDEX_FILE`). */
  env?: Record<string, string>;
  /** Exit codes that are not failures (default `[0]`); e.g. merge-tree uses 1 for "conflicts". */
  okExitCodes?: readonly number[];
  /** Working directory for git (default: the process's); only `worktree` commands care. */
  cwd?: string;
}

/** Largest stdout accepted from one command (256 MiB): a blob or a long history. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * The environment every git command gets: PATH and HOME from the process, C locale (messages
 * stay parseable), no system or global configuration, no terminal prompts, no hooks.
 */
export function baseGitEnvironment(): Record<string, string> {
  const env: Record<string, string> = {
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
  };
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  if (process.env.HOME !== undefined) env.HOME = process.env.HOME;
  return env;
}

/**
 * Runs `git --git-dir=<gitDir> <args...>` (or plain `git <args...>` when gitDir is null).
 * @returns stdout (bytes), stderr and the exit code
 * @throws GitCommandError when git cannot start or exits with a code outside `okExitCodes`
 */
export async function runGit(
  gitDir: string | null,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitOutput> {
  const globalArgs = ["-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false"];
  const fullArgs = gitDir === null ? [...globalArgs, ...args] : [`--git-dir=${gitDir}`, ...globalArgs, ...args];
  const okExitCodes = options.okExitCodes ?? [0];
  const result = await launchGit({
    args: fullArgs,
    env: { ...baseGitEnvironment(), ...options.env },
    cwd: options.cwd,
    input: options.input,
    maxBuffer: MAX_OUTPUT_BYTES,
  });
  const stderr = result.stderr.toString("utf8").trim();
  if (result.exitCode !== null && (result.exitCode === 0 || okExitCodes.includes(result.exitCode))) {
    return { stdout: result.stdout, stderr, exitCode: result.exitCode };
  }
  throw new GitCommandError(args, result.exitCode, stderr || (result.message ?? "no message"));
}

/** Runs git and returns stdout as trimmed UTF-8 text. Same errors as {@link runGit}. */
export async function gitText(
  gitDir: string | null,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<string> {
  const out = await runGit(gitDir, args, options);
  return out.stdout.toString("utf8").trim();
}
