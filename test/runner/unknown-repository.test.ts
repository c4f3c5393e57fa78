/**
 * A repository the forge does not know (a pause put on a name never created, an event for a
 * repository since removed): the queue runner keeps its inputs, retries with a doubling backoff
 * instead of every few seconds, logs the failure at 1, 2, 4, 8, ... failures instead of at every
 * try, and processes the inputs as soon as new input arrives once the repository exists
 * (docs/merge-queue.md "Runner").
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createQueueRunner, type QueueRunner } from "../../services/runner/index.js";
import { createLocalForge, type LocalForge } from "../../services/forge/local/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { eventually } from "../support/eventually.js";
import { createSourceRepo } from "../forge/local/forge-fixture.js";

const GHOST = "acme/ghost";
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("the queue runner on a repository the forge does not know", () => {
  it("backs off, logs rarely, and processes the inputs once the repository exists", async () => {
    const db: TestDatabase = await freshDatabase();
    const dir = await mkdtemp(join(tmpdir(), "ym-ghost-"));
    const lines: { msg: string; failures?: number; err?: unknown }[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let runner: QueueRunner | undefined;
    const forge: LocalForge = createLocalForge({
      db: db.pool,
      dataDir: join(dir, "data"),
      logger,
      sink: (e) => runner?.submit(e),
      ci: { runner: { tempRoot: dir, killGraceMs: 500 }, slots: 1 },
    });
    // The runner's clock stands still unless the test moves it: the backoff is driven, not waited for.
    let clock = Date.now();
    const advance = (ms: number) => void (clock += ms);
    runner = createQueueRunner({
      db: db.pool,
      forge,
      logger,
      eventsWritten: () => {},
      intervalMs: 20,
      failureBackoffMs: { first: 1000, max: 8000 },
      now: () => clock,
    });
    cleanup = async () => {
      await runner!.stop();
      await forge.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    };
    runner.start();
    await runner.submit({ kind: "pull_request_labeled", repo: GHOST, number: 1 });
    const failed = () => lines.filter((l) => /processing (failed|still fails)/.test(l.msg));
    const sweeps = () => new Promise((r) => setTimeout(r, 300));
    // Tries come 1, 2, 4, 8 s apart by the runner's clock; they are logged at the 1st, 2nd, 4th,
    // 8th... failure. While the clock stands still, a sweep every 20 ms tries nothing more.
    await eventually(async () => expect(failed()).toHaveLength(1), 20_000, 20);
    // The forge's refusal is logged as its message, with no stack trace: nothing in the code failed.
    expect(typeof failed()[0]!.err).toBe("string");
    expect(String(failed()[0]!.err)).toContain(GHOST);
    await sweeps();
    expect(failed()).toHaveLength(1);
    advance(1000);
    await eventually(async () => expect(failed().map((l) => l.failures)).toEqual([undefined, 2]), 20_000, 20);
    advance(2000); // the 3rd try: not logged
    await sweeps();
    advance(3999);
    await sweeps();
    expect(failed()).toHaveLength(2);
    advance(1);
    await eventually(async () => expect(failed().map((l) => l.failures)).toEqual([undefined, 2, 4]), 20_000, 20);
    const pending = await db.pool.query("SELECT count(*)::int AS n FROM queue_inbox WHERE repository = $1", [GHOST]);
    expect(pending.rows[0].n).toBe(1);

    // The repository and its pull request 1 appear (new input): the waiting input is processed at once.
    const src = await createSourceRepo(dir, { "README.md": "ghost\n" });
    await forge.addRepository({ repo: GHOST, fromPath: src.path, defaultBranch: null, atRef: null });
    const sha = await src.commit("one", src.root, { "one.txt": "1\n" }, "Add one");
    await forge.pushBranch({
      repo: GHOST,
      fromPath: src.path,
      sourceRef: sha,
      branch: "one",
      force: false,
      pusher: "ada",
    });
    expect(
      await forge.openPullRequest(GHOST, {
        head: "one",
        base: "main",
        title: "Add one",
        body: "",
        author: "ada",
        draft: false,
      }),
    ).toBe(1);
    await eventually(
      async () => {
        const left = await db.pool.query("SELECT count(*)::int AS n FROM queue_inbox WHERE repository = $1", [GHOST]);
        expect(left.rows[0].n).toBe(0);
      },
      20_000,
      50,
    );
  });
});
