/**
 * One merge queue status answer for the reads that arrive together (docs/reliability.md "Load").
 * Reads of a repository share the snapshot read that started after they arrived
 * (state-snapshots.ts); the first of them computes the status at that moment, and the others take
 * the same answer: it is computed from the state committed before each of them arrived, at an
 * instant between each one's arrival and answer, so it is exactly what each would have computed
 * for itself at some instant of its own request. A read that arrived after the answer was computed
 * computes a new one (the estimates move with the clock).
 *
 * The answer is a shared message (contracts/frozen-message.ts): deeply frozen, so nothing can
 * change it while other reads send it, and the REST writer keeps its bytes (gateway/rest-json.ts).
 */
import { create } from "@bufbuild/protobuf";
import { LRUCache } from "lru-cache";
import {
  GetMergeQueueStatusResponseSchema,
  type GetMergeQueueStatusResponse,
} from "../../gen/yardmaster/v1/queue_pb.js";
import type { EngineState } from "../engine/index.js";
import { shareMessage } from "../contracts/index.js";

type StatusInit = Parameters<typeof create<typeof GetMergeQueueStatusResponseSchema>>[1];

interface Answer {
  state: EngineState;
  at: number;
  message: GetMergeQueueStatusResponse;
}

/** Answers kept: one per (repository, branch), least recently used dropped first. */
const MAX_ANSWERS = 2000;

/**
 * The shared answers: `answer(key, state, arrivedAt, compute)` gives the answer of a read of
 * `key` (repository and branch) that arrived at `arrivedAt` (epoch ms, the service's clock) and
 * read `state` (a snapshot object), computing it with `compute(now)` when no answer computed from
 * that snapshot since the read arrived is kept.
 */
export function statusAnswers(now: () => number) {
  const answers = new LRUCache<string, Answer>({ max: MAX_ANSWERS });
  return (
    key: string,
    state: EngineState,
    arrivedAt: number,
    compute: (now: number) => StatusInit,
  ): GetMergeQueueStatusResponse => {
    const kept = answers.get(key);
    if (kept && kept.state === state && kept.at >= arrivedAt) return kept.message;
    const at = now();
    const message = shareMessage(create(GetMergeQueueStatusResponseSchema, compute(at)));
    answers.set(key, { state, at, message });
    return message;
  };
}
