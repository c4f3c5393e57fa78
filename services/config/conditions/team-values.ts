/**
 * Teams in the values of login attributes (docs/domain.md §2.1 rule 5, docs/conditions.md
 * "Values"): a value written `@team` or `@org/team` names a team. A team is compared with `=` or
 * `!=` (membership) or an ordering operator (the text), never with a regular expression (`~=`)
 * or a glob (`*=`): a pattern matches logins one by one and cannot stand for a team's members.
 * Login attributes are those the catalogue types "login" (attributes.ts): author, merged-by,
 * sender, assignee, review-requested and the *-reviews-by lists.
 */
import type { Operator } from "../model.js";
import type { AttributeSpec } from "./attributes.js";
import { ValueError } from "./value-error.js";

/**
 * Whether a login value, quotes removed, names a team (`@team`, `@org/team`; docs/domain.md
 * §2.1 rule 5). Never throws.
 */
export function isTeamValue(value: string): boolean {
  return value.startsWith("@");
}

/**
 * Refuses a team written after a pattern operator on a login attribute
 * (docs/domain.md §2.1 rule 5).
 * @param spec the attribute of the leaf
 * @param operator the operator after alias resolution
 * @param value the value as written, quotes removed
 * @throws ValueError naming the team and the operators a team can be compared with, for
 *   `~=` or `*=` with a value starting with "@" on a login attribute.
 */
export function refuseTeamPattern(spec: AttributeSpec, operator: Operator, value: string): void {
  if (spec.value !== "login" || (operator !== "~=" && operator !== "*=") || !isTeamValue(value)) return;
  throw new ValueError(
    `"${value}" is a team: a team (@team or @org/team) can only be compared with =, != or an ordering operator, not ${operator}`,
  );
}
