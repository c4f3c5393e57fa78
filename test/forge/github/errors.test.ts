/**
 * GitHub failures become the port's error kinds (services/forge/github/errors.ts), after the
 * retry and throttling plugins had their turn: faults are queued in the OpenAPI-checked double.
 */
import { describe, expect, it } from "vitest";
import { ForgeError, isForgeError, type ForgeErrorKind } from "../../../services/forge/types.js";
import type { Fault } from "./support/double-faults.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPull } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

const DOCS = "https://docs.github.com/rest";
const nowSeconds = () => Math.floor(double.clock.getTime() / 1000);

describe("error kinds", () => {
  const cases: [string, () => Omit<Fault, "operationId">, ForgeErrorKind, number | undefined][] = [
    ["404", () => ({ status: 404, body: { message: "Not Found", documentation_url: DOCS } }), "not_found", undefined],
    [
      "403 without rate-limit headers",
      () => ({ status: 403, body: { message: "Resource not accessible by integration", documentation_url: DOCS } }),
      "permission",
      undefined,
    ],
    [
      "403 primary rate limit (x-ratelimit-reset)",
      () => ({
        status: 403,
        body: { message: "API rate limit exceeded for installation ID 1.", documentation_url: DOCS },
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(nowSeconds() + 1800) },
      }),
      "rate_limited",
      1_800_000,
    ],
    [
      "403 secondary rate limit (retry-after beyond the wait accepted)",
      () => ({
        status: 403,
        body: {
          message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
          documentation_url: DOCS,
        },
        headers: { "retry-after": "120" },
      }),
      "rate_limited",
      120_000,
    ],
    [
      "429 with retry-after",
      () => ({
        status: 429,
        body: { message: "Too Many Requests", documentation_url: DOCS },
        headers: { "retry-after": "90" },
      }),
      "rate_limited",
      90_000,
    ],
    [
      "500, after three retries",
      () => ({ status: 500, times: 4, body: { message: "Server Error", documentation_url: DOCS } }),
      "transient",
      undefined,
    ],
  ];

  it.each(cases)("maps %s", async (_label, fault, kind, retryAfterMs) => {
    const { repo, pull } = await repoWithPull(double);
    double.inject({ operationId: "graphql PullSnapshot", ...fault() });
    const err = await forgeFor(double)
      .getPullRequest(repo.fullName, pull.number)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ForgeError);
    expect(err.kind).toBe(kind);
    expect(err.retryAfterMs).toBe(retryAfterMs);
  });

  it("retries a 5xx three times and then succeeds when GitHub recovers", async () => {
    const { repo, pull } = await repoWithPull(double);
    const before = double.calls("graphql PullSnapshot").length;
    double.inject({
      operationId: "graphql PullSnapshot",
      status: 502,
      times: 3,
      body: { message: "Bad Gateway", documentation_url: DOCS },
    });
    const snap = await forgeFor(double).getPullRequest(repo.fullName, pull.number);
    expect(snap.number).toBe(pull.number);
    expect(double.calls("graphql PullSnapshot").length - before).toBe(4);
  });

  it("retries a secondary rate limit once, then succeeds", async () => {
    const { repo, pull } = await repoWithPull(double);
    const before = double.calls("graphql PullSnapshot").length;
    double.inject({
      operationId: "graphql PullSnapshot",
      status: 403,
      body: {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        documentation_url: DOCS,
      },
      headers: { "retry-after": "1" },
    });
    const snap = await forgeFor(double).getPullRequest(repo.fullName, pull.number);
    expect(snap.title).toBe("Change two");
    expect(double.calls("graphql PullSnapshot").length - before).toBe(2);
  });

  it("maps a validation failure (422) to invalid and a refused merge (405) by its reason", async () => {
    const { repo, pull, head } = await repoWithPull(double);
    const forge = forgeFor(double);
    double.inject({
      operationId: "issues/create-comment",
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [{ resource: "IssueComment", code: "custom", field: "body", message: "body is too long" }],
        documentation_url: DOCS,
      },
    });
    expect(isForgeError(await forge.comment(repo.fullName, pull.number, "hi").catch((e) => e), "invalid")).toBe(true);
    const refusals: [string, ForgeErrorKind][] = [
      ["Pull Request is not mergeable", "conflict"],
      ["Repository rule violations found\n\n2 of 2 required status checks are expected.", "permission"],
      // The repository's settings refuse the method: a refusal of the batch's landing, not bad input.
      ["Merge commits are not allowed on this repository.", "permission"],
    ];
    for (const [message, kind] of refusals) {
      double.inject({ operationId: "pulls/merge", status: 405, body: { message, documentation_url: DOCS } });
      const err = await forge
        .mergePullRequest(repo.fullName, pull.number, { method: "merge", expectedHeadSha: head })
        .catch((e) => e);
      expect([message, err.kind]).toEqual([message, kind]);
    }
  });

  it("maps a network failure to transient", async () => {
    const { repo, pull } = await repoWithPull(double);
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith("/graphql") && calls++ < 4)
        throw new TypeError("fetch failed", { cause: new Error("ECONNRESET") });
      return double.fetch(input as string, init);
    };
    const err = await forgeFor(double, { fetch: flaky })
      .getPullRequest(repo.fullName, pull.number)
      .catch((e) => e);
    expect(isForgeError(err, "transient")).toBe(true);
    expect(err.message).toMatch(/could not be reached.*ECONNRESET/);
  });

  it("rejects a malformed repository name without a request", async () => {
    const before = double.requests.length;
    const err = await forgeFor(double)
      .getDefaultBranch("not-a-repo")
      .catch((e) => e);
    expect(isForgeError(err, "invalid")).toBe(true);
    expect(err.message).toMatch(/^repository:/);
    expect(double.requests.length).toBe(before);
  });
});
