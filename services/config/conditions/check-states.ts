/**
 * The states of a check run (or commit status) on a commit, declared once for every folder: the
 * conditions language reads them (`check-*` attributes, docs/domain.md §2.2), the engine keeps them
 * on a batch's checks and validates them in events, the store's local forge persists them, and the
 * activity log names the unsuccessful ones (docs/domain.md "Glossary": check run, failure state).
 */

/**
 * Every state a check run can be in, as the conditions language sees it: GitHub's check run
 * conclusions, its commit status states (`error`), and `pending` for a run not yet concluded.
 */
export const CHECK_STATES = [
  "success",
  "failure",
  "error",
  "cancelled",
  "action_required",
  "timed_out",
  "pending",
  "neutral",
  "skipped",
  "stale",
] as const;

/** Conclusion or state of one check run or commit status, as the conditions language sees it. */
export type CheckState = (typeof CHECK_STATES)[number];

/**
 * The failure states: a check in one of them has failed (`check-failure`, a batch's unsuccessful
 * checks). Cancelled, timed out and action required count as failed (docs/conditions.md
 * "Attributes", `check-failure`).
 */
export const FAILURE_CHECK_STATES = [
  "failure",
  "error",
  "cancelled",
  "timed_out",
  "action_required",
] as const satisfies readonly CheckState[];

const FAILURE: ReadonlySet<string> = new Set(FAILURE_CHECK_STATES);

/**
 * Whether `state` is a failure state ({@link FAILURE_CHECK_STATES}). Takes any string (a state
 * read from stored JSON is not typed) and answers false for one that is not a check state.
 */
export function isFailureCheckState(state: string): boolean {
  return FAILURE.has(state);
}
