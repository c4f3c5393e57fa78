/**
 * Three repositories as teams commonly set them up on GitHub (docs/github.md "Branch protection
 * recipes" gives the same setups step by step), for the scenario tests:
 * - squash-only: the repository allows squash merging only; classic protection of main requires a
 *   pull request (no approval), the "test" check, and branches up to date before merging; CI is
 *   GitHub Actions on `pull_request`, drafts included;
 * - merge commits with rulesets: merge commits only; a ruleset on main requires the "test" check
 *   and an approved pull request, with the App a bypass actor (`always`); GitHub answers "Base
 *   branch was modified" to every third merge; CI on `pull_request` and on `push` to the queue's
 *   branches;
 * - linear history with fast-forward: classic protection of main requires a linear history and the
 *   "test" check; the queue's merge method is fast-forward; CI on `pull_request` (drafts skipped)
 *   and on `push` to the queue's branches.
 */
import type { WorkflowJob } from "../support/double-actions.js";
import { settingsOf } from "../support/double-rules.js";
import type { RepositorySetup } from "../support/github-world.js";

/** The queue's configuration: batches of 3, two checks at once, CI's "test" check required. */
function config(extra: string[] = []): string {
  return [
    "queue_rules:",
    "  - name: default",
    "    batch_size: 3",
    '    batch_max_wait_time: "1 s"',
    "    merge_conditions:",
    "      - check-success = test",
    "    branch_protection_injection_mode: merge",
    ...extra.map((l) => `    ${l}`),
    "merge_queue:",
    "  max_parallel_checks: 2",
    // Fewer writes, for speed: the scenarios read the outcome from the double and the log.
    "  status_comments: none",
    "  queue_controls_comment: false",
    "  queued_label: null",
    "  dequeued_label: null",
    "",
  ].join("\n");
}

const onPullRequest: WorkflowJob = { name: "test", on: { pull_request: {} }, failsWith: "BROKEN" };

export const SQUASH_STRICT: RepositorySetup = {
  name: "squash-strict",
  protect(repo) {
    const s = settingsOf(repo);
    s.allowMergeCommit = false;
    s.allowRebaseMerge = false;
    repo.protection.set("main", { contexts: [], checks: ["test"], approvals: 0, conversation: false });
    s.classic.set("main", { strict: true });
  },
  config: config(),
  jobs: [onPullRequest],
};

export const MERGE_RULESETS: RepositorySetup = {
  name: "merge-rulesets",
  protect(repo) {
    const s = settingsOf(repo);
    s.allowSquashMerge = false;
    s.allowRebaseMerge = false;
    s.baseModifiedEvery = 3;
    s.rulesets.push({
      id: 7001,
      name: "main",
      branches: ["main"],
      rules: [
        {
          type: "required_status_checks",
          parameters: { strict_required_status_checks_policy: false, required_status_checks: [{ context: "test" }] },
        },
        {
          type: "pull_request",
          parameters: {
            required_approving_review_count: 1,
            dismiss_stale_reviews_on_push: false,
            require_code_owner_review: false,
            require_last_push_approval: false,
            required_review_thread_resolution: false,
          },
        },
      ],
      appBypass: "always",
    });
  },
  config: config(),
  jobs: [{ ...onPullRequest, on: { pull_request: {}, push: { branches: ["yardmaster/merge-queue/**"] } } }],
  approve: true,
};

export const LINEAR_FAST_FORWARD: RepositorySetup = {
  name: "linear-fast-forward",
  protect(repo) {
    repo.protection.set("main", { contexts: [], checks: ["test"], approvals: null, conversation: false });
    settingsOf(repo).classic.set("main", { linear: true });
  },
  config: config(["merge_method: fast-forward"]),
  jobs: [
    { name: "test", on: { pull_request: {} }, skipDrafts: true, failsWith: "BROKEN" },
    { name: "test", on: { push: { branches: ["yardmaster/merge-queue/**"] } }, failsWith: "BROKEN" },
  ],
};
