/**
 * Reading a repository's history for a replay with the `git` command (docs/replay.md "What is
 * replayed"): the first-parent history of the base between A (excluded) and B (included), each
 * commit with its parents, committer date (UTC milliseconds), author and subject, and the same
 * facts for every non-first parent of a merge commit (the pull request heads).
 */
import path from "node:path";
import { GitCommandError, runGit } from "../forge/index.js";
import { ReplayError } from "./errors.js";

/** One commit as the replay needs it. */
export interface HistoryCommit {
  sha: string;
  /** Parent SHAs, first parent first (empty for a root commit). */
  parents: string[];
  /** Committer date, epoch milliseconds UTC. */
  committedAt: number;
  authorName: string;
  authorEmail: string;
  /** First line of the message. */
  subject: string;
}

/** The history a replay starts from. */
export interface History {
  /** Absolute path of the repository (its top level, or the bare repository). */
  path: string;
  /** The base branch name as given. */
  base: string;
  /** A: the commit the replayed repository starts at. */
  start: HistoryCommit;
  /** The first-parent commits after A up to B, oldest first. */
  commits: HistoryCommit[];
  /** Every non-first parent of the merge commits in `commits`, by SHA. */
  heads: Map<string, HistoryCommit>;
}

/** Where the history is and which part of it: `range` is `A..B` (B defaults to `base`). */
export interface HistoryQuery {
  path: string;
  base: string;
  range?: string;
}

const FIELDS = 6;
const FORMAT = "%H%x00%P%x00%ct%x00%an%x00%ae%x00%s";

async function git(cwd: string, args: string[], input?: string): Promise<string> {
  const out = await runGit(null, ["-C", cwd, ...args], input === undefined ? {} : { input });
  return out.stdout.toString("utf8");
}

/** Parses `git log -z --format=FORMAT` output: records and fields are NUL-separated. */
export function parseCommitRecords(text: string): HistoryCommit[] {
  const parts = text.split("\0");
  if (parts.at(-1) === "" || parts.at(-1) === "\n") parts.pop();
  const commits: HistoryCommit[] = [];
  for (let i = 0; i + FIELDS <= parts.length; i += FIELDS) {
    const [sha, parents, ct, an, ae, s] = parts.slice(i, i + FIELDS) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    commits.push({
      sha: sha.trim(),
      parents: parents === "" ? [] : parents.split(" "),
      committedAt: Number(ct) * 1000,
      authorName: an,
      authorEmail: ae,
      subject: s,
    });
  }
  return commits;
}

/**
 * The repository's top level (or git directory, when bare).
 * @throws ReplayError naming --from when `dir` is not a git repository
 */
async function repositoryRoot(dir: string): Promise<string> {
  const abs = path.resolve(dir);
  try {
    const bare = (await git(abs, ["rev-parse", "--is-bare-repository"])).trim() === "true";
    return bare
      ? path.resolve(abs, (await git(abs, ["rev-parse", "--git-dir"])).trim())
      : (await git(abs, ["rev-parse", "--show-toplevel"])).trim();
  } catch (error) {
    if (error instanceof GitCommandError) throw new ReplayError(`--from: ${abs} is not a git repository`);
    throw error;
  }
}

/** @throws ReplayError naming `option` when `rev` is not a commit of the repository */
async function resolveCommit(root: string, rev: string, option: string): Promise<string> {
  const out = await runGit(
    null,
    ["-C", root, "rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`],
    { okExitCodes: [0, 1, 128] },
  );
  const sha = out.stdout.toString("utf8").trim();
  if (out.exitCode !== 0 || !/^[0-9a-f]{40}$/.test(sha))
    throw new ReplayError(`${option}: "${rev}" is not a commit of ${root}`);
  return sha;
}

/**
 * Splits `A..B` (B may be empty: the base).
 * @throws ReplayError naming --range for any other shape
 */
export function parseRange(range: string): { from: string; to: string | null } {
  const text = range.trim();
  const at = text.indexOf("..");
  const from = at === -1 ? "" : text.slice(0, at);
  const to = at === -1 ? "" : text.slice(at + 2);
  if (from === "" || to.includes("..") || to.startsWith("."))
    throw new ReplayError(`--range: "${range}" must be written A..B (A excluded, B included)`);
  return { from, to: to === "" ? null : to };
}

/**
 * Reads the history to replay. Without a range, A is the first commit of the base's first-parent
 * history (a root commit cannot be merged into anything, so it is where the replay starts).
 * @throws ReplayError naming --from, --base or --range: not a repository, unknown revision, A not
 *   on B's first-parent history, nothing after A
 */
export async function readHistory(query: HistoryQuery): Promise<History> {
  const root = await repositoryRoot(query.path);
  const range = query.range === undefined ? null : parseRange(query.range);
  const tip = await resolveCommit(root, range?.to ?? query.base, range?.to ? "--range" : "--base");
  let start: HistoryCommit;
  let commits: HistoryCommit[];
  if (range === null) {
    const all = parseCommitRecords(
      await git(root, ["log", "-z", "--first-parent", "--reverse", `--format=${FORMAT}`, tip]),
    );
    start = all[0]!;
    commits = all.slice(1);
  } else {
    const from = await resolveCommit(root, range.from, "--range");
    commits = parseCommitRecords(
      await git(root, ["log", "-z", "--first-parent", "--reverse", `--format=${FORMAT}`, `${from}..${tip}`]),
    );
    start = parseCommitRecords(await git(root, ["log", "-z", "--no-walk", `--format=${FORMAT}`, from]))[0]!;
    if (commits.length > 0 && commits[0]!.parents[0] !== from) {
      throw new ReplayError(`--range: ${range.from} is not on the first-parent history of ${range.to ?? query.base}`);
    }
  }
  if (commits.length === 0)
    throw new ReplayError(`--range: nothing landed on ${query.base} after ${start.sha.slice(0, 12)}`);
  const headShas = [...new Set(commits.flatMap((c) => c.parents.slice(1)))];
  const heads = new Map<string, HistoryCommit>();
  if (headShas.length > 0) {
    const text = await git(
      root,
      ["log", "-z", "--no-walk=unsorted", "--stdin", `--format=${FORMAT}`],
      `${headShas.join("\n")}\n`,
    );
    for (const c of parseCommitRecords(text)) heads.set(c.sha, c);
  }
  return { path: root, base: query.base, start, commits, heads };
}
