/**
 * The engine's state and effects rendered as readable lines ("create Batch 1 [1,2] ahead []"...),
 * so that scenario tests assert everything without copying 40-line objects; `STORY` names the
 * effect kinds and log types that tell the queue's story.
 */
import type { EngineEffect, EngineState } from "../../services/engine/index.js";
import { T0 } from "./scenario-builders.js";

/** The first 7 hex digits of a SHA. */
const short = (s: string) => s.slice(0, 7);

/**
 * The state as lines: pause, then per train its base, batches (status, members, ancestors by name,
 * check), bisections (members, sub-batches, held candidates), the filling batch, the waiting list.
 */
export function describeState(state: EngineState, now: number): string[] {
  const out: string[] = [];
  if (state.pause) out.push(`paused: ${state.pause.reason}`);
  const nameOf = new Map(state.trains.flatMap((t) => t.batches.map((c) => [c.id, c.name] as const)));
  for (const t of state.trains) {
    out.push(`train ${t.branch}/${t.partition} base ${short(state.bases[t.branch]?.sha ?? "?")}`);
    for (const c of t.batches) {
      const check = c.check
        ? `${c.check.mode === "in_place" ? "in place" : "draft"} ${c.check.phase}${c.check.attempt ? ` retry ${c.check.attempt}` : ""}`
        : "no check";
      const live = c.ancestors.filter((a) => nameOf.has(a));
      const on = live.length ? ` on ${live.map((a) => nameOf.get(a)).join("+")}` : "";
      out.push(`  ${c.name} [${c.members.join(",")}] ${check}${on}${c.merging ? " merging" : ""}`);
    }
    for (const b of t.bisections)
      out.push(`  bisecting ${b.name} [${b.members.join(",")}] depth ${b.depth} held [${b.candidates.join(",")}]`);
    if (t.forming)
      out.push(
        `  filling [${t.forming.members.join(",")}] of ${t.forming.size} until +${(t.forming.startsAt - T0) / 60_000}m`,
      );
    const waiting = t.waiting.filter((n) => !t.forming?.members.includes(n)).sort((a, b) => a - b);
    if (waiting.length) out.push(`  waiting [${waiting.join(",")}]`);
  }
  void now;
  return out;
}

/** Effects as lines: "create Batch 1 [1,2] ahead []", "merge Batch 1 [1,2] exact", "log action.queue.leave #3 CHECKS_FAILED"... */
export function describeEffects(effects: EngineEffect[], nameOf: (id: string) => string = (id) => id): string[] {
  return effects.map((e) => {
    switch (e.kind) {
      case "create_speculative_check":
        return `create ${nameOf(e.batchId)} [${e.ownPullNumbers.join(",")}] ahead [${e.aheadPullNumbers.join(",")}]`;
      case "start_in_place_check":
        return `in place ${nameOf(e.batchId)} #${e.pull.number} (${e.updateMethod})`;
      case "cancel_speculative_check":
        return `cancel ${nameOf(e.batchId)} (${e.reason})`;
      case "merge_batch":
        return `merge ${nameOf(e.batchId)} [${e.pulls.map((p) => p.number).join(",")}] ${e.method}${e.exactTree ? " exact" : ""}`;
      case "rerun_checks":
        return `rerun ${nameOf(e.batchId)} ${e.checks.join(",")}`;
      case "close_pull_request":
        return `close #${e.number}`;
      case "comment":
        return `comment #${e.number}`;
      case "post_summary_check":
        return `summary #${e.number} ${e.conclusion ?? "in progress"}`;
      case "add_labels":
        return `label #${e.number} +${e.labels.join(",")}`;
      case "remove_labels":
        return `label #${e.number} -${e.labels.join(",")}`;
      case "schedule_timer":
        return `timer ${e.key.split("/")[0]} at +${(e.dueAt - T0) / 60_000}m`;
      case "cancel_timer":
        return `cancel timer ${e.key.split("/")[0]}`;
      case "log": {
        const m = e.metadata;
        const who = e.pullRequest === null ? "" : ` #${e.pullRequest}`;
        const batch = typeof m.batch_name === "string" ? ` ${m.batch_name}` : "";
        const detail =
          e.type === "action.queue.leave"
            ? ` ${m.dequeue_code}`
            : e.type === "action.queue.checks_end"
              ? m.aborted
                ? ` aborted ${m.abort_code}`
                : ` ${(m.speculative_check_pull_request as { checks_conclusion: string }).checks_conclusion}`
              : e.type === "action.queue.batch_bisection_end"
                ? ` culprits [${(m.culprit_pr_numbers as number[]).join(",")}]`
                : e.type === "action.queue.checks.change"
                  ? ` ${m.running_checks}`
                  : e.type === "action.queue.change"
                    ? ` size ${m.size}`
                    : "";
        return `log ${e.type}${who}${batch}${detail}`;
      }
    }
  });
}

/** Effect kinds and log types that tell the queue's story (labels, comments and summaries left out). */
export const STORY = [
  "create_speculative_check",
  "start_in_place_check",
  "cancel_speculative_check",
  "merge_batch",
  "rerun_checks",
  "close_pull_request",
  "schedule_timer",
  "cancel_timer",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.leave",
  "action.queue.merged",
  "action.queue.batch_bisection_start",
  "action.queue.batch_bisection_end",
  "action.dequeue",
  "action.queue.conflict_deferred",
  "action.queue.checks_postponed",
];
