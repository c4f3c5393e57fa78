/**
 * The GitHub REST response shapes this adapter reads, named once (from `@octokit/rest`'s
 * generated types, which follow GitHub's OpenAPI description).
 */
import type { RestEndpointMethodTypes } from "@octokit/rest";

type Data<T extends { response: { data: unknown } }> = T["response"]["data"];

export type GhPull = Data<RestEndpointMethodTypes["pulls"]["get"]>;
export type GhPullListItem = Data<RestEndpointMethodTypes["pulls"]["list"]>[number];
export type GhFile = Data<RestEndpointMethodTypes["pulls"]["listFiles"]>[number];
export type GhCommit = Data<RestEndpointMethodTypes["pulls"]["listCommits"]>[number];
export type GhReview = Data<RestEndpointMethodTypes["pulls"]["listReviews"]>[number];
export type GhCheckRun = Data<RestEndpointMethodTypes["checks"]["listForRef"]>["check_runs"][number];
export type GhStatus = Data<RestEndpointMethodTypes["repos"]["getCombinedStatusForRef"]>["statuses"][number];
export type GhCompare = Data<RestEndpointMethodTypes["repos"]["compareCommitsWithBasehead"]>;
