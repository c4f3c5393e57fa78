/**
 * Check runs and commit statuses of a commit as the conditions language sees them
 * (services/forge/types.ts `CheckRun`, docs/domain.md §2.2 `check-*` attributes).
 *
 * | GitHub | state |
 * | --- | --- |
 * | check run `queued`, `in_progress`, `waiting`, `requested`, `pending` | pending |
 * | check run `completed` + conclusion (success, failure, neutral, cancelled, skipped, timed_out, action_required, stale) | the conclusion |
 * | check run `completed` + `startup_failure` or an unknown conclusion | failure |
 * | commit status `success` / `failure` / `error` / `pending` | the same |
 *
 * Yardmaster's own check runs (posted by this App) report app "yardmaster", which the conditions
 * ignore; other check runs report their App's slug, commit statuses an empty app.
 */
import type { CheckRun, CheckState } from "../types.js";
import type { GhCheckRun, GhStatus } from "./github-types.js";

/** The `app` of a check run posted by Yardmaster itself. */
export const OWN_CHECK_APP = "yardmaster";

const CONCLUSIONS: ReadonlySet<string> = new Set([
  "success",
  "failure",
  "neutral",
  "cancelled",
  "skipped",
  "timed_out",
  "action_required",
  "stale",
]);

function date(text: string | null | undefined): Date | null {
  return text ? new Date(text) : null;
}

/** The state of a check run from its `status` and `conclusion`. */
export function checkRunState(status: string, conclusion: string | null | undefined): CheckState {
  if (status !== "completed") return "pending";
  return conclusion && CONCLUSIONS.has(conclusion) ? (conclusion as CheckState) : "failure";
}

/**
 * One check run.
 * @param ownAppId the id of Yardmaster's GitHub App: its runs report app "yardmaster"
 */
export function checkRunOf(run: GhCheckRun, ownAppId: number): CheckRun {
  return {
    name: run.name,
    state: checkRunState(run.status, run.conclusion),
    description: run.output?.title ?? "",
    detailsUrl: run.details_url ?? run.html_url ?? null,
    app: run.app?.id === ownAppId ? OWN_CHECK_APP : (run.app?.slug ?? ""),
    startedAt: date(run.started_at),
    completedAt: date(run.completed_at),
  };
}

/** One commit status (the latest of its context, as the combined status gives it). */
export function commitStatusOf(status: GhStatus): CheckRun {
  const state: CheckState =
    status.state === "success" || status.state === "failure" || status.state === "error" ? status.state : "pending";
  return {
    name: status.context,
    state,
    description: status.description ?? "",
    detailsUrl: status.target_url ?? null,
    // The combined status does not name who posted a status.
    app: "",
    startedAt: date(status.created_at),
    completedAt: state === "pending" ? null : date(status.updated_at),
  };
}

/** The GitHub conclusion to post for a port state (`error` is not one of GitHub's: failure). */
export function githubConclusion(state: CheckState): string | null {
  if (state === "pending") return null;
  return state === "error" ? "failure" : state;
}
