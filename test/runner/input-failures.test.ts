/**
 * Which failures blame the input being applied (services/runner/input-failures.ts): a lost
 * database connection or a lock conflict must never set an input aside; a bug or bad data does.
 */
import { describe, expect, it } from "vitest";
import { InputFailureCount, isTransientFailure, retryDelayMs } from "../../services/runner/input-failures.js";
import { ForgeError } from "../../services/forge/types.js";
import { PoolBusyError } from "../../services/offload/index.js";

/** The runner's backoff for failures that are not transient (runner-context.ts). */
const BACKOFF = { first: 5000, max: 300_000 };

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe("isTransientFailure", () => {
  it("says a database that went away, a lock conflict or a forge asking to retry blames no input", () => {
    for (const code of ["08006", "57P01", "40001", "40P01", "53300", "55P03"])
      expect(isTransientFailure(pgError(code)), code).toBe(true);
    expect(isTransientFailure(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(true);
    expect(isTransientFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isTransientFailure(new ForgeError("transient", "502 from the forge"))).toBe(true);
  });

  it("says a bug or data no code path expected blames the input", () => {
    expect(isTransientFailure(new TypeError("Cannot read properties of null (reading 'split')"))).toBe(false);
    expect(isTransientFailure(pgError("22P02"))).toBe(false);
    expect(isTransientFailure(pgError("23505"))).toBe(false);
    expect(isTransientFailure(new ForgeError("not_found", "no pull request 9"))).toBe(false);
    expect(isTransientFailure("a string")).toBe(false);
  });
});

describe("busy worker threads", () => {
  it("are transient: retried within seconds, not backed off for minutes", () => {
    const busy = new PoolBusyError("resource_exhausted", "the server is busy", 2);
    const waited = new PoolBusyError("unavailable", "no worker thread was free within 60 s", 6);
    for (const e of [busy, waited]) {
      expect(isTransientFailure(e)).toBe(true);
      // The runner's backoff (5 s doubling to 5 min) would wait 5 min after the eighth failure.
      for (let count = 1; count <= 8; count++) expect(retryDelayMs(e, count, BACKOFF)).toBeLessThanOrEqual(2000);
    }
    expect(retryDelayMs(new TypeError("a bug"), 8, BACKOFF)).toBe(300_000);
  });
});

describe("InputFailureCount", () => {
  it("counts failures in a row on one input and the time since the first, and starts again on another input or none", () => {
    const c = new InputFailureCount();
    expect([c.record("a/b", "7", 1000), c.record("a/b", "7", 6000), c.record("a/b", "7", 16_000)]).toEqual([
      { count: 1, sinceFirstMs: 0 },
      { count: 2, sinceFirstMs: 5000 },
      { count: 3, sinceFirstMs: 15_000 },
    ]);
    expect(c.record("c/d", "7", 20_000)).toEqual({ count: 1, sinceFirstMs: 0 });
    expect(c.record("a/b", "8", 20_000)).toEqual({ count: 1, sinceFirstMs: 0 });
    expect(c.record("a/b", null, 21_000)).toEqual({ count: 0, sinceFirstMs: 0 });
    expect(c.record("a/b", "8", 22_000)).toEqual({ count: 1, sinceFirstMs: 0 });
    c.clear("a/b");
    expect(c.record("a/b", "8", 23_000).count).toBe(1);
  });
});
