/**
 * The GitHub adapter's pure rules, table-driven: check states, file lists, permissions, rate-limit
 * waits, temporary branch names and the bounded expiring cache.
 */
import { describe, expect, it } from "vitest";
import { checkRunState, githubConclusion } from "../../../services/forge/github/check-states.js";
import { rateLimitWaitMs, toForgeError } from "../../../services/forge/github/errors.js";
import { permissionOf } from "../../../services/forge/github/issues.js";
import { repoParams } from "../../../services/forge/github/repo-name.js";
import { fileLists } from "../../../services/forge/github/snapshot.js";
import { temporaryBranchOf } from "../../../services/forge/github/speculative-branch.js";
import { TtlCache } from "../../../services/forge/github/ttl-cache.js";
import type { GhFile } from "../../../services/forge/github/github-types.js";

describe("check states", () => {
  it.each([
    ["queued", null, "pending"],
    ["in_progress", null, "pending"],
    ["waiting", null, "pending"],
    ["completed", "success", "success"],
    ["completed", "timed_out", "timed_out"],
    ["completed", "stale", "stale"],
    ["completed", "startup_failure", "failure"],
    ["completed", null, "failure"],
  ] as const)("%s/%s → %s", (status, conclusion, state) => {
    expect(checkRunState(status, conclusion)).toBe(state);
  });

  it.each([
    ["error", "failure"],
    ["pending", null],
    ["action_required", "action_required"],
  ] as const)("posts %s as %s", (state, conclusion) => {
    expect(githubConclusion(state)).toBe(conclusion);
  });
});

describe("file lists", () => {
  it("puts both paths of a rename in files, the old one removed and the new one added", () => {
    const f = (filename: string, status: string, previous_filename?: string) =>
      ({ filename, status, previous_filename }) as GhFile;
    expect(
      fileLists([
        f("a", "added"),
        f("b", "removed"),
        f("c", "modified"),
        f("new", "renamed", "old"),
        f("copy", "copied"),
        f("mode", "changed"),
      ]),
    ).toEqual({
      files: ["a", "b", "c", "old", "new", "copy", "mode"],
      addedFiles: ["a", "new", "copy"],
      modifiedFiles: ["c", "mode"],
      removedFiles: ["b", "old"],
    });
  });
});

describe("permissions", () => {
  it.each([
    [{ role_name: "admin", permission: "admin" }, "admin"],
    [{ role_name: "Maintain", permission: "write" }, "maintain"],
    [{ role_name: "custom-role", permission: "read" }, "read"],
    [{ role_name: null, permission: "none" }, "none"],
    [{}, "none"],
  ] as const)("%j → %s", (answer, expected) => {
    expect(permissionOf(answer)).toBe(expected);
  });
});

describe("rate-limit waits", () => {
  const error = (status: number, message: string, headers: Record<string, string>) => ({
    status,
    message,
    request: {},
    response: { headers, data: { message } },
  });
  const now = 1_800_000_000_000;
  it.each([
    ["retry-after wins", error(403, "You have exceeded a secondary rate limit", { "retry-after": "30" }), 30_000],
    [
      "reset time when exhausted",
      error(403, "API rate limit exceeded", {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(now / 1000 + 90),
      }),
      90_000,
    ],
    [
      "a reset in the past is now",
      error(429, "API rate limit exceeded", {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(now / 1000 - 5),
      }),
      0,
    ],
    [
      "a secondary limit without headers waits a minute",
      error(403, "You have exceeded a secondary rate limit", {}),
      60_000,
    ],
    ["a bare 429 waits a minute", error(429, "Too Many Requests", {}), 60_000],
    [
      "a permission refusal is no rate limit",
      error(403, "Resource not accessible by integration", { "x-ratelimit-remaining": "4000" }),
      null,
    ],
    ["a 404 is no rate limit", error(404, "Not Found", {}), null],
  ])("%s", (_label, e, wait) => {
    expect(rateLimitWaitMs(e, now)).toBe(wait);
  });

  it("keeps GitHub's message and the cause", () => {
    const e = error(422, "Validation Failed", {});
    const mapped = toForgeError(e, "posting a comment", now);
    expect([mapped.kind, mapped.message, mapped.cause]).toEqual([
      "invalid",
      "GitHub answered 422 while posting a comment: Validation Failed",
      e,
    ]);
  });
});

describe("names", () => {
  it.each([
    ["yardmaster/merge-queue/abc", "yardmaster/merge-queue/tmp-abc"],
    ["plain", "tmp-plain"],
  ])("builds %s on %s", (branch, temp) => {
    expect(temporaryBranchOf(branch)).toBe(temp);
  });

  it.each(["owner", "owner/name/extra", "-bad/name", "owner/..", "own er/name"])("refuses repository %s", (name) => {
    expect(() => repoParams(name)).toThrow(/^repository:/);
  });
});

describe("TtlCache", () => {
  it("expires entries after their time to live and evicts the oldest beyond its size", () => {
    let t = 0;
    const cache = new TtlCache<string, number>(1000, 2, () => t);
    cache.set("a", 1);
    cache.set("b", 2);
    t = 999;
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    t = 1000;
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("c")).toBe(3);
  });
});
