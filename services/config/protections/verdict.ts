/**
 * The verdict of a repository's merge protections on one pull request
 * (docs/merge-protections.md; https://docs.mergify.com/merge-protections/custom-rules/ and
 * .../builtin/). Pure: the runner gathers the facts that need I/O (the pull requests a
 * `Depends-On:` names, the configuration file at the head, the freezes) and posts the result.
 *
 * - A custom rule (`merge_protections`) is active when its `if` conditions are not false; an `if`
 *   still pending (a check it reads has not concluded) counts as active and pending, so that
 *   nothing merges before it is known whether the rule applies. An active rule succeeds when its
 *   `success_conditions` hold, is pending while they are pending or false only because of time (a
 *   closed `schedule` window), and fails otherwise. Inactive rules are not shown.
 * - Built-ins, active when the pull request calls for them: `Depends-On` (every pull request named
 *   must be merged: pending while open, failing when closed unmerged, unknown, or of another
 *   owner), `Merge-After` (pending until the instant, failing when it is not a timestamp),
 *   `Configuration changed` (a pull request that edits the configuration file must leave a file
 *   that loads without error), and scheduled freezes (pending while one holds the pull request;
 *   with the merge queue enabled they are shown but do not decide: the queue holds the merge).
 * - The conclusion: failure when an active rule fails, else pending when one is pending, else
 *   success (also with no active rule).
 */
import { renderChecklist } from "../conditions/render.js";
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { Condition, Configuration, EvaluatedCondition } from "../model.js";
import { freezeMatches, isActive } from "../rules/freeze-hold.js";
import { evaluateFor } from "../rules/rule-evaluation.js";
import { nextVerdictChange, scheduleVerdict } from "../rules/schedule-verdict.js";
import { parseMergeAfter } from "./built-ins.js";
import { protectionsSummary, protectionsTitle } from "./summary.js";
import type { DependencyFact, ProtectionState, ProtectionsInput, ProtectionsVerdict, RuleVerdict } from "./types.js";

export type { DependencyFact, ProtectionState, ProtectionsInput, ProtectionsVerdict, RuleVerdict } from "./types.js";

const earliest = (a: Date | null, b: Date | null): Date | null =>
  a === null ? b : b === null ? a : a.getTime() <= b.getTime() ? a : b;

/** Evaluates every protection on `input.pr` at `input.now`. */
export function evaluateProtections(input: ProtectionsInput): ProtectionsVerdict {
  const rules: RuleVerdict[] = [];
  const inactive: string[] = [];
  let next: Date | null = null;
  for (const rule of input.config.merge_protections) {
    const custom = customRule(rule, input.pr, input.now);
    next = earliest(next, custom.next);
    if (custom.verdict) rules.push(custom.verdict);
    else inactive.push(rule.name);
  }
  const depends = dependsOnRule(input.dependencies);
  if (depends) rules.push(depends);
  const mergeAfter = parseMergeAfter(input.pr.body);
  if (mergeAfter) {
    const future = mergeAfter.at !== null && mergeAfter.at.getTime() > input.now.getTime();
    if (future) next = earliest(next, mergeAfter.at);
    const state: ProtectionState = mergeAfter.at === null ? "failure" : future ? "pending" : "success";
    const line =
      mergeAfter.at === null
        ? `- [ ] \`Merge-After: ${mergeAfter.text}\` ⚠️ ${mergeAfter.error}`
        : `- ${future ? "[ ]" : "[X]"} \`Merge-After: ${mergeAfter.text}\` (${mergeAfter.at.toISOString()})`;
    rules.push(builtIn("Merge-After", "merge-after", state, line));
  }
  if (input.configurationChange) {
    const { path, errors } = input.configurationChange;
    const lines =
      errors.length === 0
        ? `- [X] \`${path}\` loads without error`
        : [`- [ ] \`${path}\` loads without error:`, ...errors.map((e) => `  - ${e}`)].join("\n");
    rules.push(builtIn("Configuration changed", "configuration", errors.length === 0 ? "success" : "failure", lines));
  }
  const freezes = freezeRule(input);
  next = earliest(next, freezes.next);
  if (freezes.verdict) rules.push(freezes.verdict);
  const deciding = rules.filter((r) => r.decides);
  const conclusion: ProtectionState = deciding.some((r) => r.state === "failure")
    ? "failure"
    : deciding.some((r) => r.state === "pending")
      ? "pending"
      : "success";
  return {
    conclusion,
    rules,
    inactive,
    title: protectionsTitle(conclusion, deciding),
    summary: protectionsSummary(rules, inactive),
    nextChangeAt: next,
  };
}

function builtIn(name: string, kind: RuleVerdict["kind"], state: ProtectionState, checklist: string): RuleVerdict {
  return { name, description: null, kind, state, decides: true, checklist };
}

/** A custom rule's verdict (null when inactive) and when the clock may change it. */
function customRule(
  rule: Configuration["merge_protections"][number],
  pr: PullRequestSnapshot,
  now: Date,
): { verdict: RuleVerdict | null; next: Date | null } {
  const at = (conditions: readonly Condition[]) => (t: Date) => evaluateFor(conditions, pr, {}, t);
  const applies = at(rule.if)(now);
  let next = nextVerdictChange(at(rule.if), now);
  if (applies.match === false) return { verdict: null, next };
  const success = at(rule.success_conditions)(now);
  next = earliest(next, nextVerdictChange(at(rule.success_conditions), now));
  const verdict = scheduleVerdict((t) => (t === now ? success : at(rule.success_conditions)(t)), now);
  let state: ProtectionState =
    verdict.truth === true
      ? "success"
      : verdict.truth === "pending" || verdict.opensAt !== null
        ? "pending"
        : "failure";
  if (applies.match === "pending" && state === "success") state = "pending";
  const checklist = [
    applies.match === "pending" ? `- [ ] whether it applies is not known yet:\n${indent(applies)}` : null,
    success.subconditions.length === 0 && success.condition.kind === "and"
      ? "- [X] no condition"
      : checklistOf(success),
  ]
    .filter((l) => l !== null)
    .join("\n");
  return {
    verdict: { name: rule.name, description: rule.description, kind: "custom", state, decides: true, checklist },
    next,
  };
}

const checklistOf = (tree: EvaluatedCondition) => renderChecklist(tree);
const indent = (tree: EvaluatedCondition) =>
  renderChecklist(tree)
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");

const DEPENDENCY_STATES: Record<DependencyFact["state"], string> = {
  merged: "merged",
  open: "not merged yet",
  closed: "closed without being merged",
  unknown: "not found",
  foreign: "of another owner: only pull requests of the same owner can be depended on",
};

/** The Depends-On protection, or null when the body names no pull request. */
function dependsOnRule(dependencies: readonly DependencyFact[]): RuleVerdict | null {
  if (dependencies.length === 0) return null;
  const lines = dependencies.map(
    (d) =>
      `- ${d.state === "merged" ? "[X]" : "[ ]"} ${d.ref}${d.title ? ` ${d.title}` : ""}: ${DEPENDENCY_STATES[d.state]}`,
  );
  const failing = dependencies.some((d) => d.state !== "merged" && d.state !== "open");
  const state: ProtectionState = failing
    ? "failure"
    : dependencies.every((d) => d.state === "merged")
      ? "success"
      : "pending";
  return builtIn("Depends-On", "depends-on", state, lines.join("\n"));
}

/** The scheduled freezes holding the pull request now (a rule only when one does) and their next boundary. */
function freezeRule(input: ProtectionsInput): { verdict: RuleVerdict | null; next: Date | null } {
  const now = input.now.getTime();
  let next: Date | null = null;
  for (const f of input.freezes) {
    for (const t of [f.start, f.end]) if (t !== null && t > now) next = earliest(next, new Date(t));
  }
  const holding = input.freezes.filter((f) => isActive(f, now) && freezeMatches(f, input.pr, {}, input.now));
  if (holding.length === 0) return { verdict: null, next };
  const lines = holding.map(
    (f) =>
      `- [ ] ${f.reason ? `"${f.reason}"` : "a scheduled freeze"} holds merges ${f.end === null ? "until someone removes it" : `until ${new Date(f.end).toISOString()}`}`,
  );
  if (input.mergeQueueEnabled) lines.push("- the merge queue holds the merge until the freeze ends");
  return {
    verdict: {
      name: "Scheduled freeze",
      description: null,
      kind: "freeze",
      state: "pending",
      decides: !input.mergeQueueEnabled,
      checklist: lines.join("\n"),
    },
    next,
  };
}
