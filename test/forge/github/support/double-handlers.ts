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
import type { Answer, Handler, HandlerContext } from "./double-answers.js";
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

/**
 * The answer of `double` to a request of `operationId` (its path parameters, query, JSON body and
 * `Authorization` header): 404 for a repository it does not hold; 500, with a problem recorded,
 * for an operation it has no handler for.
 */
export async function answerOperation(
  double: HandlerContext["double"],
  operationId: string,
  pathParams: Record<string, string>,
  query: URLSearchParams,
  body: unknown,
  authorization: string,
): Promise<Answer> {
  const handler = handlers[operationId];
  if (!handler) {
    double.problems.push(
      `${operationId}: the double has no handler (the adapter called an operation the tests do not expect)`,
    );
    return { status: 500, body: { message: "no handler" } };
  }
  const repo = pathParams.owner && pathParams.repo ? (double.repo(pathParams.owner, pathParams.repo) ?? null) : null;
  if (pathParams.owner && pathParams.repo && !repo)
    return { status: 404, body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" } };
  const ctx: HandlerContext = {
    double,
    repo: repo!,
    params: pathParams,
    query,
    body: (body ?? {}) as Record<string, unknown>,
    token: authorization.split(" ")[1] ?? "",
  };
  return handler(ctx);
}
