/**
 * A pull request read whose base comparison GitHub cannot make (a field error beside partial data,
 * https://docs.github.com/en/graphql/guides/forming-calls-with-graphql) still reads the pull
 * request: the comparison becomes a gap read with REST (docs/github.md "Request budget"). Octokit's
 * own GraphQL client raises the error, from a GitHub-shaped answer.
 */
import { Octokit } from "@octokit/rest";
import { describe, expect, it } from "vitest";
import { comparisonTolerant } from "../../../services/forge/github/pull-graphql.js";

/** An Octokit whose every request is answered 200 with `body` (GitHub answers field errors with 200). */
function answering(body: unknown): Octokit {
  return new Octokit({
    request: {
      fetch: async () =>
        new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }),
    },
  });
}

const partial = { repository: { pullRequest: { number: 7, baseRef: { target: { oid: "abc" }, compare: null } } } };

describe("a pull request read with GraphQL field errors", () => {
  it("keeps the partial data when every error lies under the base comparison", async () => {
    const gh = answering({
      data: partial,
      errors: [{ path: ["repository", "pullRequest", "baseRef", "compare"], message: "Could not resolve to a Ref" }],
    });
    await expect(comparisonTolerant(() => gh.graphql("query { repository { nameWithOwner } }"))).resolves.toEqual(
      partial,
    );
  });

  it("fails the read when an error lies elsewhere", async () => {
    const gh = answering({
      data: partial,
      errors: [
        { path: ["repository", "pullRequest", "baseRef", "compare"], message: "Could not resolve to a Ref" },
        { path: ["repository", "pullRequest", "files"], message: "Something went wrong" },
      ],
    });
    await expect(comparisonTolerant(() => gh.graphql("query { repository { nameWithOwner } }"))).rejects.toMatchObject({
      name: "GraphqlResponseError",
    });
  });
});
