/**
 * Atomic ref moves of the local forge (docs/local-forge.md "Writes and events"): a write journals
 * each ref change before git makes it. A process killed after the base moved and before the merge
 * committed (a real second process, killed by its failpoint) leaves the base moved and the pull
 * requests open; the next start moves the base back. A COMMIT without an answer is decided by
 * the journal: committed stays, not committed is undone. Events stored with a write are delivered
 * after a crash that followed the commit.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { armFailpoint, disarmAll } from "../../../services/failpoints/index.js";
import { isForgeError, type ForgeEvent } from "../../../services/forge/types.js";
import { localForgeStore as store } from "../../../services/store/index.js";
import { ROOT } from "../../support/server-process.js";
import { eventRecorder, REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { git } from "./git-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

let w: ForgeWorld;
let repo: Widgets;
let mainTip: string;
let heads: Readonly<Record<number, string>>;

const snapshot = worldSnapshot({ "README.md": "hello\n" }, async (_, repo) => {
  const mainTip = await repo.push("main", repo.src.root, { "main.txt": "m\n" }, "main work");
  const heads: Record<number, string> = {};
  heads[1] = await repo.push("one", repo.src.root, { "one.txt": "1\n" }, "one");
  heads[2] = await repo.push("two", repo.src.root, { "two.txt": "2\n" }, "two");
  for (const b of ["one", "two"]) await repo.open(b);
  return { mainTip, heads };
});
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({
    world: w,
    repo,
    built: { mainTip, heads },
  } = await snapshot.restore());
});
afterEach(async () => {
  disarmAll();
  await w.cleanup();
});

const batch = () => ({
  base: "main",
  expectedBaseSha: mainTip,
  method: "merge" as const,
  pulls: [1, 2].map((number) => ({ number, headSha: heads[number]! })),
});
const journal = async () => (await w.db.pool.query("SELECT ref, old_sha, new_sha FROM local_forge_ref_journal")).rows;
const states = async () => Promise.all([1, 2].map(async (n) => (await w.forge.getPullRequest(REPO, n)).state));
const mergesOnMain = async () =>
  (await git(repo.git, ["log", "--first-parent", "--format=%s", `${mainTip}..main`])).split("\n").filter(Boolean);

/** Runs one write in a second process with `failpoints` armed; resolves with how it ended. */
function writeInProcess(failpoints: string, write: object): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  const script = join(ROOT, "test/forge/local/support/forge-write-process.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: w.db.url,
      YARDMASTER_DATA_DIR: join(w.dir, "data"),
      YARDMASTER_FAILPOINTS: failpoints,
      WRITE: JSON.stringify({ repo: REPO, ...write }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve({ signal, out })));
}

describe("a process killed after the base moved, before the merge committed", () => {
  it("leaves the base moved and the pull requests open, and the next start moves the base back", async () => {
    const crash = await writeInProcess("local-forge.merge.after-base-move=kill", { kind: "merge", ...batch() });
    expect(crash.signal, crash.out).toBe("SIGKILL");
    const moved = (await git(repo.git, ["rev-parse", "main"])).trim();
    expect(moved).not.toBe(mainTip);
    expect(await journal()).toEqual([{ ref: "refs/heads/main", old_sha: mainTip, new_sha: moved }]);

    const restarted = w.another();
    await restarted.ready;
    expect((await git(repo.git, ["rev-parse", "main"])).trim()).toBe(mainTip);
    expect(await journal()).toEqual([]);
    expect(await states()).toEqual(["open", "open"]);
    expect(w.warnings.some((m) => /moved a ref back/.test(m))).toBe(true);
    // Merged again, the batch lands once.
    const result = await restarted.mergePullRequests(REPO, batch());
    expect(await mergesOnMain()).toEqual(["Merge pull request #2", "Merge pull request #1"]);
    expect((await restarted.getPullRequest(REPO, 2)).mergeCommitSha).toBe(result.newBaseSha);
  });

  it("leaves a ref found at neither SHA as it is and says so", async () => {
    const row = await store.findLocalRepository(w.db.pool, REPO);
    const writeId = "00000000-0000-4000-8000-000000000000";
    const intent = { repositoryId: row!.id, ref: "refs/heads/main", oldSha: heads[1]!, newSha: heads[2]!, writeId };
    await store.insertRefIntent(w.db.pool, intent);
    const restarted = w.another();
    await restarted.ready;
    expect((await git(repo.git, ["rev-parse", "main"])).trim()).toBe(mainTip);
    expect(await journal()).toEqual([]);
    expect(w.warnings.some((m) => /at neither its old nor its new SHA/.test(m))).toBe(true);
  });
});

describe("a write that fails before COMMIT", () => {
  it("moves its refs back before it lets go of the repository", async () => {
    armFailpoint("local-forge.after-ref-move", "throw(disk full)");
    const err = await w.forge.mergePullRequests(REPO, batch()).catch((e) => e);
    expect(err.message).toContain("disk full");
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(mainTip);
    expect(await journal()).toEqual([]);
    expect(await states()).toEqual(["open", "open"]);
  });
});

describe("a COMMIT that gets no answer", () => {
  it("is found committed by the journal and is not undone", async () => {
    // The COMMIT went through; its answer was lost (the connection dropped just after).
    armFailpoint("local-forge.after-commit", "1*throw(connection lost)");
    const result = await w.forge.mergePullRequests(REPO, batch());
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(result.newBaseSha);
    expect(await states()).toEqual(["merged", "merged"]);
    expect(await journal()).toEqual([]);
  });

  it("is found not committed by the journal and is undone", async () => {
    // The connection drops before COMMIT reaches the server: the transaction is rolled back.
    armFailpoint("local-forge.before-commit", async () => {
      await w.db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'idle in transaction'`,
      );
    });
    const err = await w.forge.mergePullRequests(REPO, batch()).catch((e) => e);
    expect(isForgeError(err, "transient") && /did not commit/.test(err.message), String(err)).toBe(true);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(mainTip);
    expect(await states()).toEqual(["open", "open"]);
    expect(await journal()).toEqual([]);
  });
});

describe("events of a write whose process died right after the commit", () => {
  it("are delivered at the next start, with their idempotency keys", async () => {
    const write = { kind: "comment", number: 1, body: "still delivered" };
    const crash = await writeInProcess("local-forge.after-commit=kill", write);
    expect(crash.signal, crash.out).toBe("SIGKILL");
    const recorder = eventRecorder();
    const keys: (string | undefined)[] = [];
    const restarted = w.another({ sink: (e: ForgeEvent, key?: string) => void (recorder.sink(e), keys.push(key)) });
    await restarted.ready;
    await expect.poll(() => recorder.all.length).toBeGreaterThan(0);
    expect(recorder.all).toMatchObject([{ kind: "comment_created", number: 1, body: "still delivered" }]);
    expect(keys[0]).toMatch(/^local-forge:\d+$/);
    const stored = async () => (await w.db.pool.query("SELECT count(*)::int AS n FROM local_forge_events")).rows[0].n;
    await expect.poll(stored).toBe(0);
  });
});
