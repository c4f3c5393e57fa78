/**
 * Merge protections on the GitHub adapter (docs/merge-protections.md, docs/github.md), the queue
 * runner driven against the OpenAPI-checked double (every request matched to an operation of
 * GitHub's description and checked, every answer too): the check run `Yardmaster Merge
 * Protections` created then updated (a custom rule, with its comment), a deployment with its
 * statuses (`reporting_method: deployments`, a `Merge-After:` released by the runner's clock),
 * `Depends-On` across two repositories (the dependent evaluated again when the other merges), and
 * the batch metadata notes pushed with the Git data API and read back with `git notes`.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../../services/forge/local/git/index.js";
import { createQueueRunner, type QueueRunner } from "../../../services/runner/index.js";
import { freshDatabase, type TestDatabase } from "../../support/database.js";
import type { DoubleRepo } from "./support/double-state.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, freshRepoName } from "./support/scenarios.js";

const CHECK = "Yardmaster Merge Protections";
let double: GithubDouble;
useGithubDouble((d) => (double = d));

let db: TestDatabase;
let runner: QueueRunner;
let clock = Date.parse("2026-03-02T10:00:00Z");
beforeAll(async () => {
  db = await freshDatabase();
  runner = createQueueRunner({
    db: db.pool,
    forge: forgeFor(double),
    logger: pino({ level: "silent" }),
    eventsWritten: () => {},
    now: () => clock,
  });
});
afterAll(async () => {
  await runner.stop();
  await db.drop();
});

async function enableProtections(repo: string): Promise<void> {
  await db.pool.query(
    "INSERT INTO repository_products (repository, product, enabled) VALUES ($1, 'merge_protections', true)",
    [repo],
  );
}

const runsOf = (repo: DoubleRepo) => repo.checkRuns.filter((r) => r.name === CHECK);

describe("merge protections on GitHub", () => {
  it("create the check run, update it when the verdict changes, and comment when they start failing", async () => {
    const config = [
      "merge_protections:",
      "  - name: Security review",
      "    if: ['files~=^auth/']",
      "    success_conditions: [label=security-reviewed]",
      "",
    ].join("\n");
    const repo = await double.addRepo(freshRepoName("gate"), { files: { ".yardmaster.yml": config } });
    await enableProtections(repo.fullName);
    await repo.commit("login", { "auth/login.txt": "login\n" }, "Add a login");
    const pull = await repo.openPull({ head: "login", title: "Add a login" });
    await runner.submit({ kind: "pull_request_opened", repo: repo.fullName, number: pull.number });
    await runner.drain();
    expect(runsOf(repo).map((r) => [r.status, r.conclusion, r.title])).toEqual([
      ["completed", "failure", "1 merge protection fails"],
    ]);
    expect(runsOf(repo)[0]!.summary).toContain("- [ ] `label = security-reviewed`");
    expect(repo.comments.map((c) => c.body.split("\n")[0])).toEqual([`## ${CHECK}`]);
    expect(double.calls("checks/create")).toHaveLength(1);

    pull.labels.push({ id: 1, name: "security-reviewed", color: "ededed", default: false });
    await runner.submit({ kind: "pull_request_labeled", repo: repo.fullName, number: pull.number });
    await runner.drain();
    expect(runsOf(repo).map((r) => [r.status, r.conclusion, r.title])).toEqual([
      ["completed", "success", "The merge protection is satisfied"],
    ]);
    expect(double.calls("checks/update")).toHaveLength(1);
    expect(repo.comments).toHaveLength(1);
  });

  it("report as a deployment with reporting_method: deployments; the clock releases a Merge-After", async () => {
    const config = "merge_protections_settings:\n  reporting_method: deployments\n";
    const repo = await double.addRepo(freshRepoName("deploy"), { files: { ".yardmaster.yml": config } });
    await enableProtections(repo.fullName);
    const head = await repo.commit("later", { "later.txt": "1\n" }, "Later");
    const at = new Date(clock + 60_000).toISOString();
    const pull = await repo.openPull({ head: "later", title: "Later", body: `Merge-After: ${at}\n` });
    await runner.submit({ kind: "pull_request_opened", repo: repo.fullName, number: pull.number });
    await runner.drain();
    expect(repo.deployments.map((d) => [d.sha, d.environment, d.statuses.map((s) => s.state)])).toEqual([
      [head, CHECK, ["pending"]],
    ]);
    expect(runsOf(repo)).toEqual([]);
    clock += 61_000;
    await runner.drain();
    expect(repo.deployments.map((d) => [d.environment, d.statuses.map((s) => [s.state, s.description])])).toEqual([
      [
        CHECK,
        [
          ["pending", "Waiting for 1 merge protection"],
          ["success", "The merge protection is satisfied"],
        ],
      ],
    ]);
    expect(double.calls("repos/create-deployment")).toHaveLength(1);
  });

  it("Depends-On across two repositories: pending until the other repository's pull request merges", async () => {
    const api = await double.addRepo(freshRepoName("api"));
    const app = await double.addRepo(freshRepoName("app"));
    await enableProtections(app.fullName);
    const schemaHead = await api.commit("schema", { "schema.sql": "t\n" }, "Schema");
    const schema = await api.openPull({ head: "schema", title: "Schema" });
    await app.commit("feature", { "feature.txt": "1\n" }, "Feature");
    const feature = await app.openPull({
      head: "feature",
      title: "Feature",
      body: `Depends-On: https://github.com/${api.fullName}/pull/${schema.number}\n`,
    });
    await runner.submit({ kind: "pull_request_opened", repo: app.fullName, number: feature.number });
    await runner.drain();
    expect(runsOf(app).map((r) => [r.status, r.conclusion])).toEqual([["in_progress", null]]);
    expect(runsOf(app)[0]!.summary).toContain(`- [ ] ${api.fullName}#${schema.number} Schema: not merged yet`);

    const forge = forgeFor(double);
    await forge.mergePullRequest(api.fullName, schema.number, { method: "merge", expectedHeadSha: schemaHead });
    await runner.submit({
      kind: "pull_request_closed",
      repo: api.fullName,
      number: schema.number,
      merged: true,
      mergeCommitSha: null,
    });
    await runner.drain();
    expect(runsOf(app).map((r) => [r.status, r.conclusion])).toEqual([["completed", "success"]]);
  });

  it("Configuration changed: the edited file is read at the head through the contents API and loaded", async () => {
    const repo = await double.addRepo(freshRepoName("config"));
    await enableProtections(repo.fullName);
    await repo.commit("broken", { ".yardmaster.yml": "queue_rules: 3\n" }, "Break the configuration");
    const pull = await repo.openPull({ head: "broken", title: "Break the configuration" });
    await runner.submit({ kind: "pull_request_opened", repo: repo.fullName, number: pull.number });
    await runner.drain();
    expect(runsOf(repo).map((r) => [r.conclusion, r.title])).toEqual([["failure", "1 merge protection fails"]]);
    expect(runsOf(repo)[0]!.summary).toMatch(
      /### 🔴 Configuration changed\n\n- \[ \] `\.yardmaster\.yml` loads without error:\n {2}- expected a list, got the number 3 @ queue_rules/,
    );
  });

  it("push the batch metadata as git notes that `git notes show` reads", async () => {
    const repo = await double.addRepo(freshRepoName("notes"));
    const first = await repo.commit("yardmaster/merge-queue/main/batch-1", { "a.txt": "a\n" }, "A");
    const forge = forgeFor(double);
    const refs = [
      "refs/notes/yardmaster/yardmaster/merge-queue/main/batch-1",
      "refs/notes/mergify/yardmaster/merge-queue/main/batch-1",
    ];
    const count = (op: string) => double.calls(op).length;
    const [trees, reads] = [count("git/create-tree"), count("git/get-ref")];
    await forge.addNotes!(repo.fullName, { refs, sha: first, text: "---\nchecking_base_sha: abc\n" });
    // New refs: one notes tree and commit for both, nothing read, both refs created in one request.
    expect([count("git/create-tree") - trees, count("git/get-ref") - reads, count("git/create-ref")]).toEqual([
      1, 0, 0,
    ]);
    expect(count("graphql UpdateRefs")).toBe(1);
    const second = await repo.commit("yardmaster/merge-queue/main/batch-1", { "b.txt": "b\n" }, "B");
    await forge.addNotes!(repo.fullName, { refs, sha: second, text: "---\nchecking_base_sha: def\n" });
    const show = async (ref: string, sha: string) =>
      (await runGit(repo.git.gitDir, ["notes", `--ref=${ref}`, "show", sha])).stdout.toString("utf8");
    for (const ref of refs) {
      expect(await show(ref, first)).toBe("---\nchecking_base_sha: abc\n");
      expect(await show(ref, second)).toBe("---\nchecking_base_sha: def\n");
    }
    // Existing refs: the mutation refused (not a fast-forward: nothing written), then each ref
    // extended (its create answered 422 "Reference already exists").
    expect(count("graphql UpdateRefs")).toBe(2);
    expect(double.calls("git/create-ref")).toHaveLength(2);
    expect(double.calls("git/update-ref")).toHaveLength(2);
    expect(count("git/create-tree") - trees).toBe(1 + 1 + 2);
  });
});
