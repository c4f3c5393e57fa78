/**
 * Invariants checked by the property tests on every step of a simulated scenario: log metadata
 * exactly as events.proto (the activity log's strict validator), state consistency, dequeue impact
 * predicted = observed; and at the end: nothing merged twice or untested, nothing lost, every
 * checks_start paired with one checks_end, every enter with at most one leave, and the batches
 * events point to (a check-related leave names its batch, a restart its previous batch).
 */
import { getOption, hasOption, type DescMessage } from "@bufbuild/protobuf";
import { event_type } from "../../gen/yardmaster/v1/common_pb.js";
import { file_yardmaster_v1_events } from "../../gen/yardmaster/v1/events_pb.js";
import { checkJson } from "../../services/contracts/index.js";
import { dequeueImpact, type EngineEffect, type EngineState, type LogEffect } from "../../services/engine/index.js";
import type { SimulationStep } from "../../services/simulation/index.js";

const SCHEMAS: ReadonlyMap<string, DescMessage> = new Map(
  file_yardmaster_v1_events.messages.filter((m) => hasOption(m, event_type)).map((m) => [getOption(m, event_type), m]),
);

/** Problems of one log effect: metadata against events.proto (strict), envelope, train_car_id. */
export function logProblems(log: LogEffect): string[] {
  const schema = SCHEMAS.get(log.type);
  if (!schema) return [`unknown event type ${log.type}`];
  const out = checkJson(schema, log.metadata, "strict", "metadata").map(
    (v) => `${log.type}: ${v.field} ${v.description}`,
  );
  if ("train_car_id" in log.metadata && log.metadata.train_car_id !== log.metadata.batch_id)
    out.push(`${log.type}: train_car_id differs from batch_id`);
  if (!log.trigger) out.push(`${log.type}: empty trigger`);
  if (log.pullRequest !== null && !Number.isInteger(log.pullRequest)) out.push(`${log.type}: bad pull_request`);
  return out;
}

/** Structural problems of a state (each queued pull request in exactly one place per train, ...). */
export function stateProblems(state: EngineState): string[] {
  const out: string[] = [];
  const queued = new Set(Object.keys(state.pulls).map(Number));
  const cfg = state.config;
  for (const train of state.trains) {
    const places = new Map<number, number>();
    const count = (n: number) => places.set(n, (places.get(n) ?? 0) + 1);
    train.waiting.forEach(count);
    train.batches.forEach((c) => c.members.forEach(count));
    train.bisections.forEach((b) => b.candidates.forEach(count));
    for (const [n, k] of places) {
      if (k !== 1) out.push(`#${n} is in ${k} places of ${train.branch}/${train.partition}`);
      if (!queued.has(n)) out.push(`#${n} is in ${train.branch}/${train.partition} but not queued`);
    }
    for (const n of queued) {
      const p = state.pulls[String(n)]!;
      if (p.baseRef === train.branch && p.partitions.includes(train.partition) && !places.has(n))
        out.push(`#${n} is missing from ${train.branch}/${train.partition}`);
    }
    const inProgress = train.batches.filter(
      (c) => c.bisectionId === null && (c.check?.phase === "creating" || c.check?.phase === "running"),
    );
    if (inProgress.length > cfg.maxParallelChecks)
      out.push(`${train.branch}: more checks running than max_parallel_checks`);
    for (const c of train.batches) {
      if (
        c.ancestors.some(
          (a) =>
            train.batches.find((x) => x.id === a)?.bisectionId &&
            train.batches.find((x) => x.id === a)!.bisectionId !== c.bisectionId,
        )
      )
        out.push(`${c.name} is checked on top of another bisection's sub-batch`);
    }
    if (train.batches.some((c) => c.members.length === 0)) out.push(`${train.branch}: an empty batch`);
    const merging = train.batches.filter((c) => c.merging);
    if (merging.length > 1) out.push(`${train.branch}: two merges at once`);
    if (merging[0] && state.bases[train.branch]?.mergingBatchId !== merging[0].id)
      out.push(`${train.branch}: merging batch not recorded on the base`);
    for (const b of train.bisections)
      if (b.parentId && !train.bisections.some((x) => x.id === b.parentId))
        out.push(`bisection ${b.name} lost its parent`);
  }
  return out;
}

/** The dequeue impact predicted on `before` compared with what the dequeue step did. */
export function impactProblems(step: SimulationStep): string[] {
  if (step.event.type !== "dequeue_requested" || !step.before.pulls[String(step.event.number)]) return [];
  const number = step.event.number;
  const predicted = dequeueImpact(step.before, number, step.now);
  const held = new Map(
    step.before.trains.flatMap((t) =>
      t.batches.filter((c) => c.check && c.check.phase !== "failed").map((c) => [c.check!.id, c.members] as const),
    ),
  );
  const cancelled = step.effects.filter(
    (e): e is Extract<EngineEffect, { kind: "cancel_speculative_check" }> =>
      e.kind === "cancel_speculative_check" && held.has(e.checkId),
  );
  const rechecked = new Set(
    cancelled.flatMap((e) => held.get(e.checkId)!).filter((n) => n !== number && step.after.pulls[String(n)]),
  );
  const cascaded = step.effects.filter(
    (e) =>
      e.kind === "log" && e.type === "action.queue.leave" && e.metadata.dequeue_code === "STACK_PREDECESSOR_DEQUEUED",
  ).length;
  const observed = {
    interruptedBatches: new Set(cancelled.map((e) => e.checkId)).size,
    recheckedPullRequests: rechecked.size,
    cascadedPullRequests: cascaded,
  };
  const p = {
    interruptedBatches: predicted.interruptedBatches,
    recheckedPullRequests: predicted.recheckedPullRequests,
    cascadedPullRequests: predicted.cascadedPullRequests,
  };
  return JSON.stringify(p) === JSON.stringify(observed)
    ? []
    : [`dequeue #${number}: predicted ${JSON.stringify(p)}, observed ${JSON.stringify(observed)}`];
}

/** Pairing problems over a whole log: checks_start/checks_end per attempt, enter/leave per session. */
export function pairingProblems(logs: LogEffect[], finalState: EngineState): string[] {
  const out: string[] = [];
  const attempts = new Map<string, { start: number; end: number }>();
  const sessions = new Map<string, { enter: number; leave: number }>();
  const key = (l: LogEffect) =>
    `${l.pullRequest}/${l.metadata.batch_id}/${(l.metadata.speculative_check_pull_request as { number: number }).number}`;
  for (const l of logs) {
    if (l.type === "action.queue.checks_start" || l.type === "action.queue.checks_end") {
      const a = attempts.get(key(l)) ?? { start: 0, end: 0 };
      if (l.type === "action.queue.checks_start") a.start++;
      else {
        a.end++;
        if (a.start === 0) out.push(`checks_end without checks_start: ${key(l)}`);
      }
      attempts.set(key(l), a);
    }
    if (l.type === "action.queue.enter" || l.type === "action.queue.leave") {
      const s = sessions.get(String(l.metadata.session_id)) ?? { enter: 0, leave: 0 };
      if (l.type === "action.queue.enter") s.enter++;
      else s.leave++;
      sessions.set(String(l.metadata.session_id), s);
    }
  }
  const running = new Set(
    finalState.trains.flatMap((t) =>
      t.batches
        .filter((c) => c.check?.phase === "running")
        .flatMap((c) => c.members.map((m) => `${m}/${c.id}/${c.check!.number}`)),
    ),
  );
  for (const [k, a] of attempts) {
    if (a.start > 1 || a.end > 1) out.push(`attempt ${k} started ${a.start} and ended ${a.end} times`);
    if (a.start === 1 && a.end === 0 && !running.has(k)) out.push(`attempt ${k} never ended`);
  }
  for (const [id, s] of sessions)
    if (s.enter !== 1 || s.leave > 1) out.push(`session ${id}: ${s.enter} enter, ${s.leave} leave`);
  return out;
}

/** Leave codes that conclude a pull request's own check: its leave names the batch that failed. */
const FAILED_CHECK_CODES = new Set(["CHECKS_FAILED", "CHECKS_TIMEOUT", "DROPPED_BY_BISECTION_ELIMINATION"]);

/**
 * Problems of the batches events point to, per session: a leave with batch_id null has null scopes
 * and all_scopes (and the other way round); a leave concluding its own check (CHECKS_FAILED,
 * CHECKS_TIMEOUT, DROPPED_BY_BISECTION_ELIMINATION) names the batch of its latest failed
 * checks_end; BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS names a batch. A checks_start names as its
 * previous batch (id and name) the batch of the session's latest checks_end, null before any;
 * a restart never says "First time checking".
 */
export function batchLinkProblems(logs: LogEffect[]): string[] {
  const out: string[] = [];
  const lastFailed = new Map<string, unknown>();
  const lastEnded = new Map<string, { id: unknown; name: unknown }>();
  for (const l of logs) {
    const session = String(l.metadata.session_id);
    const m = l.metadata;
    if (l.type === "action.queue.checks_end") {
      lastEnded.set(session, { id: m.batch_id, name: m.batch_name });
      const conclusion = (m.speculative_check_pull_request as { checks_conclusion: string }).checks_conclusion;
      if (m.aborted === false && conclusion !== "success") lastFailed.set(session, m.batch_id);
    }
    if (l.type === "action.queue.checks_start") {
      const last = lastEnded.get(session) ?? { id: null, name: null };
      const where = `checks_start #${l.pullRequest} ${String(m.batch_name)}`;
      if (m.previous_batch_id !== last.id || m.previous_batch_name !== last.name)
        out.push(`${where}: previous batch ${String(m.previous_batch_name)}, last checked in ${String(last.name)}`);
      if (last.id !== null && m.start_reason === "First time checking")
        out.push(`${where}: a restart says "First time checking"`);
    }
    if (l.type !== "action.queue.leave") continue;
    const code = String(m.dequeue_code);
    const where = `leave #${l.pullRequest} ${code}`;
    if ((m.batch_id === null) !== (m.scopes === null) || (m.batch_id === null) !== (m.all_scopes === null))
      out.push(`${where}: batch_id, scopes and all_scopes not null together`);
    if (FAILED_CHECK_CODES.has(code) && m.batch_id !== (lastFailed.get(session) ?? "none"))
      out.push(
        `${where}: batch_id ${String(m.batch_id)}, its last failed check was in ${String(lastFailed.get(session) ?? "none")}`,
      );
    if (code === "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS" && m.batch_id === null) out.push(`${where}: batch_id null`);
  }
  return out;
}

/**
 * What a scenario's log shows it exercised: dequeue and abort codes, event types, waits for a
 * schedule or a freeze, suspect-first splits and quarantined failures ignored.
 */
export function seenInLogs(logs: readonly LogEffect[]): Set<string> {
  const seen = new Set<string>();
  for (const l of logs) {
    seen.add(l.type);
    for (const key of ["dequeue_code", "abort_code"])
      if (typeof l.metadata[key] === "string") seen.add(l.metadata[key] as string);
    if (Number(l.metadata.seconds_waiting_for_schedule ?? 0) > 0) seen.add("seconds_waiting_for_schedule");
    if (Number(l.metadata.seconds_waiting_for_freeze ?? 0) > 0) seen.add("seconds_waiting_for_freeze");
    if (l.metadata.split_strategy === "suspect_first") seen.add("suspect_first");
    if (Array.isArray(l.metadata.ignored_failing_tests) && l.metadata.ignored_failing_tests.length > 0)
      seen.add("ignored_failing_tests");
  }
  return seen;
}
