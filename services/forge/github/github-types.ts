/**
 * The GitHub REST response shapes this adapter reads, named once (from `@octokit/rest`'s
 * generated types, which follow GitHub's OpenAPI description).
 */
import type { RestEndpointMethodTypes } from "@octokit/rest";

type Data<T extends { response: { data: unknown } }> = T["response"]["data"];

/** A pull request (`GET /repos/{owner}/{repo}/pulls/{pull_number}`). */
export type GhPull = Data<RestEndpointMethodTypes["pulls"]["get"]>;
/** One item of the open pull requests list (`GET /repos/{owner}/{repo}/pulls`). */
export type GhPullListItem = Data<RestEndpointMethodTypes["pulls"]["list"]>[number];
/** One changed file of a pull request (`GET /repos/{owner}/{repo}/pulls/{pull_number}/files`). */
export type GhFile = Data<RestEndpointMethodTypes["pulls"]["listFiles"]>[number];
/** One commit of a pull request (`GET /repos/{owner}/{repo}/pulls/{pull_number}/commits`). */
export type GhCommit = Data<RestEndpointMethodTypes["pulls"]["listCommits"]>[number];
/** One review of a pull request (`GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews`). */
export type GhReview = Data<RestEndpointMethodTypes["pulls"]["listReviews"]>[number];
/** One check run on a ref (`GET /repos/{owner}/{repo}/commits/{ref}/check-runs`). */
export type GhCheckRun = Data<RestEndpointMethodTypes["checks"]["listForRef"]>["check_runs"][number];
/** One commit status of a ref's combined status (`GET /repos/{owner}/{repo}/commits/{ref}/status`). */
export type GhStatus = Data<RestEndpointMethodTypes["repos"]["getCombinedStatusForRef"]>["statuses"][number];
/** The comparison of two commits (`GET /repos/{owner}/{repo}/compare/{basehead}`). */
export type GhCompare = Data<RestEndpointMethodTypes["repos"]["compareCommitsWithBasehead"]>;
