/**
 * The configuration file is not read again after a push that GitHub's payload proves left it alone
 * (services/forge/github/push-config.ts, services/runner/ingress.ts; docs/github.md "Request
 * budget"): the proof itself, the double's push payloads (each commit with the paths it added,
 * modified and removed), and a real queue runner on PostgreSQL that reads `.yardmaster.yml` after a
 * push that touches it, a forced push or the first push it sees, and not after the others.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUSH_COMMITS_CAP, pushLeavesConfig } from "../../../services/forge/github/push-config.js";
import { mapGithubWebhook } from "../../../services/forge/github/webhook-events.js";
import { compareAndSwapRef, runGit } from "../../../services/forge/local/git/index.js";
import { CONFIG_PROOF_MAX_AGE_MS, ConfigProofs } from "../../../services/runner/config-proofs.js";
import { getStoredConfig } from "../../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../../support/database.js";
import { testLogger } from "../../support/logger.js";
import type { DoubleRepo } from "./support/double-state.js";
import { githubQueue, tipOf, type GithubQueue } from "./support/github-queue.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { freshRepoName } from "./support/scenarios.js";

const sha = (c: string) => c.repeat(40);
const commit = (id: string, paths: { added?: string[]; modified?: string[]; removed?: string[] } = {}) => ({
  id,
  added: paths.added ?? [],
  modified: paths.modified ?? [],
  removed: paths.removed ?? [],
});

describe("a push payload's proof that the configuration is unchanged", () => {
  const push = { after: sha("b"), forced: false, created: false, deleted: false };

  it("holds for a complete list of commits that touches neither configuration file", () => {
    const commits = [commit(sha("a"), { added: ["src/a.ts"], modified: ["yardmaster.yml"] }), commit(sha("b"))];
    expect(pushLeavesConfig({ ...push, commits }, true)).toBe(true);
  });

  it("fails when a commit adds, modifies or removes either configuration file", () => {
    for (const paths of [
      { modified: [".yardmaster.yml"] },
      { added: [".github/yardmaster.yml"] },
      { removed: [".yardmaster.yml"] },
    ]) {
      const commits = [commit(sha("a"), paths), commit(sha("b"))];
      expect(pushLeavesConfig({ ...push, commits }, true)).toBe(false);
    }
  });

  it("maps a push whose commits come in another shape, without the proof", () => {
    const payload = {
      repository: { full_name: "acme/app" },
      ref: "refs/heads/main",
      before: sha("a"),
      after: sha("b"),
      forced: false,
      commits: [{ id: 42, added: "src/a.ts" }],
    };
    const mapped = mapGithubWebhook("push", payload);
    expect(mapped).toEqual({
      kind: "events",
      events: [
        { kind: "branch_pushed", repo: "acme/app", branch: "main", before: sha("a"), after: sha("b"), forced: false },
      ],
    });
  });

  it("fails when the list may be incomplete", () => {
    const commits = [commit(sha("b"))];
    expect(pushLeavesConfig({ ...push, commits }, true)).toBe(true);
    // A forced push, a created or deleted branch, an unknown old tip.
    expect(pushLeavesConfig({ ...push, commits, forced: true }, true)).toBe(false);
    expect(pushLeavesConfig({ ...push, commits, created: true }, true)).toBe(false);
    expect(pushLeavesConfig({ ...push, commits, deleted: true }, true)).toBe(false);
    expect(pushLeavesConfig({ ...push, commits }, false)).toBe(false);
    // No commits, a list that does not end at the new tip, a commit without its paths.
    expect(pushLeavesConfig({ ...push, commits: [] }, true)).toBe(false);
    expect(pushLeavesConfig({ ...push, commits: [commit(sha("c"))] }, true)).toBe(false);
    expect(pushLeavesConfig({ ...push, commits: [{ id: sha("b") }] }, true)).toBe(false);
    // GitHub's cap: a list of 2,048 commits may have been cut.
    const capped = Array.from({ length: PUSH_COMMITS_CAP }, (_, i) =>
      commit(i === PUSH_COMMITS_CAP - 1 ? sha("b") : sha("d")),
    );
    expect(pushLeavesConfig({ ...push, commits: capped }, true)).toBe(false);
    expect(pushLeavesConfig({ ...push, commits: capped.slice(1) }, true)).toBe(true);
  });
});

describe("the configuration carried over proven pushes", () => {
  it("is current only from the commit and text it was stored at, and read again an hour after its last read", () => {
    const repo = freshRepoName("carried");
    const text = "c".repeat(64);
    const proofs = new ConfigProofs();
    proofs.note(repo, sha("a"), text, 0, true);
    expect(proofs.current(repo, sha("a"), text, 1000)).toBe(true);
    // Another stored text (another database, or a read since): not the one this process carried.
    expect(proofs.current(repo, sha("a"), "d".repeat(64), 1000)).toBe(false);
    proofs.note(repo, sha("b"), text, 1000, false);
    // A push from a commit this process did not store at: one was missed.
    expect(proofs.current(repo, sha("a"), text, 1000)).toBe(false);
    expect(proofs.current(repo, null, text, 1000)).toBe(false);
    expect(proofs.current(repo, sha("b"), text, CONFIG_PROOF_MAX_AGE_MS)).toBe(true);
    expect(proofs.current(repo, sha("b"), text, CONFIG_PROOF_MAX_AGE_MS + 1)).toBe(false);
  });
});

const CONFIG = "queue_rules:\n  - name: default\n    merge_conditions:\n      - check-success=ci\n";
const CONFIG_2 =
  "queue_rules:\n  - name: default\n    merge_conditions:\n      - check-success=ci\n      - '#approved-reviews-by>=1'\n";

let double: GithubDouble;
useGithubDouble((d) => (double = d));
let db: TestDatabase;
let queue: GithubQueue;

beforeEach(async () => {
  db = await freshDatabase();
  double.clockSource = Date.now;
  queue = await githubQueue({ double, db: db.pool, logger: testLogger().logger });
});
afterEach(async () => {
  await queue.stop();
  double.webhooks.clear();
  await db.drop();
});

/** Processes the runner's inbox and the webhooks sent meanwhile until nothing is left. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await queue.runner.drain();
    await double.webhooks.settled();
    const again = await db.pool.query("SELECT count(*)::int AS n FROM queue_inbox");
    if (again.rows[0].n === 0) return;
  }
}

/** Commits `files` on main as a developer would push them, and lets the queue take the push. */
async function pushToMain(repo: DoubleRepo, files: Record<string, string | null>): Promise<string> {
  const tip = await repo.commit("main", files, "A change pushed to main");
  await double.changed(repo);
  await settle();
  return tip;
}

const configReads = (repo: DoubleRepo) =>
  double.calls("repos/get-content").filter((r) => r.path.startsWith(`/repos/${repo.fullName}/contents/`)).length;
const stored = async (repo: DoubleRepo) => (await getStoredConfig(db.pool, repo.fullName))?.text;

describe("the configuration after a push to the default branch", () => {
  it("is read after the first push and any push touching it, not after a push proven to leave it alone", async () => {
    const repo = await double.addRepo(freshRepoName("push-config"), { files: { ".yardmaster.yml": CONFIG } });
    await pushToMain(repo, { "src/a.txt": "a\n" });
    const first = configReads(repo);
    expect(first).toBeGreaterThan(0);
    expect(await stored(repo)).toBe(CONFIG);

    // Two pushes whose payloads list only other files: nothing read, the configuration kept.
    await pushToMain(repo, { "src/b.txt": "b\n" });
    await pushToMain(repo, { "src/c.txt": "c\n", "docs/yardmaster.yml": "not the configuration\n" });
    expect(configReads(repo)).toBe(first);

    // A push changing the file is read, and the queue runs with the new configuration.
    const changed = await pushToMain(repo, { ".yardmaster.yml": CONFIG_2 });
    expect(configReads(repo)).toBeGreaterThan(first);
    expect(await stored(repo)).toBe(CONFIG_2);

    // A forced push back to before the change: its payload proves nothing, so the file is read again.
    const reads = configReads(repo);
    const parent = (await runGit(repo.git.gitDir, ["rev-parse", `${changed}~1`])).stdout.toString("utf8").trim();
    await compareAndSwapRef(repo.git, "refs/heads/main", changed, parent);
    await double.changed(repo);
    await settle();
    expect(await tipOf(repo, "main")).toBe(parent);
    expect(configReads(repo)).toBeGreaterThan(reads);
    expect(await stored(repo)).toBe(CONFIG);
  });

  it("maps the double's push payloads: a push listing only other files proves it, one touching the file does not", async () => {
    const repo = await double.addRepo(freshRepoName("push-payload"), { files: { ".yardmaster.yml": CONFIG } });
    const pushes = () => double.webhooks.deliveries.filter((d) => d.event === "push").map((d) => d.request.body);
    await pushToMain(repo, { "src/a.txt": "a\n" });
    await pushToMain(repo, { ".github/yardmaster.yml": CONFIG });
    const [plain, touching] = pushes()
      .slice(-2)
      .map((body) => mapGithubWebhook("push", JSON.parse(body)));
    expect(plain).toMatchObject({ kind: "events", events: [{ kind: "branch_pushed", configUnchanged: true }] });
    expect(touching).toMatchObject({ kind: "events", events: [{ kind: "branch_pushed", branch: "main" }] });
    expect(touching.kind === "events" && "configUnchanged" in touching.events[0]).toBe(false);
  });
});
