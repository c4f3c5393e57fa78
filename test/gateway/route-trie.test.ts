import { describe, expect, it } from "vitest";
import { parsePathTemplate } from "../../services/gateway/path-template.js";
import { DuplicateRouteError, RouteTrie } from "../../services/gateway/route-trie.js";

function trie(routes: [string, string][]) {
  const t = new RouteTrie<string>();
  for (const [m, p] of routes) t.add(m, parsePathTemplate(p), `${m} ${p}`, (r) => r);
  return t;
}

describe("the route trie", () => {
  const t = trie([
    ["GET", "/v1/repos/{owner}/{repository}/merge-queue/pause"],
    ["PUT", "/v1/repos/{owner}/{repository}/merge-queue/pause"],
    ["DELETE", "/v1/repos/{owner}/{repository}/merge-queue/pause"],
    ["GET", "/v1/repos/{owner}/{repository}/merge-queue/pull/{n}"],
    ["GET", "/v1/repos/{owner}/{repository}/logs"],
    ["POST", "/v1/repos/{owner}/{repository}/logs:search"],
    ["GET", "/v1/files/{path=**}"],
    ["GET", "/v1/repos/special/{repository}/logs"],
  ]);

  it("matches a path and returns its decoded segments", () => {
    const r = t.match("GET", "/v1/repos/my-org/a%2Eb/merge-queue/pull/42");
    expect(r).toEqual({
      kind: "found",
      match: {
        route: "GET /v1/repos/{owner}/{repository}/merge-queue/pull/{n}",
        segments: ["v1", "repos", "my-org", "a.b", "merge-queue", "pull", "42"],
      },
    });
  });

  it("prefers a literal segment over a variable", () => {
    expect(t.match("GET", "/v1/repos/special/x/logs")).toMatchObject({
      kind: "found",
      match: { route: "GET /v1/repos/special/{repository}/logs" },
    });
  });

  it("falls back to the variable when the literal branch has no such route", () => {
    expect(t.match("GET", "/v1/repos/special/x/merge-queue/pause")).toMatchObject({
      kind: "found",
      match: { route: "GET /v1/repos/{owner}/{repository}/merge-queue/pause" },
    });
  });

  it("answers the allowed methods for a known path with another method", () => {
    expect(t.match("PATCH", "/v1/repos/o/r/merge-queue/pause")).toEqual({
      kind: "method_not_allowed",
      allow: ["DELETE", "GET", "PUT"],
    });
  });

  it("answers not found for an unknown path, an empty segment or a bad escape", () => {
    expect(t.match("GET", "/v1/repos/o/r/nothing")).toEqual({ kind: "not_found" });
    expect(t.match("GET", "/v1/repos//r/logs")).toEqual({ kind: "not_found" });
    expect(t.match("GET", "/v1/repos/%zz/r/logs")).toEqual({ kind: "not_found" });
  });

  it("matches a custom verb, and the path without it", () => {
    expect(t.match("POST", "/v1/repos/o/r/logs:search")).toMatchObject({
      kind: "found",
      match: { route: "POST /v1/repos/{owner}/{repository}/logs:search" },
    });
    expect(t.match("POST", "/v1/repos/o/r/logs")).toEqual({ kind: "method_not_allowed", allow: ["GET"] });
  });

  it("lets ** take the rest of the path", () => {
    expect(t.match("GET", "/v1/files/a/b/c.txt")).toMatchObject({
      kind: "found",
      match: { segments: ["v1", "files", "a", "b", "c.txt"] },
    });
  });

  it("serves HEAD with the GET route", () => {
    expect(t.match("HEAD", "/v1/repos/o/r/logs")).toMatchObject({ kind: "found" });
  });

  it("refuses the same method on the same template twice", () => {
    const d = new RouteTrie<string>();
    d.add("GET", parsePathTemplate("/v1/{a}"), "first", (r) => r);
    expect(() => d.add("GET", parsePathTemplate("/v1/{b}"), "second", (r) => r)).toThrow(
      new DuplicateRouteError("GET /v1/{b} is bound twice: by first and by second"),
    );
  });
});
