/**
 * ListRepositories and GetRepository (services/queue/repositories.ts, docs/dashboard.md
 * "Repositories", docs/auth.md "Caller-scoped answers") over a real PostgreSQL database: the
 * repositories of the local forge (its table, read by the real directory) and those with queue
 * state (an engine state, a pause, a scheduled freeze), each with its branches, queue depth, pause
 * and freezes; what each kind of credential is answered; and the authorizer letting every caller
 * call the one caller-scoped RPC while other RPCs without a repository stay admin-only.
 */
import { create } from "@bufbuild/protobuf";
import { createContextValues, type HandlerContext } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { QueueService, RepositorySchema } from "../../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer, principalKey, type Principal } from "../../services/auth/index.js";
import { localRepositoryDirectory } from "../../services/forge/index.js";
import { repositoryHandlers } from "../../services/queue/repositories.js";
import { localForgeStore } from "../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

const NOW = Date.parse("2026-12-20T12:00:00Z");
const ACTOR = { type: "user" as const, id: 7, name: "ada" };
let db: TestDatabase;
let handlers: ReturnType<typeof repositoryHandlers>;

/** An engine state holding only what the overview reads: queued pull requests and batch members. */
const state = (pulls: Record<number, string>, batches: number[][]) => ({
  pulls: Object.fromEntries(Object.entries(pulls).map(([n, baseRef]) => [n, { number: Number(n), baseRef }])),
  trains: [{ branch: "main", batches: batches.map((members) => ({ members })) }],
});

beforeAll(async () => {
  db = await freshDatabase();
  for (const [fullName, defaultBranch] of [
    ["acme/widgets", "main"],
    ["Acme/Gadgets", "trunk"],
  ])
    await localForgeStore.insertLocalRepository(db.pool, {
      fullName,
      defaultBranch,
      path: `/nowhere/${fullName}.git`,
      createdAt: new Date(NOW),
    });
  await db.pool.query("INSERT INTO queue_states (repository, state) VALUES ($1, $2), ($3, $4)", [
    "acme/widgets",
    state({ 1: "main", 2: "main", 3: "main", 4: "release" }, [[1, 2]]),
    "zed/only-queued",
    state({ 9: "main" }, []),
  ]);
  await db.pool.query(
    "INSERT INTO queue_pauses (repository, reason, paused_at, paused_by) VALUES ('acme/widgets', 'release 1.0', $1, '{}')",
    [new Date(NOW - 60_000)],
  );
  const freeze = (id: string, repo: string, start: number, end: number | null) =>
    db.pool.query(
      `INSERT INTO scheduled_freezes (id, repository, reason, start_at, end_at, timezone, matching_conditions, exclude_conditions, created_by, created_at)
       VALUES ($1, $2, 'holidays', $3, $4, 'UTC', '["base=main"]', '[]', '{}', $3)`,
      [id, repo, new Date(start), end === null ? null : new Date(end)],
    );
  await freeze("00000000-0000-4000-8000-000000000001", "acme/gadgets", NOW - 3_600_000, NOW + 3_600_000);
  await freeze("00000000-0000-4000-8000-000000000002", "acme/gadgets", NOW + 86_400_000, null);
  await freeze("00000000-0000-4000-8000-000000000003", "acme/gadgets", NOW - 7_200_000, NOW - 3_600_000);
  await freeze("00000000-0000-4000-8000-000000000004", "old/frozen", NOW - 7_200_000, null);
  handlers = repositoryHandlers({ db: db.pool, directory: localRepositoryDirectory(db.pool), now: () => NOW });
});
afterAll(() => db?.drop());

function ctx(principal: Principal): HandlerContext {
  const values = createContextValues();
  values.set(principalKey, principal);
  return { values } as HandlerContext;
}
const admin: Principal = { kind: "admin", actor: ACTOR };
const names = async (p: Principal) =>
  (await handlers.listRepositories({}, ctx(p))).repositories.map((r) => `${r.owner}/${r.repository}`);

describe("the repositories a caller reaches", () => {
  it("lists for the admin key every repository of the forge or with queue state, by name", async () => {
    expect(await names(admin)).toEqual(["Acme/Gadgets", "acme/widgets", "old/frozen", "zed/only-queued"]);
  });

  it("gives each its branches with their queue, its depth, pause and freezes in force", async () => {
    const list = (await handlers.listRepositories({}, ctx(admin))).repositories.map((r) => create(RepositorySchema, r));
    const [gadgets, widgets, frozen, queued] = list;
    expect(widgets).toMatchObject({
      onForge: true,
      defaultBranch: "main",
      queueDepth: 4,
      branches: [
        { name: "main", queued: 3, inBatches: 2 },
        { name: "release", queued: 1, inBatches: 0 },
      ],
      pause: { reason: "release 1.0" },
      activeFreezes: [],
      upcomingFreezes: 0,
    });
    expect(Number(widgets!.pause!.pausedAt!.seconds) * 1000).toBe(NOW - 60_000);
    // One freeze in force, one ahead; the ended one is not counted.
    expect(gadgets).toMatchObject({
      onForge: true,
      defaultBranch: "trunk",
      queueDepth: 0,
      branches: [],
      upcomingFreezes: 2,
    });
    expect(gadgets!.activeFreezes.map((f) => [f.reason, f.active, f.matchingConditions])).toEqual([
      ["holidays", true, ["base=main"]],
    ]);
    expect(gadgets!.pause).toBeUndefined();
    expect(frozen).toMatchObject({ onForge: false, defaultBranch: "", upcomingFreezes: 1 });
    expect(queued).toMatchObject({
      onForge: false,
      queueDepth: 1,
      branches: [{ name: "main", queued: 1, inBatches: 0 }],
    });
  });

  it("lists for a repository token only the repositories it names, compared case-insensitively", async () => {
    const token: Principal = {
      kind: "token",
      tokenId: "t1",
      repositories: new Set(["acme/gadgets", "acme/unknown"]),
      actor: ACTOR,
    };
    expect(await names(token)).toEqual(["Acme/Gadgets"]);
  });

  it("lists for a platform token the repositories the platform lets its user read", async () => {
    const asked: string[] = [];
    const platform: Principal = {
      kind: "platform",
      token: "ghp_x",
      actor: ACTOR,
      verifier: {
        recognizes: () => true,
        identify: async () => ACTOR,
        canRead: async (_t, repo) => (asked.push(repo), repo !== "zed/only-queued"),
      },
    };
    expect(await names(platform)).toEqual(["Acme/Gadgets", "acme/widgets", "old/frozen"]);
    expect(asked.sort()).toEqual(["Acme/Gadgets", "acme/widgets", "old/frozen", "zed/only-queued"]);
  });

  it("answers one repository, and not_found for a name neither the forge nor the queue knows", async () => {
    expect(await handlers.getRepository({ owner: "ACME", repository: "gadgets" })).toMatchObject({
      owner: "Acme",
      repository: "Gadgets",
      onForge: true,
    });
    expect(await handlers.getRepository({ owner: "zed", repository: "only-queued" })).toMatchObject({ queueDepth: 1 });
    await expect(handlers.getRepository({ owner: "acme", repository: "nothing" })).rejects.toMatchObject({
      errorKind: "not_found",
      message: "repository acme/nothing is unknown to Yardmaster",
    });
  });
});

describe("the authorizer and the caller-scoped RPC", () => {
  const authorizer = createAuthorizer({ adminKey: "yma_test", tokens: { findToken: async () => null } });
  const token: Principal = { kind: "token", tokenId: "t1", repositories: new Set(["acme/widgets"]), actor: ACTOR };

  it("lets a repository token call ListRepositories, whose request names no repository", async () => {
    await expect(authorizer.authorize(token, QueueService.method.listRepositories, {})).resolves.toBeUndefined();
  });

  it("keeps other RPCs without a repository admin-only, and scopes GetRepository", async () => {
    await expect(authorizer.authorize(token, TokenService.method.listTokens, {})).rejects.toMatchObject({ code: 7 });
    const get = QueueService.method.getRepository;
    await expect(authorizer.authorize(token, get, { owner: "acme", repository: "widgets" })).resolves.toBeUndefined();
    await expect(authorizer.authorize(token, get, { owner: "acme", repository: "gadgets" })).rejects.toMatchObject({
      code: 7,
    });
  });
});
