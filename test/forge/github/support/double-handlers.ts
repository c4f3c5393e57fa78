/**
 * Every operation of the GitHub test double, by OpenAPI operationId (repository operations in
 * double-git-handlers.ts, pull request reads and writes in double-pull-read-handlers.ts and
 * double-pull-write-handlers.ts, reviews in double-review-handlers.ts, statuses and check runs in
 * double-check-handlers.ts, comments and labels in double-issue-handlers.ts, trees in
 * double-tree-handlers.ts; those that honour the repository's merge settings, branch protection and
 * rulesets replace the plain ones (double-rule-handlers.ts), the App's own (double-app-handlers.ts),
 * the App's webhook deliveries in double-webhooks.ts, a commit's pull
 * requests in double-commit-pulls.ts, Actions' workflow runs and re-runs in double-workflow-runs.ts).
 */
import type { Handler } from "./double-answers.js";
import { commitPullHandlers } from "./double-commit-pulls.js";
import { deploymentHandlers } from "./double-deployment-handlers.js";
import { appHandlers } from "./double-app-handlers.js";
import { gitHandlers } from "./double-git-handlers.js";
import { checkHandlers } from "./double-check-handlers.js";
import { issueHandlers } from "./double-issue-handlers.js";
import { pullReadHandlers } from "./double-pull-read-handlers.js";
import { pullWriteHandlers } from "./double-pull-write-handlers.js";
import { reviewHandlers } from "./double-review-handlers.js";
import { ruleHandlers } from "./double-rule-handlers.js";
import { treeHandlers } from "./double-tree-handlers.js";
import { deliveryHandlers } from "./double-webhooks.js";
import { workflowHandlers } from "./double-workflow-handlers.js";
import { workflowRunHandlers } from "./double-workflow-runs.js";

export type { Answer, Handler, HandlerContext } from "./double-answers.js";

export const handlers: Record<string, Handler> = {
  ...gitHandlers,
  ...checkHandlers,
  ...reviewHandlers,
  ...pullReadHandlers,
  ...pullWriteHandlers,
  ...issueHandlers,
  ...treeHandlers,
  ...workflowHandlers,
  ...workflowRunHandlers,
  ...deploymentHandlers,
  ...ruleHandlers,
  ...appHandlers,
  ...deliveryHandlers,
  ...commitPullHandlers,
};
