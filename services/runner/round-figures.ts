/**
 * The merge queue's figures of one committed round (services/metrics, docs/observability.md "Merge
 * queue"), read from what the round did: the engine state before and after, the forge effects and
 * the log events it emitted. The one place the metrics observe the queue: every change of a queue
 * goes through a round (docs/architecture.md "A forge event, end to end", step 2).
 */
import type { EngineEffect, EngineState, LogEffect } from "../engine/index.js";
import type { QueueFigures } from "../metrics/index.js";

/** What a committed round read and wrote. */
export interface CommittedRound {
  repository: string;
  before: EngineState;
  after: EngineState;
  effects: readonly EngineEffect[];
  logs: readonly LogEffect[];
  /** When the round applied its events, epoch ms UTC. */
  at: number;
}

/** The figures of a round: per-branch counts after it, and what started, merged, left and was bisected. */
export function roundFigures(round: CommittedRound): QueueFigures {
  const counts = new Map<string, { waiting: Set<number>; checking: number }>();
  const of = (branch: string) => {
    let c = counts.get(branch);
    if (!c) counts.set(branch, (c = { waiting: new Set(), checking: 0 }));
    return c;
  };
  for (const train of round.before.trains) of(train.branch);
  for (const train of round.after.trains) {
    const c = of(train.branch);
    for (const n of train.waiting) c.waiting.add(n);
    for (const n of train.forming?.members ?? []) c.waiting.add(n);
    c.checking += train.batches.length;
  }
  const bisected = new Set(round.before.trains.flatMap((t) => t.bisections.map((b) => b.id)));
  const figures: QueueFigures = {
    repository: round.repository,
    branches: [...counts].map(([branch, c]) => ({ branch, waiting: c.waiting.size, checking: c.checking })),
    ciRunsStarted: [],
    merges: [],
    dequeues: [],
    queueTimes: [],
    bisections: round.after.trains.flatMap((t) =>
      t.bisections.filter((b) => b.parentId === null && !bisected.has(b.id)).map(() => ({ branch: t.branch })),
    ),
  };
  for (const e of round.effects) {
    if (e.kind === "create_speculative_check" || e.kind === "start_in_place_check")
      figures.ciRunsStarted.push({ branch: e.baseRef });
  }
  for (const log of round.logs) {
    const branch = log.baseRef ?? "";
    if (log.type === "action.queue.merged") figures.merges.push({ branch });
    if (log.type !== "action.queue.leave") continue;
    const queuedAt = Date.parse(String(log.metadata.queued_at));
    if (Number.isFinite(queuedAt))
      figures.queueTimes.push({ branch, seconds: Math.max(0, (round.at - queuedAt) / 1000) });
    if (log.metadata.merged !== true) figures.dequeues.push({ branch, code: String(log.metadata.dequeue_code) });
  }
  return figures;
}
