/**
 * Conditions as the runner evaluates them (the engine never does): which queue rule a pull request
 * enters and with which priority, whether it still meets its queue conditions, whether a
 * speculative check meets its merge conditions, its scopes and partitions. Branch protection
 * requirements are injected into a rule's conditions by its `branch_protection_injection_mode`
 * (docs/domain.md §2.5): "queue" into queue and merge conditions, "merge" into merge
 * conditions only. Sources: docs/domain.md §2-3, docs/merge-queue.md "Runner".
 */
import picomatch from "picomatch";
import { attributesOf, type QueueContext } from "../conditions/attributes-of.js";
import { branchProtectionConditions, type BranchProtectionRules } from "../conditions/branch-protection.js";
import { evaluateConditions } from "../conditions/evaluate.js";
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { Condition, Configuration, EvaluatedCondition, QueueRuleConfig, Truth } from "../model.js";

/**
 * What a base branch's protection requires, as the forge reports it: required check names,
 * required approvals, conversation resolution (docs/domain.md §2.5).
 */
export type Protection = BranchProtectionRules;

/** A rule's conditions of one kind, with the injected branch protection conditions. */
export function ruleConditions(rule: QueueRuleConfig, kind: "queue" | "merge", protection: Protection): Condition[] {
  const own = kind === "queue" ? rule.queue_conditions : rule.merge_conditions;
  const inject =
    rule.branch_protection_injection_mode === "queue" ||
    (rule.branch_protection_injection_mode === "merge" && kind === "merge");
  return inject ? [...own, ...branchProtectionConditions(protection)] : [...own];
}

/** Evaluates conditions against one pull request at `now`. */
export function evaluateFor(
  conditions: readonly Condition[],
  snapshot: PullRequestSnapshot,
  queue: QueueContext,
  now: Date,
): EvaluatedCondition {
  return evaluateConditions(conditions, { attributes: attributesOf(snapshot, queue), now });
}

/** The queue rule a pull request enters: the named one, or the first whose queue conditions hold. */
export function chooseRule(
  config: Configuration,
  snapshot: PullRequestSnapshot,
  protection: Protection,
  now: Date,
  name: string | null,
):
  | { rule: QueueRuleConfig; match: Truth; evaluation: EvaluatedCondition }
  | { rule: null; reason: string; evaluations: { rule: string; evaluation: EvaluatedCondition }[] } {
  const candidates = name ? config.queue_rules.filter((r) => r.name === name) : config.queue_rules;
  if (name && candidates.length === 0)
    return { rule: null, reason: `there is no queue rule named "${name}"`, evaluations: [] };
  if (candidates.length === 0) return { rule: null, reason: "the configuration has no queue rules", evaluations: [] };
  const evaluations: { rule: string; evaluation: EvaluatedCondition }[] = [];
  let pending: { rule: QueueRuleConfig; evaluation: EvaluatedCondition } | null = null;
  for (const rule of candidates) {
    const evaluation = evaluateFor(ruleConditions(rule, "queue", protection), snapshot, {}, now);
    if (evaluation.match === true) return { rule, match: true, evaluation };
    if (evaluation.match === "pending" && !pending) pending = { rule, evaluation };
    evaluations.push({ rule: rule.name, evaluation });
  }
  if (pending) return { ...pending, match: "pending" };
  return {
    rule: null,
    reason: name ? `the queue conditions of "${name}" do not match` : "no queue rule's queue conditions match",
    evaluations,
  };
}

/** Priority of a pull request in a queue: the first matching priority rule, else medium (2000). */
export function choosePriority(
  config: Configuration,
  snapshot: PullRequestSnapshot,
  queueName: string,
  now: Date,
): { priority: number; ruleName: string | null; allowChecksInterruption: boolean } {
  for (const p of config.priority_rules) {
    if (evaluateFor(p.conditions, snapshot, { queueName }, now).match === true) {
      return { priority: p.priority, ruleName: p.name, allowChecksInterruption: p.allow_checks_interruption };
    }
  }
  return { priority: 2000, ruleName: null, allowChecksInterruption: false };
}

/**
 * Scopes of a pull request from the `scopes` section's file globs (picomatch, dotfiles included);
 * `allScopes` when it touches a barrier file. No scopes configured: none.
 */
export function scopesOf(config: Configuration, files: readonly string[]): { scopes: string[]; allScopes: boolean } {
  const s = config.scopes;
  if (!s || !s.source || s.source.type !== "files") return { scopes: [], allScopes: false };
  const matches = (globs: { include: string[]; exclude: string[] }, f: string) =>
    picomatch.isMatch(f, globs.include, { dot: true }) &&
    !(globs.exclude.length && picomatch.isMatch(f, globs.exclude, { dot: true }));
  const scopes = Object.entries(s.source.scopes)
    .filter(([, globs]) => files.some((f) => matches(globs, f)))
    .map(([name]) => name)
    .sort();
  const allScopes = s.barrier_files !== null && files.some((f) => matches(s.barrier_files!, f));
  return { scopes, allScopes };
}

/** Partitions a pull request belongs to (docs/domain.md §1.5): matching rules, else the fallback, else all. */
export function partitionsOf(config: Configuration, snapshot: PullRequestSnapshot, now: Date): string[] {
  if (config.partition_rules.length === 0) return [];
  const matching = config.partition_rules
    .filter((p) => !p.fallback_partition && evaluateFor(p.conditions, snapshot, {}, now).match === true)
    .map((p) => p.name);
  if (matching.length) return matching;
  const fallback = config.partition_rules.find((p) => p.fallback_partition);
  return fallback ? [fallback.name] : config.partition_rules.map((p) => p.name);
}
