/**
 * The REST interface's decisions where it once diverged (docs/api.md "Decisions"), one assertion
 * each, against one real server process: the `Authorization` scheme read case-insensitively; a
 * repository the forge does not know is 404 on the queue's routes; the status's `pause.paused_at`
 * is the pause's own time; 409 is declared on every route and answered where it happens;
 * `priority_rule_name` is null when no priority rule gave the priority; errors carry `detail`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { forgeScenario } from "../support/forge-scenario.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const REPO = "acme/decided";
let server: ServerProcess;
let work: string;
let f: ReturnType<typeof forgeScenario>;

async function call(method: string, route: string, authorization: string, body?: unknown) {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-decisions-"));
  server = await startServerProcess();
  f = forgeScenario(() => server, work);
  // Queued at once (the CI counts for merging only) and kept there by a long CI.
  await f.repository(REPO, {
    ".yardmaster.yml": "queue_rules:\n  - name: default\n    branch_protection_injection_mode: merge\n",
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "sleep 30"\n',
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the interface's decisions", () => {
  it("reads the Authorization scheme case-insensitively (RFC 9110 §11.1)", async () => {
    const res = await call("GET", `/v1/repos/${REPO}/merge-queue/pause`, `bearer   ${server.adminKey}`);
    expect(res.status).toBe(200);
  });

  it.each([
    ["PUT", "/merge-queue/pause", { reason: "typo" }],
    ["GET", "/merge-queue/pause", undefined],
    ["GET", "/merge-queue/status", undefined],
  ])("answers %s %s of a repository the forge does not know 404 not_found", async (method, route, body) => {
    const res = await call(method, `/v1/repos/acme/nowhere${route}`, `Bearer ${server.adminKey}`, body);
    expect([res.status, res.json.code, res.json.message]).toEqual([
      404,
      "not_found",
      "repository acme/nowhere is not known to the forge",
    ]);
  });

  it("shows in the status the pause's own paused_at, the one the pause route answered", async () => {
    const paused = await restCall(server, "PUT", `/v1/repos/${REPO}/merge-queue/pause`, { reason: "release" });
    expect(paused.status).toBe(200);
    const status = await eventually(async () => {
      const s = await f.status(REPO);
      expect(s.pause?.reason).toBe("release");
      return s;
    }, 10_000);
    expect(status.pause.paused_at).toBe(paused.json.paused_at);
    expect((await restCall(server, "DELETE", `/v1/repos/${REPO}/merge-queue/pause`)).status).toBe(204);
  });

  it("declares 409 on every route, and answers it where the forge reports a conflict", async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, any> };
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p)) as { responses: object }[];
    expect(operations.filter((op) => !("409" in op.responses))).toEqual([]);
    const again = await restCall(server, "POST", "/yardmaster.v1.ForgeService/CreateRepository", {
      owner: "acme",
      repository: "decided",
    });
    expect([again.status, again.json.code]).toEqual([409, "already_exists"]);
  });

  it("answers priority_rule_name null when no priority rule gave the priority", async () => {
    const n = await f.opened(REPO, "plain", { "plain.txt": "1\n" });
    await f.comment(REPO, n, "@yardmaster queue");
    const entry = await eventually(async () => {
      const e = await f.inStatus(REPO, n);
      expect(e).toBeDefined();
      return e;
    }, 60_000);
    expect(entry.priority_rule_name).toBeNull();
    const detail = await restCall(server, "GET", `/v1/repos/${REPO}/merge-queue/pull/${n}`);
    expect(detail.json.priority_rule_name).toBeNull();
  });

  it("gives every error a detail, the sentence of its message", async () => {
    const res = await restCall(server, "GET", `/v1/repos/${REPO}/merge-queue/pull/4242`);
    expect(res.status).toBe(404);
    expect(res.json.detail).toBe(res.json.message);
  });
});
