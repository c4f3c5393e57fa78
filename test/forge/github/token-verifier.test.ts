/**
 * GitHub tokens presented to Yardmaster's API (services/forge/github/token-verifier.ts), against
 * the OpenAPI-checked double, and through the gateway's authorizer as the REST and RPC layers use it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../../gen/yardmaster/v1/queue_pb.js";
import { createGithubTokenVerifier, TOKEN_CACHE_TTL_MS } from "../../../services/forge/github/index.js";
import { createAuthorizer } from "../../../services/auth/authorizer.js";
import { GithubDouble } from "./support/github-double.js";
import { freshRepoName } from "./support/scenarios.js";

let double: GithubDouble;
let repo: string;
let hidden: string;
let now: number;
const ALICE = `ghp_${"a".repeat(36)}`;
const ACTIONS = `ghs_${"b".repeat(36)}`;
const STRANGER = `github_pat_${"c".repeat(60)}`;

beforeAll(async () => {
  double = await GithubDouble.start();
  repo = (await double.addRepo(freshRepoName("visible"))).fullName;
  hidden = (await double.addRepo(freshRepoName("hidden"))).fullName;
  double.users.set(ALICE, { login: "alice", id: 1001, readable: new Set([repo.toLowerCase()]) });
  double.users.set(ACTIONS, { login: "", id: 0, readable: new Set([repo.toLowerCase()]), installation: true });
});
afterAll(async () => {
  await double.stop();
});
afterEach(() => {
  expect(double.problems.splice(0)).toEqual([]);
  expect(double.unusedFaults()).toEqual([]);
});

const verifier = () => {
  now = 1_800_000_000_000;
  return createGithubTokenVerifier({ fetch: double.fetch, secondMs: 0, now: () => now });
};

describe("recognizes", () => {
  it.each([
    [ALICE, true],
    [ACTIONS, true],
    [STRANGER, true],
    [`gho_${"d".repeat(36)}`, true],
    [`ghu_${"e".repeat(36)}`, true],
    ["ghp_short", false],
    [`ym_${"f".repeat(40)}`, false],
    [`Bearer ghp_${"a".repeat(36)}`, false],
  ])("%s → %s", (token, expected) => {
    expect(verifier().recognizes(token)).toBe(expected);
  });
});

describe("identify and canRead", () => {
  it("identifies a user token and grants the repositories GitHub lets it read", async () => {
    const v = verifier();
    expect(await v.identify(ALICE)).toEqual({ type: "user", id: 1001, name: "alice" });
    expect(await v.canRead(ALICE, repo)).toBe(true);
    expect(await v.canRead(ALICE, hidden)).toBe(false);
    expect(await v.canRead(ALICE, "no-slash")).toBe(false);
  });

  it("refuses a token GitHub does not know", async () => {
    const v = verifier();
    expect(await v.identify(STRANGER)).toBeNull();
    expect(await v.canRead(STRANGER, repo)).toBe(false);
  });

  it("identifies an installation token (no user) as an application", async () => {
    const v = verifier();
    expect(await v.identify(ACTIONS)).toMatchObject({ type: "application", name: "GitHub App installation token" });
    expect(await v.canRead(ACTIONS, repo)).toBe(true);
  });

  it("reuses a verdict for a minute, then asks GitHub again", async () => {
    const v = verifier();
    const before = double.calls("repos/get").length;
    await v.canRead(ALICE, repo);
    await v.canRead(ALICE, repo);
    expect(double.calls("repos/get").length - before).toBe(1);
    now += TOKEN_CACHE_TTL_MS;
    await v.canRead(ALICE, repo);
    expect(double.calls("repos/get").length - before).toBe(2);
  });

  it("denies without remembering when GitHub fails or rate-limits", async () => {
    const v = verifier();
    double.inject({
      operationId: "repos/get",
      status: 503,
      times: 4,
      body: { message: "Service Unavailable", documentation_url: "https://docs.github.com/rest" },
    });
    expect(await v.canRead(ALICE, repo)).toBe(false);
    double.inject({
      operationId: "repos/get",
      status: 403,
      body: { message: "API rate limit exceeded", documentation_url: "https://docs.github.com/rest" },
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1800000600" },
    });
    expect(await v.canRead(ALICE, repo)).toBe(false);
    expect(await v.canRead(ALICE, repo)).toBe(true);
  });
});

describe("through the gateway's authorizer", () => {
  const method = QueueService.method.getMergeQueueStatus;
  const split = (full: string) => ({ owner: full.split("/")[0], repository: full.split("/")[1] });

  it("accepts a GitHub token for a repository its user can read, and nothing else", async () => {
    const auth = createAuthorizer({
      adminKey: "k".repeat(40),
      tokens: { findToken: async () => null },
      platform: verifier(),
    });
    const principal = await auth.authenticate(`Bearer ${ALICE}`);
    expect(principal).toMatchObject({ kind: "platform", actor: { type: "user", name: "alice" } });
    await expect(auth.authorize(principal, method, split(repo))).resolves.toBeUndefined();
    await expect(auth.authorize(principal, method, split(hidden))).rejects.toThrow(/permission denied/);
    await expect(auth.authenticate(`Bearer ${STRANGER}`)).rejects.toThrow(/permission denied/);
  });
});
