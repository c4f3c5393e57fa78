/**
 * The variables of action templates (docs/workflow-automation.md "Templates"): every attribute of
 * the pull request (conditions' names with `-` written `_`: `approved_reviews_by`,
 * `check_success`...), `url`, `commits` (objects with `sha`, `commit_message`, `author`), and the
 * action's own extra variables.
 */
import { attributesOf } from "../conditions/attributes-of.js";
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { TemplateVariables } from "./template.js";

/** The template variables of pull request `pr`, with `extra` (an action's own) on top. */
export function templateVariables(pr: PullRequestSnapshot, extra: TemplateVariables = {}): TemplateVariables {
  const attributes = attributesOf(pr);
  const vars: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attributes.values)) vars[name.replace(/-/g, "_")] = value;
  // Plural spellings real files use for the list attributes `label` and `assignee`.
  vars.labels = vars.label;
  vars.assignees = vars.assignee;
  vars.url = pr.url;
  vars.commits = pr.commits.map((c) => ({
    sha: c.sha,
    commit_message: c.message,
    author: c.author,
    committer: c.committer,
  }));
  return { ...vars, ...extra };
}

/** A pull request with typical values, to check templates against when the configuration loads. */
export function samplePullRequest(): PullRequestSnapshot {
  const at = new Date(Date.UTC(2024, 0, 1));
  return {
    repository: "owner/repo",
    number: 1,
    title: "title",
    body: "body",
    url: "https://example.invalid/owner/repo/pull/1",
    author: { id: 1, login: "author" },
    base: "main",
    head: "feature",
    headSha: "0".repeat(40),
    baseSha: "0".repeat(40),
    headRepoFullName: "owner/repo",
    draft: false,
    state: "open",
    locked: false,
    conflict: false,
    commitsBehind: 0,
    labels: [{ id: 1, name: "label", color: "ededed", default: false }],
    assignees: ["author"],
    requestedReviewers: [],
    requestedTeams: [],
    reviews: [],
    checks: [],
    files: ["README.md"],
    addedFiles: [],
    modifiedFiles: ["README.md"],
    removedFiles: [],
    addedLines: 1,
    deletedLines: 0,
    commits: [],
    milestone: null,
    mergedBy: null,
    mergeCommitSha: null,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    mergedAt: null,
    fromFork: false,
    reviewThreadsResolved: [],
    reviewThreadsUnresolved: [],
  };
}
