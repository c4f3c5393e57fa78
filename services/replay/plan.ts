/**
 * History → replay plan (pure; docs/replay.md "What is replayed"). Each change that landed on the
 * base (a first-parent commit after A) becomes steps:
 * - **merges mode** (the range holds at least one merge commit): every non-first parent of a merge
 *   commit is a pull request's head (an octopus merge holds several); a first-parent commit that
 *   is not a merge landed without a pull request and is pushed to the base as an outside change;
 * - **linear mode** (no merge commit in the range): every first-parent commit is its own pull
 *   request, whose head is the commit itself (so each one stacks on the one before).
 * A pull request arrives at its head's committer date (the last push; docs/replay.md "Method"),
 * never after it landed and never before A; an outside change arrives at its own committer
 * date. Steps are ordered by arrival (ties: landing order); pull requests are numbered 1, 2, ...
 * in that order (the numbers `--break` uses).
 */
import type { History, HistoryCommit } from "./history.js";

/** A pull request to open: its head is an existing commit of the history. */
export interface PullStep {
  kind: "pull";
  /** 1-based replay order among pull requests. */
  order: number;
  head: string;
  title: string;
  authorName: string;
  authorEmail: string;
  /** Arrival, epoch milliseconds UTC. */
  arrivalAt: number;
  /** The first-parent commit it landed with, and that commit's 0-based index after A. */
  landedIn: string;
  landing: number;
}

/** A commit that landed on the base without a pull request, pushed with PushBranch `merge`. */
export interface PushStep {
  kind: "push";
  sha: string;
  title: string;
  authorName: string;
  authorEmail: string;
  arrivalAt: number;
  landing: number;
  /** Orders of the pull requests that landed before it: it is pushed once they have left the queue. */
  after: number[];
}

/**
 * One step of a replay: open a pull request or push an outside change; {@link ReplayPlan.steps}
 * lists them by arrival (ties: landing order).
 */
export type ReplayStep = PullStep | PushStep;

/** What a replay does. */
export interface ReplayPlan {
  mode: "merges" | "linear";
  /** A: the commit the replayed repository starts at. */
  start: string;
  /** B: the last first-parent commit kept (after `limit`); the tree the replay must end with. */
  end: string;
  /** First-parent commits kept. */
  changes: number;
  steps: ReplayStep[];
  pulls: PullStep[];
  pushes: PushStep[];
}

/**
 * Builds the plan of a history, keeping the first `limit` changes after A (all when null).
 * @throws RangeError when `limit` is not a positive whole number
 */
export function planReplay(
  history: Pick<History, "start" | "commits" | "heads">,
  limit: number | null = null,
): ReplayPlan {
  if (limit !== null && (!Number.isInteger(limit) || limit < 1))
    throw new RangeError(`limit must be a positive whole number, got ${limit}`);
  const commits = limit === null ? history.commits : history.commits.slice(0, limit);
  const mode = commits.some((c) => c.parents.length > 1) ? "merges" : "linear";
  const floor = history.start.committedAt;
  type Draft = Omit<PullStep, "order"> | Omit<PushStep, "after">;
  const drafts: Draft[] = [];
  commits.forEach((commit, landing) => {
    const people = { authorName: commit.authorName, authorEmail: commit.authorEmail };
    if (mode === "linear") {
      drafts.push({
        kind: "pull",
        head: commit.sha,
        title: commit.subject,
        ...people,
        arrivalAt: Math.max(floor, commit.committedAt),
        landedIn: commit.sha,
        landing,
      });
      return;
    }
    if (commit.parents.length === 1) {
      drafts.push({
        kind: "push",
        sha: commit.sha,
        title: commit.subject,
        ...people,
        arrivalAt: Math.max(floor, commit.committedAt),
        landing,
      });
      return;
    }
    for (const sha of commit.parents.slice(1)) {
      const head: HistoryCommit = history.heads.get(sha) ?? { ...commit, sha, parents: [] };
      const arrivalAt = Math.min(commit.committedAt, Math.max(floor, head.committedAt));
      drafts.push({
        kind: "pull",
        head: sha,
        title: pullTitle(commit, head),
        authorName: head.authorName,
        authorEmail: head.authorEmail,
        arrivalAt,
        landedIn: commit.sha,
        landing,
      });
    }
  });
  const sorted = drafts
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.arrivalAt - b.d.arrivalAt || a.d.landing - b.d.landing || a.i - b.i)
    .map((x) => x.d);
  const pulls: PullStep[] = [];
  const steps: ReplayStep[] = sorted.map((d) => {
    if (d.kind === "push") return { ...d, after: [] };
    const step: PullStep = { ...d, order: pulls.length + 1 };
    pulls.push(step);
    return step;
  });
  for (const step of steps)
    if (step.kind === "push") step.after = pulls.filter((p) => p.landing < step.landing).map((p) => p.order);
  return {
    mode,
    start: history.start.sha,
    end: commits.at(-1)!.sha,
    changes: commits.length,
    steps,
    pulls,
    pushes: steps.filter((s): s is PushStep => s.kind === "push"),
  };
}

/** The title of a pull request: the merge commit's subject, or for an octopus merge (one subject for several) the head's own. */
function pullTitle(merge: HistoryCommit, head: HistoryCommit): string {
  return merge.parents.length > 2 ? head.subject : merge.subject;
}
