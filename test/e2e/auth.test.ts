/**
 * Authentication and authorization on REST and gRPC (docs/auth.md): the admin key reaches every
 * repository; a service token reaches the repositories it names; missing, malformed, unknown,
 * revoked and out-of-scope credentials and admin-only calls get 403 (REST) / UNAUTHENTICATED or
 * PERMISSION_DENIED (gRPC), each with its own message, the same whatever the repository and
 * whether it exists. Tokens are issued with the CLI.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { DENIED } from "../../services/auth/index.js";
import { runCli } from "../support/cli.js";
import { grpcClient, grpcUnary, type GrpcClient } from "../support/grpc-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { createLocalRepository } from "../support/rest-client.js";

let server: ServerProcess;
let tokenA: string;
let tokenB: string;
let revoked: string;
let queue: GrpcClient;

async function createToken(repo: string): Promise<{ secret: string; id: string }> {
  const res = await runCli(["token", "create", "--repo", repo, "--description", `for ${repo}`], server.cliEnv);
  expect(res.code, res.stderr).toBe(0);
  const id = /token (\S+) for/.exec(res.stderr)![1];
  return { secret: res.stdout.trim(), id };
}

beforeAll(async () => {
  server = await startServerProcess();
  await createLocalRepository(server, "acme/alpha");
  await createLocalRepository(server, "acme/beta");
  tokenA = (await createToken("acme/alpha")).secret;
  tokenB = (await createToken("acme/beta")).secret;
  const r = await createToken("acme/alpha");
  revoked = r.secret;
  const res = await runCli(["token", "revoke", r.id], server.cliEnv);
  expect(res.stdout).toContain(`revoked ${r.id}`);
  queue = grpcClient(QueueService, `127.0.0.1:${server.port}`);
});
afterAll(async () => {
  queue?.close();
  await server?.stop();
});

const unknownToken = `ym_${"0".repeat(32)}_${"A".repeat(43)}`;

describe("who may read acme/alpha", () => {
  // biome-ignore format: a table, one row per line
  const cases: [string, () => string | undefined, number, grpc.status, string?][] = [
    ["no header", () => undefined, 403, grpc.status.UNAUTHENTICATED, DENIED.missing],
    ["a malformed header", () => "Basic dXNlcjpwYXNz", 403, grpc.status.UNAUTHENTICATED, DENIED.malformed],
    ["an unknown token", () => `Bearer ${unknownToken}`, 403, grpc.status.UNAUTHENTICATED, DENIED.unknown],
    ["a wrong admin key", () => `Bearer yma_${"B".repeat(43)}`, 403, grpc.status.UNAUTHENTICATED, DENIED.unknown],
    ["a revoked token", () => `Bearer ${revoked}`, 403, grpc.status.UNAUTHENTICATED, DENIED.revoked],
    ["a token of another repository", () => `Bearer ${tokenB}`, 403, grpc.status.PERMISSION_DENIED, DENIED.outOfScope("acme/alpha")],
    ["a token of this repository", () => `Bearer ${tokenA}`, 200, grpc.status.OK],
    ["the admin key", () => `Bearer ${server.adminKey}`, 200, grpc.status.OK],
  ];

  it("says each refusal in its own words", () => {
    const messages = cases.flatMap((c) => (c[4] === undefined ? [] : [c[4]]));
    expect(new Set(messages).size).toBe(messages.length - 1); // the unknown token and the wrong key: one message
  });

  it.each(cases)("REST with %s", async (_name, header, status, _code, message) => {
    const h = header();
    const res = await fetch(`${server.url}/v1/repos/acme/alpha/merge-queue/pause`, {
      headers: h ? { authorization: h } : {},
    });
    expect(res.status).toBe(status);
    if (status === 403) {
      const body = (await res.json()) as { message: string };
      expect(body.message).toBe(message);
    }
  });

  it.each(cases)("gRPC with %s", async (_name, header, _status, code, message) => {
    const h = header();
    const meta = new grpc.Metadata();
    if (h) meta.set("authorization", h);
    const result = await new Promise<{ code: grpc.status; details?: string }>((resolve) =>
      queue.getMergeQueuePause({ owner: "acme", repository: "alpha" }, meta, (err) =>
        resolve(err ? { code: err.code, details: err.details } : { code: grpc.status.OK }),
      ),
    );
    expect(result.code).toBe(code);
    // grpc-js leaves the percent-encoding of grpc-message's reserved characters (":", ";", "/").
    if (message !== undefined) expect(decodeURIComponent(result.details!)).toBe(message);
  });

  it("gives the same answer for a repository that does not exist", async () => {
    const known = await fetch(`${server.url}/v1/repos/acme/beta/merge-queue/pause`, {
      headers: { authorization: `Bearer ${tokenA}` },
    });
    const unknown = await fetch(`${server.url}/v1/repos/nobody/nothing/merge-queue/pause`, {
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(known.status).toBe(403);
    expect(unknown.status).toBe(403);
    const strip = (b: any) => ({ ...b, details: [], message: b.message.replace(/acme\/beta|nobody\/nothing/, "R") });
    expect(strip(await known.json())).toEqual(strip(await unknown.json()));
  });

  it("compares repository names case-insensitively", async () => {
    const res = await fetch(`${server.url}/v1/repos/ACME/Alpha/merge-queue/pause`, {
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(res.status).toBe(200);
  });

  it("keeps admin-only RPCs for the admin key", async () => {
    const tokens = grpcClient(TokenService, `127.0.0.1:${server.port}`);
    const err = await grpcUnary(tokens, "listTokens", {}, tokenA).catch((e) => e);
    expect(err.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(decodeURIComponent(err.details)).toBe(DENIED.adminOnly("TokenService.ListTokens"));
    const rest = await fetch(`${server.url}/v1/repos/acme/alpha/merge-queue/pause`, {
      headers: { authorization: `Bearer ${tokenA}` },
    });
    expect(rest.status).toBe(200);
    const ok = await grpcUnary(tokens, "listTokens", {}, server.adminKey);
    expect(ok.tokens.map((t: { description: string }) => t.description).sort()).toEqual([
      "for acme/alpha",
      "for acme/alpha",
      "for acme/beta",
    ]);
    tokens.close();
  });

  it("lists tokens with the CLI, revoked ones marked, without secrets", async () => {
    const res = await runCli(["token", "list"], server.cliEnv);
    expect(res.code).toBe(0);
    expect(res.stdout.split("\n").filter(Boolean)).toHaveLength(3);
    expect(res.stdout).toMatch(/revoked \d{4}-/);
    expect(res.stdout).not.toContain(tokenA);
  });

  it("refuses a token for a malformed repository name, naming it", async () => {
    const res = await runCli(["token", "create", "--repo", "not a repo"], server.cliEnv);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("repositories[0]:");
  });
});
