/**
 * Valid metadata samples of the workflow action events (`action.*` but the queue's; docs/events.md
 * "Event types"). Each builder takes overrides.
 */
import type { Builder } from "./event-samples-shared.js";

export const assignMetadata: Builder = (o) => ({ added: ["ada"], removed: [], ...o });
export const backportMetadata: Builder = (o) => ({
  to: "release/1.x",
  pull_request_number: 88,
  conflicts: false,
  ...o,
});
export const closeMetadata: Builder = (o) => ({ message: "closed by rule", ...o });
export const commentMetadata: Builder = (o) => ({ message: "hello", ...o });
export const copyMetadata: Builder = (o) => ({ to: "release/2.x", pull_request_number: 89, conflicts: true, ...o });
export const deleteHeadBranchMetadata: Builder = (o) => ({ branch: "feature/x", ...o });
export const dequeueMetadata: Builder = (o) => ({ ...o });
export const dismissReviewsMetadata: Builder = (o) => ({ users: ["grace"], ...o });
export const editMetadata: Builder = (o) => ({ draft: false, ...o });
export const hostActionsMetadata: Builder = (o) => ({ workflow: "deploy.yml", inputs: { env: "staging" }, ...o });
export const labelMetadata: Builder = (o) => ({ added: ["ready"], removed: ["wip"], ...o });
export const labelLoopStoppedMetadata: Builder = (o) => ({
  label: "ready",
  rules: ["add ready", "remove ready"],
  ...o,
});
export const mergeMetadata: Builder = (o) => ({ branch: "main", ...o });
export const postCheckMetadata: Builder = (o) => ({
  conclusion: "success",
  title: "Rule: ok",
  summary: "all good",
  ...o,
});
export const rebaseMetadata: Builder = (o) => ({ ...o });
export const refreshMetadata: Builder = (o) => ({ ...o });
export const requestReviewsMetadata: Builder = (o) => ({ reviewers: ["grace"], team_reviewers: ["core"], ...o });
export const reviewMetadata: Builder = (o) => ({ review_type: "APPROVE", reviewer: "ada", message: null, ...o });
export const squashMetadata: Builder = (o) => ({ ...o });
export const updateMetadata: Builder = (o) => ({ ...o });
