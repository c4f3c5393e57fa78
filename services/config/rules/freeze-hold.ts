/**
 * Whether a scheduled freeze holds a pull request's merge (docs/scheduled-freeze.md;
 * docs/domain.md §3.7). A freeze is active from its start (included) to its end (excluded; none = until
 * deleted). It holds a pull request when its matching conditions are not false (an empty list
 * matches every pull request; "pending" counts as matching, so an undecided pull request is not
 * merged into a frozen branch) and its exclude conditions, taken together (AND), are not all true.
 * The hold lasts until the latest end of the active freezes that hold it; an open-ended freeze is
 * looked at again after {@link HORIZON_MS} (and at every change of the freezes).
 */
import type { QueueContext } from "../conditions/attributes-of.js";
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import { parseConditionList } from "../conditions/tree.js";
import type { Condition } from "../model.js";
import { evaluateFor } from "./rule-evaluation.js";
import { HORIZON_MS } from "./schedule-verdict.js";

/** A freeze ready to evaluate: id, start and end (epoch ms UTC; end null = open-ended), parsed conditions. */
export interface CompiledFreeze {
  id: string;
  /** Its reason, when known (merge protections name the freeze holding a pull request). */
  reason?: string;
  start: number;
  end: number | null;
  matching: Condition[];
  exclude: Condition[];
}

/** What {@link compileFreeze} reads of a stored freeze (store/scheduled-freezes.ts FreezeRow). */
export interface FreezeSource {
  id: string;
  reason?: string;
  start: Date;
  end: Date | null;
  matchingConditions: unknown[];
  excludeConditions: unknown[];
}

function conditions(value: unknown[]): Condition[] {
  // Stored conditions were validated when written; a list that no longer parses matches nothing
  // extra (an empty list of exclusions, or all pull requests for matching: the safe side).
  const { conditions: parsed } = parseConditionList(value);
  return parsed === true || parsed === null ? [] : parsed;
}

/** Parses a stored freeze's conditions once per processing round. */
export function compileFreeze(f: FreezeSource): CompiledFreeze {
  return {
    id: f.id,
    ...(f.reason === undefined ? {} : { reason: f.reason }),
    start: f.start.getTime(),
    end: f.end?.getTime() ?? null,
    matching: conditions(f.matchingConditions),
    exclude: conditions(f.excludeConditions),
  };
}

/** Whether a freeze is active at `now` (epoch ms). */
export function isActive(f: CompiledFreeze, now: number): boolean {
  return f.start <= now && (f.end === null || now < f.end);
}

/** Whether any of the freezes is active at `now`: when none is, no pull request needs reading. */
export function anyActive(freezes: readonly CompiledFreeze[], now: Date): boolean {
  return freezes.some((f) => isActive(f, now.getTime()));
}

/**
 * Whether a freeze's conditions take in this pull request at `at` (active or not): its matching
 * conditions are not false and its exclude conditions are not all true.
 */
export function freezeMatches(
  f: CompiledFreeze,
  snapshot: PullRequestSnapshot,
  queue: QueueContext,
  at: Date,
): boolean {
  return (
    evaluateFor(f.matching, snapshot, queue, at).match !== false &&
    !(f.exclude.length > 0 && evaluateFor(f.exclude, snapshot, queue, at).match === true)
  );
}

/**
 * A freeze's hold on a pull request: until when (epoch ms UTC), and whether an open-ended freeze
 * is among those holding it (its end is then unknown: `until` is when the runner looks again).
 */
export interface FreezeHold {
  until: number;
  openEnded: boolean;
}

/**
 * How the active freezes hold this pull request's merge, or null when none does: until the latest
 * end among them; an open-ended one holds until `now` + {@link HORIZON_MS}, when the runner looks again.
 */
export function freezeHold(
  freezes: readonly CompiledFreeze[],
  snapshot: PullRequestSnapshot,
  queue: QueueContext,
  now: Date,
): FreezeHold | null {
  const holding = freezes.filter((f) => isActive(f, now.getTime()) && freezeMatches(f, snapshot, queue, now));
  if (holding.length === 0) return null;
  return {
    until: Math.max(...holding.map((f) => f.end ?? now.getTime() + HORIZON_MS)),
    openEnded: holding.some((f) => f.end === null),
  };
}
