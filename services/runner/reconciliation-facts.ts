/**
 * What reconciliation compares (reconciliation.ts; docs/github.md "Reconciliation"): a pull
 * request's facts as both a listing and a snapshot show them, and the checks of a commit, each
 * as one text so that a pass compares two texts. Pure.
 */
import type { CheckRun, PullRequestHead } from "../forge/index.js";

/** What both a list and a snapshot show of what the conditions read. */
export type Facts = Pick<
  PullRequestHead,
  Exclude<keyof PullRequestHead, "number" | "state" | "updatedAt" | "mergeCommitSha">
>;

/** `p`'s facts as one text, without the labels in `ignored` (lower case: the queue's own status labels). */
export const factsOf = (p: Facts, ignored: ReadonlySet<string>) =>
  JSON.stringify([
    p.base,
    p.headSha,
    p.title,
    p.body,
    p.draft,
    p.locked,
    p.labels.filter((l) => !ignored.has(l.toLowerCase())).sort(),
    [...p.assignees].sort(),
    [...p.requestedReviewers].sort(),
    [...p.requestedTeams].sort(),
    p.milestone,
  ]);

/** The names and states of `checks`, as one text independent of their order. */
export const fingerprint = (checks: readonly { name: string; state: string }[]) =>
  checks
    .map((c) => `${c.name}\u0000${c.state}`)
    .sort()
    .join("\n");

/** The queue's check runs and statuses as the engine records them: not its own. */
export const foreign = (checks: readonly CheckRun[]) => checks.filter((c) => c.app !== "yardmaster");
