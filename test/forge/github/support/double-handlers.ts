/**
 * Every operation of the GitHub test double, by OpenAPI operationId (repository operations in
 * double-git-handlers.ts, pull request operations in double-pull-handlers.ts, trees in
 * double-tree-handlers.ts, the App's webhook deliveries in double-webhooks.ts, a commit's pull
 * requests in double-commit-pulls.ts).
 */
import type { Handler } from "./double-answers.js";
import { commitPullHandlers } from "./double-commit-pulls.js";
import { gitHandlers } from "./double-git-handlers.js";
import { pullHandlers } from "./double-pull-handlers.js";
import { treeHandlers } from "./double-tree-handlers.js";
import { deliveryHandlers } from "./double-webhooks.js";
import { workflowHandlers } from "./double-workflow-handlers.js";

export type { Answer, Handler, HandlerContext } from "./double-answers.js";

export const handlers: Record<string, Handler> = {
  ...gitHandlers,
  ...pullHandlers,
  ...treeHandlers,
  ...workflowHandlers,
  ...deliveryHandlers,
  ...commitPullHandlers,
};
