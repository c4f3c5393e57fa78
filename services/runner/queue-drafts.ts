/**
 * The queue's own draft pull requests (docs/merge-queue.md "Speculative checks"): their branches
 * start with a queue rule's `queue_branch_prefix`. Neither the queue's admission nor the pull
 * request rules look at them, so an event that names such a branch is passed over without reading
 * the pull request (docs/github.md "Request budget").
 */
import type { IngressEnv } from "./ingress-env.js";

/** Whether `head` (a branch name; absent: unknown) is a branch of the queue's drafts. */
export function isQueueBranch(env: Pick<IngressEnv, "config">, head: string | undefined): boolean {
  if (head === undefined) return false;
  return env.config.config.queue_rules.some(
    (q) => q.queue_branch_prefix !== "" && head.startsWith(q.queue_branch_prefix),
  );
}
