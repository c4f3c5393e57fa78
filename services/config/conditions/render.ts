/**
 * Markdown checklist of an evaluated condition tree (docs/domain.md §2.6, docs/conditions.md
 * "Rendering"): one line per node, two spaces of indent per level; a leaf is
 * ``- [X] `base = main` `` (or `- [ ] `), then ` [description]`, then ` ⚠️ error`; a group is
 * `- [X] all of:` / `any of:` / `not:` with its children below. Only a true result is ticked:
 * false and pending both show `[ ]`.
 *
 * Evaluated over a batch (several pull requests), a leaf that reads the pull request itself
 * prints without a checkbox and lists one ticked or unticked line per pull request (`  - [X] #12`);
 * leaves about checks, the base branch or the time are the same for the whole batch.
 */
import type { Condition, EvaluatedCondition } from "../model.js";
import { conditionLabel } from "./format.js";

function box(match: EvaluatedCondition["match"]): string {
  return match === true ? "[X]" : "[ ]";
}

function suffix(condition: Condition, error: string | undefined): string {
  return `${condition.description ? ` [${condition.description}]` : ""}${error ? ` ⚠️ ${error}` : ""}`;
}

function line(node: EvaluatedCondition, depth: number, out: string[]): void {
  const indent = "  ".repeat(depth);
  const c = node.condition;
  if (c.kind === "leaf") {
    out.push(`${indent}- ${box(node.match)} \`${conditionLabel(c)}\`${suffix(c, node.error)}`);
    return;
  }
  out.push(`${indent}- ${box(node.match)} ${conditionLabel(c)}:${suffix(c, undefined)}`);
  for (const child of node.subconditions) line(child, depth + 1, out);
}

/** True for the implicit `and` of a condition list (as built by evaluateConditions). */
function isImplicitList(node: EvaluatedCondition): boolean {
  return node.condition.kind === "and" && node.condition.description === undefined;
}

/**
 * Renders an evaluated tree. The implicit `and` of a condition list is not printed: its items
 * are the top-level lines. Returns the lines joined by "\n" (no trailing newline).
 */
export function renderChecklist(tree: EvaluatedCondition): string {
  const out: string[] = [];
  if (isImplicitList(tree)) for (const child of tree.subconditions) line(child, 0, out);
  else line(tree, 0, out);
  return out.join("\n");
}

const SHARED_ATTRIBUTE = /^(check|status|base$|schedule$|current-|queue-merge-started-at|deployment-)/;

function batchLine(nodes: { pullRequest: number; node: EvaluatedCondition }[], depth: number, out: string[]): void {
  const indent = "  ".repeat(depth);
  const first = nodes[0].node;
  const c = first.condition;
  const all = nodes.every((n) => n.node.match === true);
  if (c.kind === "leaf") {
    if (SHARED_ATTRIBUTE.test(c.attribute)) {
      out.push(`${indent}- ${box(first.match)} \`${conditionLabel(c)}\`${suffix(c, first.error)}`);
      return;
    }
    out.push(`${indent}- \`${conditionLabel(c)}\`${suffix(c, undefined)}`);
    for (const n of nodes)
      out.push(`${indent}  - ${box(n.node.match)} #${n.pullRequest}${n.node.error ? ` ⚠️ ${n.node.error}` : ""}`);
    return;
  }
  out.push(`${indent}- ${all ? "[X]" : "[ ]"} ${conditionLabel(c)}:${suffix(c, undefined)}`);
  first.subconditions.forEach((_, i) =>
    batchLine(
      nodes.map((n) => ({ pullRequest: n.pullRequest, node: n.node.subconditions[i] })),
      depth + 1,
      out,
    ),
  );
}

/**
 * Renders the same condition list evaluated for each pull request of a batch.
 * @param evaluations one evaluated tree per pull request, all from the same conditions
 */
export function renderBatchChecklist(evaluations: { pullRequest: number; tree: EvaluatedCondition }[]): string {
  if (evaluations.length === 0) return "";
  const out: string[] = [];
  const roots = evaluations.map((e) => ({ pullRequest: e.pullRequest, node: e.tree }));
  if (isImplicitList(roots[0].node)) {
    roots[0].node.subconditions.forEach((_, i) =>
      batchLine(
        roots.map((r) => ({ pullRequest: r.pullRequest, node: r.node.subconditions[i] })),
        0,
        out,
      ),
    );
  } else batchLine(roots, 0, out);
  return out.join("\n");
}
