/**
 * Named builders for the configuration tests: pull request snapshots as the forge reports them,
 * their checks, reviews and commits, and evaluation contexts with an injected clock.
 */
import type { CheckRun, CheckState, CommitInfo, PullRequestSnapshot, Review } from "../../services/forge/types.js";
import { attributesOf, type EvaluationContext, type QueueContext } from "../../services/config/index.js";

/** A fixed instant every test that does not care about time uses: Wednesday 2026-03-18 12:00 UTC. */
export const NOON = new Date("2026-03-18T12:00:00Z");

export function checkRun(name: string, state: CheckState, app = "ci"): CheckRun {
  return { name, state, description: "", detailsUrl: null, app, startedAt: null, completedAt: null };
}

export function review(author: string, state: Review["state"], minute = 0): Review {
  return { author, state, submittedAt: new Date(Date.UTC(2026, 2, 1, 10, minute)) };
}

export function commit(overrides: Partial<CommitInfo> = {}): CommitInfo {
  return {
    sha: "a".repeat(40),
    title: "Fix the thing",
    message: "Fix the thing",
    author: "alice",
    committer: "alice",
    parents: ["b".repeat(40)],
    verified: true,
    date: new Date("2026-03-10T09:00:00Z"),
    ...overrides,
  };
}

/** An open, mergeable pull request #42 by alice from `feature` into `main` of acme/widgets. */
export function pullRequest(overrides: Partial<PullRequestSnapshot> = {}): PullRequestSnapshot {
  return {
    repository: "acme/widgets",
    number: 42,
    title: "Add the widget",
    body: "Adds the widget.",
    url: "https://forge.example/acme/widgets/pull/42",
    author: { id: 1, login: "alice" },
    base: "main",
    head: "feature",
    headSha: "c".repeat(40),
    baseSha: "d".repeat(40),
    headRepoFullName: "acme/widgets",
    draft: false,
    state: "open",
    locked: false,
    conflict: false,
    commitsBehind: 0,
    labels: [],
    assignees: [],
    requestedReviewers: [],
    requestedTeams: [],
    reviews: [],
    checks: [],
    files: ["src/widget.ts"],
    addedFiles: [],
    modifiedFiles: ["src/widget.ts"],
    removedFiles: [],
    addedLines: 10,
    deletedLines: 2,
    commits: [commit()],
    milestone: null,
    mergedBy: null,
    mergeCommitSha: null,
    createdAt: new Date("2026-03-10T08:00:00Z"),
    updatedAt: new Date("2026-03-15T08:00:00Z"),
    closedAt: null,
    mergedAt: null,
    fromFork: false,
    reviewThreadsResolved: [],
    reviewThreadsUnresolved: [],
    ...overrides,
  };
}

/** Labels of a snapshot from names. */
export function labels(...names: string[]): PullRequestSnapshot["labels"] {
  return names.map((name, i) => ({ id: i + 1, name, color: "ededed", default: false }));
}

/** An evaluation context for a pull request at `now` (default {@link NOON}). */
export function contextFor(
  snapshot: PullRequestSnapshot = pullRequest(),
  options: { queue?: QueueContext; now?: Date; teams?: Record<string, string[]> } = {},
): EvaluationContext {
  return { attributes: attributesOf(snapshot, options.queue ?? {}), now: options.now ?? NOON, teams: options.teams };
}
