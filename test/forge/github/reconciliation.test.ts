/**
 * Lost webhooks on GitHub (docs/github.md "Reconciliation"): GitHub never redelivers a failed
 * delivery by itself, so the queue reconciles. Against the OpenAPI-checked double delivering its
 * webhooks to the real webhook route and a real queue runner on PostgreSQL: a delivery dropped by
 * the double (a check run's result, a label, a push to the base, a merge by hand) is recovered by
 * the next reconciliation pass (the periodic loop runs one by itself), a pass that
 * finds nothing makes no input in one query, a repository short of requests is left for after the
 * reset, and failed deliveries are redelivered through the App's delivery API.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGithubRedelivery } from "../../../services/forge/github/index.js";
import { isForgeError } from "../../../services/forge/types.js";
import { freshDatabase, type TestDatabase } from "../../support/database.js";
import { eventually } from "../../support/eventually.js";
import { testLogger } from "../../support/logger.js";
import type { DoubleRepo } from "./support/double-state.js";
import { ACTIONS_APP, githubQueue, tipOf, type GithubQueue } from "./support/github-queue.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { freshRepoName } from "./support/scenarios.js";

const CONFIG = `queue_rules:
  - name: default
    allow_inplace_checks: false
    merge_conditions:
      - check-success=ci
pull_request_rules:
  - name: queue what is labelled
    conditions:
      - label=queue
    actions:
      queue: {}
`;

let double: GithubDouble;
useGithubDouble((d) => (double = d));
let db: TestDatabase;
let queue: GithubQueue | null = null;

// A database per test: a repository of an earlier test is never reconciled by a later one.
beforeEach(async () => {
  db = await freshDatabase();
});
afterEach(async () => {
  await queue?.stop();
  queue = null;
  double.webhooks.stopDropping();
  double.webhooks.clear();
  await db.drop();
});

async function start(reconcileIntervalMs = 0, ci: "auto" | "manual" = "auto"): Promise<GithubQueue> {
  double.clockSource = Date.now;
  queue = await githubQueue({ double, db: db.pool, logger: testLogger().logger, reconcileIntervalMs, ci });
  return queue;
}

/** A repository with the configuration and `n` pull requests adding a file each, CI green on each. */
async function repository(n: number): Promise<DoubleRepo> {
  const repo = await double.addRepo(freshRepoName("reconcile"), { files: { ".yardmaster.yml": CONFIG } });
  for (let i = 1; i <= n; i++) {
    await repo.commit(`feature-${i}`, { [`f${i}.txt`]: `${i}\n` }, `Add f${i}`);
    await repo.openPull({ head: `feature-${i}`, title: `Add f${i}` });
  }
  await double.changed(repo);
  await queue!.ciOnOpenPulls(repo);
  await queue!.runner.drain();
  return repo;
}

/** Labels pull request `n` "queue" as octocat would. */
async function label(repo: DoubleRepo, n: number): Promise<void> {
  repo.pull(n)!.labels.push({ id: 900 + n, name: "queue", color: "0e8a16", default: false });
  await double.changed(repo);
}

const merged = (repo: DoubleRepo, n: number) => repo.pull(n)!.mergedAt !== null;

/** Processes the queue until nothing is left; the webhooks sent meanwhile are processed too. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await queue!.runner.drain();
    await double.webhooks.settled();
    const again = await db.pool.query("SELECT count(*)::int AS n FROM queue_inbox");
    if (again.rows[0].n === 0) return;
  }
}

describe("a lost webhook is recovered by the next reconciliation pass", () => {
  it("a check run's result that never arrived: the batch merges after the pass", async () => {
    const q = await start(0, "manual");
    const repo = await repository(1);
    await label(repo, 1);
    await settle();
    // The CI of the batch's draft reports; every check run delivery of the CI is lost.
    double.webhooks.dropRandomly(
      1,
      1,
      (event, p) => event === "check_run" && (p.check_run as any).app.id === ACTIONS_APP.id,
    );
    expect(await q.finishCi()).toBe(1);
    await settle();
    expect(merged(repo, 1)).toBe(false);
    const running = (await q.state(repo))!.trains.flatMap((t) => t.batches).filter((b) => b.check?.phase === "running");
    expect(running).toHaveLength(1);
    expect(double.webhooks.failed().some((d) => d.event === "check_run")).toBe(true);

    const report = await q.runner.reconcile();
    expect(report.inputs[repo.fullName]).toEqual([{ kind: "evaluate_check", checkId: running[0].check!.id }]);
    await settle();
    expect(merged(repo, 1)).toBe(true);
  });

  it("a label that never arrived: the pull request is queued and merged after the pass", async () => {
    const q = await start();
    const repo = await repository(1);
    double.webhooks.drop((event, p) => event === "pull_request" && p.action === "labeled");
    await label(repo, 1);
    await settle();
    expect((await q.state(repo))?.pulls["1"]).toBeUndefined();

    const report = await q.runner.reconcile();
    expect(report.inputs[repo.fullName]).toEqual([
      { kind: "forge", event: { kind: "pull_request_edited", repo: repo.fullName, number: 1 } },
    ]);
    await settle();
    expect(merged(repo, 1)).toBe(true);
  });

  it("a merge by hand that never arrived: the pull request leaves the queue as merged outside it", async () => {
    // The batch's CI never reports: the pull request stays in the queue.
    const q = await start(0, "manual");
    const repo = await repository(2);
    await label(repo, 1);
    await settle();
    expect((await q.state(repo))?.pulls["1"]).toBeDefined();
    double.webhooks.drop((event, p) => event === "pull_request" && p.action === "closed");
    double.webhooks.drop((event) => event === "push");
    const pull = repo.pull(1)!;
    const tip = await repo.commit("main", { "f1.txt": "1\n" }, "Merge #1 by hand");
    Object.assign(pull, {
      state: "closed",
      mergedAt: double.now(),
      closedAt: double.now(),
      mergeCommitSha: tip,
      mergedBy: "octocat",
    });
    await double.changed(repo);
    await settle();
    expect((await q.state(repo))?.pulls["1"]).toBeDefined();

    const report = await q.runner.reconcile();
    const kinds = report.inputs[repo.fullName].map((i) => (i.kind === "forge" ? i.event.kind : i.kind));
    expect(kinds).toContain("pull_request_closed");
    expect(kinds).toContain("branch_pushed");
    await settle();
    expect((await q.state(repo))?.pulls["1"]).toBeUndefined();
    expect(await tipOf(repo, "main")).toBe(tip);
  });

  it("finds nothing when no webhook was lost, in one GraphQL query and no REST request", async () => {
    const q = await start();
    const repo = await repository(2);
    await label(repo, 1);
    await settle();
    expect(merged(repo, 1)).toBe(true);
    await q.runner.reconcile();
    await settle();
    double.traffic.resetCounts();
    const report = await q.runner.reconcile();
    expect(report.inputs).toEqual({});
    // The pull requests updated since the last pass, the base's tip: one query, nothing of REST's limit.
    expect(double.traffic.tally().map((r) => [r.route, r.requests])).toEqual([["graphql ReconcileFacts", 1]]);
  });

  it("leaves a repository whose installation is short of requests until the reset", async () => {
    const q = await start();
    const repo = await repository(1);
    double.webhooks.drop((event, p) => event === "pull_request" && p.action === "labeled");
    await label(repo, 1);
    await settle();
    // No request left of the hour's: below the 10% reconciliation keeps in reserve.
    const budget = q.forge.requestBudget(repo.fullName)!;
    double.traffic.configure({ primaryPerHour: budget.limit - budget.remaining });
    const refused = await q.forge.getBranchSha(repo.fullName, "main").catch((e) => e);
    expect(isForgeError(refused, "rate_limited")).toBe(true);
    expect(q.forge.requestBudget(repo.fullName)).toMatchObject({ remaining: 0 });
    double.traffic.resetCounts();
    const skipped = await q.runner.reconcile();
    expect(skipped.skipped).toBeGreaterThanOrEqual(1);
    expect(skipped.inputs).toEqual({});
    expect(double.traffic.total().requests).toBe(0);
    double.traffic.configure({ primaryPerHour: 5000 });
  });
});

describe("the periodic pass", () => {
  it("recovers a lost check run result by a pass of its own, with nothing asked", async () => {
    const q = await start(1500, "manual");
    const repo = await repository(1);
    await label(repo, 1);
    await eventually(async () => {
      const running = (await q.state(repo))!.trains
        .flatMap((t) => t.batches)
        .filter((b) => b.check?.phase === "running");
      expect(running).toHaveLength(1);
    });
    double.webhooks.dropRandomly(1, 7, (event) => event === "check_run");
    double.traffic.resetCounts();
    await q.finishCi();
    // No delivery tells the queue that CI passed, and the queue rule has no checks timeout.
    await eventually(async () => expect(merged(repo, 1)).toBe(true));
    expect(double.traffic.tally().map((r) => r.route)).toContain("graphql ReconcileFacts");
    double.webhooks.stopDropping();
  });
});

describe("redelivery of failed deliveries", () => {
  it("redelivers a lost delivery through the App's delivery API, once", async () => {
    const q = await start();
    const repo = await repository(1);
    double.webhooks.drop((event, p) => event === "pull_request" && p.action === "labeled");
    await label(repo, 1);
    await settle();
    const lost = double.webhooks.failed();
    expect(lost.map((d) => [d.event, d.action, d.status])).toEqual([["pull_request", "labeled", "failed to connect"]]);

    const redelivery = createGithubRedelivery({
      appId: double.appId,
      privateKey: double.privateKey,
      fetch: double.fetch,
      secondMs: 0,
      spaceWrites: false,
      now: () => double.now().getTime(),
    });
    const report = await redelivery.pass();
    expect(report).toMatchObject({ failed: 1, redelivered: 1 });
    expect(double.calls("apps/redeliver-webhook-delivery").map((r) => r.path)).toEqual([
      `/app/hook/deliveries/${lost[0].id}/attempts`,
    ]);
    await double.webhooks.settled();
    const again = double.webhooks.deliveries.filter((d) => d.guid === lost[0].guid);
    expect(again.map((d) => [d.redelivery, d.status])).toEqual([
      [false, "failed to connect"],
      [true, "OK"],
    ]);
    await eventually(async () => expect(merged(repo, 1)).toBe(true));
    // The event's second attempt succeeded: nothing to redeliver any more.
    expect(await redelivery.pass()).toMatchObject({ failed: 0, redelivered: 0 });
    void q;
  });
});
