/**
 * `/logs` cursors (docs/activity-log.md "Pages, cursors and links"): a cursor opens only with the secret,
 * repository and normalised filters it was issued for; any altered byte is refused.
 */
import { describe, expect, it } from "vitest";
import { createCursorCodec, type CursorState, type LogFilters } from "../../services/activity-log/index.js";
import { isInvalidArgumentError } from "../../services/contracts/index.js";

const codec = createCursorCodec("a secret of at least 32 characters!");
const filters: LogFilters = {
  repository: "acme/widgets",
  pullRequest: { mode: "exclude", values: [1n, 9223372036854775807n] },
  trigger: { mode: "include", values: ["API"] },
};
const state: CursorState = {
  direction: "older",
  position: { receivedAtMs: Date.UTC(2026, 10, 22, 10, 0, 0, 123), id: 9007199254740993n },
  window: { fromMs: 1, toMs: Date.UTC(2026, 10, 23) },
};
const fieldOf = (fn: () => unknown) => {
  try {
    fn();
    return "opened";
  } catch (e) {
    return isInvalidArgumentError(e) ? e.violations.map((v) => v.field) : e;
  }
};

describe("cursor codec", () => {
  it("opens what it issued, with exact ids beyond 2^53", () => {
    expect(codec.open(filters, codec.issue(filters, state))).toEqual(state);
    const newer = { ...state, direction: "newer" as const, window: { fromMs: -5000, toMs: 0 } };
    expect(codec.open(filters, codec.issue(filters, newer))).toEqual(newer);
  });

  it("is opaque URL-safe text", () => {
    expect(codec.issue(filters, state)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{24}$/);
  });

  it("refuses every single-character alteration", () => {
    const token = codec.issue(filters, state);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < token.length; i++) {
      if (token[i] === ".") continue;
      const other = alphabet[(alphabet.indexOf(token[i]) + 1) % alphabet.length];
      expect(
        fieldOf(() => codec.open(filters, token.slice(0, i) + other + token.slice(i + 1))),
        `position ${i}`,
      ).toEqual(["cursor"]);
    }
  });

  it.each([
    ["another repository", { ...filters, repository: "acme/gadgets" }],
    ["a filter removed", { repository: filters.repository, pullRequest: filters.pullRequest }],
    ["a filter's mode flipped", { ...filters, trigger: { mode: "exclude", values: ["API"] } }],
    ["a filter value added", { ...filters, pullRequest: { mode: "exclude", values: [1n, 2n, 9223372036854775807n] } }],
    ["a base ref added", { ...filters, baseRef: "main" }],
  ] as [string, LogFilters][])("refuses a cursor presented with %s", (_name, other) => {
    expect(fieldOf(() => codec.open(other, codec.issue(filters, state)))).toEqual(["cursor"]);
  });

  it("refuses a cursor of another secret", () => {
    const token = createCursorCodec("another secret of at least 32 chars").issue(filters, state);
    expect(fieldOf(() => codec.open(filters, token))).toEqual(["cursor"]);
  });
});
