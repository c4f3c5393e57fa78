/**
 * The merge queue status shared by reads that arrive together (services/queue/status-answers.ts):
 * a read gets an answer computed after it arrived, from the snapshot it read — never one computed
 * before it arrived (the estimates move with the clock), never one of another snapshot.
 */
import { describe, expect, it } from "vitest";
import type { EngineState } from "../../services/engine/index.js";
import { statusAnswers } from "../../services/queue/status-answers.js";

const snapshot = () => ({}) as EngineState;

describe("shared status answers", () => {
  it("are shared by reads that arrived before they were computed, and computed again for later reads", () => {
    let clock = 1000;
    const computedAt: number[] = [];
    const answer = statusAnswers(() => clock);
    const compute = (now: number) => {
      computedAt.push(now);
      return { mode: "serial" as const };
    };
    const s = snapshot();
    const first = answer("acme/widgets", s, 1000, compute);
    expect(answer("acme/widgets", s, 1000, compute)).toBe(first);
    clock = 1005;
    const later = answer("acme/widgets", s, 1005, compute);
    expect(later).not.toBe(first);
    expect(answer("acme/widgets", snapshot(), 1000, compute)).not.toBe(later);
    expect(computedAt).toEqual([1000, 1005, 1005]);
    expect(Object.isFrozen(later)).toBe(true);
  });
});
