/**
 * The contract the GitHub test double enforces bites: requests and answers that GitHub's OpenAPI
 * description does not allow are reported (the adapter's tests assert none are).
 */
import { describe, expect, it } from "vitest";
import { GithubOpenApi } from "./support/openapi.js";

const api = GithubOpenApi.load();
const op = (method: string, path: string) => api.match(method, path)!;

describe("requests", () => {
  it("matches a path to its template, decoding parameters", () => {
    const m = op("GET", "/repos/acme/app/git/ref/heads%2Fyardmaster%2Fmerge-queue%2Fx");
    expect([m.operation.operationId, m.pathParams]).toEqual([
      "git/get-ref",
      { owner: "acme", repo: "app", ref: "heads/yardmaster/merge-queue/x" },
    ]);
    expect(api.match("GET", "/repos/acme/app/no-such-thing")).toBeNull();
    expect(api.match("DELETE", "/repos/acme/app/pulls/1")).toBeNull();
  });

  it.each([
    [
      "a merge method GitHub does not have",
      "PUT",
      "/repos/a/b/pulls/1/merge",
      "",
      { merge_method: "fast-forward" },
      /merge_method|allowed values|must be equal to one of/,
    ],
    [
      "a ref without its sha",
      "POST",
      "/repos/a/b/git/refs",
      "",
      { ref: "refs/heads/x" },
      /must have required property 'sha'/,
    ],
    [
      "an undeclared query parameter",
      "GET",
      "/repos/a/b/pulls",
      "?sort_by=created",
      undefined,
      /query parameter sort_by is not declared/,
    ],
    ["a query value outside its enum", "GET", "/repos/a/b/pulls", "?state=merged", undefined, /state="merged"/],
    ["a non-integer pull number", "GET", "/repos/a/b/pulls/abc", "", undefined, /pull_number="abc" is not an integer/],
    [
      "a check run conclusion GitHub does not have",
      "POST",
      "/repos/a/b/check-runs",
      "",
      { name: "x", head_sha: "a".repeat(40), status: "completed", conclusion: "error" },
      /conclusion/,
    ],
  ])("reports %s", (_label, method, path, query, body, problem) => {
    const m = op(method, path);
    expect(api.checkRequest(m.operation, m.pathParams, new URLSearchParams(query), body).join("\n")).toMatch(problem);
  });
});

describe("answers", () => {
  it("reports an undeclared status and a body that breaks the schema", () => {
    const get = op("GET", "/repos/a/b/pulls/1").operation;
    expect(api.checkResponse(get, 409, { message: "x" })).toEqual([
      "GET /repos/{owner}/{repo}/pulls/{pull_number} → 409: status not declared by the operation",
    ]);
    const pull = api.example("pulls/get", 200);
    delete pull.head;
    expect(api.checkResponse(get, 200, pull).join("")).toMatch(/must have required property 'head'/);
    expect(api.checkResponse(get, 503, { message: "down", documentation_url: "https://docs.github.com/rest" })).toEqual(
      [],
    );
  });
});
