import { describe, expect, it } from "vitest";
import { parsePathTemplate, PathTemplateError } from "../../services/gateway/path-template.js";

describe("path templates (google.api.http grammar)", () => {
  it.each([
    [
      "/v1/repos/{owner}/{repository}/logs",
      ["v1", "repos", "*", "*", "logs"],
      [
        ["owner", 2, 3],
        ["repository", 3, 4],
      ],
      "",
    ],
    ["/v1/{name=shelves/*/books/*}", ["v1", "shelves", "*", "books", "*"], [["name", 1, 5]], ""],
    ["/v1/{path=**}", ["v1", "**"], [["path", 1, -1]], ""],
    ["/v1/{a.b.c}:search", ["v1", "*"], [["a.b.c", 1, 2]], "search"],
    ["/v1/*/x/**", ["v1", "*", "x", "**"], [], ""],
    ["/v1/files/a%20b", ["v1", "files", "a b"], [], ""],
  ])("parses %s", (src, segs, vars, verb) => {
    const t = parsePathTemplate(src);
    expect(t.segments.map((s) => (s.kind === "literal" ? s.value : s.kind === "single" ? "*" : "**"))).toEqual(segs);
    expect(t.variables.map((v) => [v.fieldPath.join("."), v.start, v.end])).toEqual(vars);
    expect(t.verb).toBe(verb);
  });

  it.each([
    ["v1/x", 1, 'a template starts with "/"'],
    ["/v1/{owner", 11, 'expected "}"'],
    ["/v1/{}", 6, "expected a field name"],
    ["/v1/{a={b}}", 8, "variables cannot be nested"],
    ["/v1/**/x", 5, '"**" must be the last segment'],
    ["/v1/{a}/{a}", 9, 'variable "a" appears twice'],
    ["/v1/x:", 7, 'expected a verb after ":"'],
    ["/v1//x", 5, "expected a literal, *, ** or {variable}"],
  ])("refuses %s at column %i", (src, column, reason) => {
    const err = (() => {
      try {
        parsePathTemplate(src);
      } catch (e) {
        return e as PathTemplateError;
      }
      throw new Error("no error");
    })();
    expect(err).toBeInstanceOf(PathTemplateError);
    expect(err.message).toBe(`invalid path template "${src}" at column ${column}: ${reason}`);
  });
});
