/** A replay's progress off a terminal (docs/replay.md "While it runs"): lines, not a bar. */
import { describe, expect, it } from "vitest";
import { startProgress } from "../../services/replay/progress.js";

describe("progress off a terminal", () => {
  it("writes a line when a change is resolved, and every 10 s while none is", () => {
    const lines: string[] = [];
    let t = 0;
    const p = startProgress({ write: (s: string) => lines.push(s) > 0, isTTY: false }, 5, () => t);
    const c = (resolved: number, queued = 1) => ({ resolved, queued, merged: resolved, dequeued: 0 });
    t = 1000;
    p.update(c(0)); // nothing new
    t = 2000;
    p.update(c(1));
    t = 5000;
    p.update(c(1, 2)); // not resolved, not 10 s yet
    t = 12_500;
    p.update(c(1, 2)); // 10 s since the last line
    t = 13_000;
    p.stop();
    expect(lines).toEqual([
      "replay: 0/5 changes resolved, 0 in queue, 0 merged, 0 dequeued (0 s)\n",
      "replay: 1/5 changes resolved, 1 in queue, 1 merged, 0 dequeued (2 s)\n",
      "replay: 1/5 changes resolved, 2 in queue, 1 merged, 0 dequeued (13 s)\n",
      "replay: 1/5 changes resolved, 2 in queue, 1 merged, 0 dequeued (13 s)\n",
    ]);
    // No escape sequence or carriage return: a bar's control characters.
    expect(lines.join("").includes(String.fromCharCode(27))).toBe(false);
    expect(lines.join("").includes("\r")).toBe(false);
  });
});
