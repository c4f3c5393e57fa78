/**
 * Each action of a pull request rule runs exactly once per transition (docs/workflow-automation.md
 * "Exactly once"), whatever happens around it: the same webhook delivered again, a runner that dies
 * after the forge acted and before the result was committed (the next runner replays the action,
 * which looks first), two runners on one database (each its own PostgreSQL session and advisory
 * lock, as two processes would have: comment, review and copy; then comment, label and backport on
 * three pull requests with every action slowed once started). And two rules that undo each other's label are
 * stopped with one action.label.loop_stopped event.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { armFailpoint, disarmAll } from "../../../services/failpoints/index.js";
import { ForgeError } from "../../../services/forge/types.js";
import { listPullRuleActions } from "../../../services/store/index.js";
import { queueWorld, REPO, type QueueWorld } from "../queue-world.js";

const CONFIG = `
pull_request_rules:
  - name: welcome
    conditions: [label=ready]
    actions:
      comment:
        message: "Welcome #{{ number }}"
      review:
        type: APPROVE
      copy:
        branches: [release-1]
  - name: ship
    conditions: [label=ship]
    actions:
      comment:
        message: "Shipping #{{ number }}"
      label:
        add: [shipped]
      backport:
        branches: [release-1]
  - name: add flag
    conditions: [label=loopy, -label=flag]
    actions:
      label:
        add: [flag]
  - name: drop flag
    conditions: [label=loopy, label=flag]
    actions:
      label:
        remove: [flag]
`;

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(CONFIG);
  await w.branch("release-1");
}, 60_000);
afterAll(async () => w?.cleanup());
afterEach(() => disarmAll());

const until = <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 40_000) =>
  w.untilSome(probe, timeoutMs);
const logged = async (n: number) => (await w.loggedTypes()).filter((e) => e.pull_request === String(n));
/** What the forge shows of the welcome rule's three actions on `n`. */
async function effects(n: number) {
  const view = await w.forge.describePullRequest(REPO, n);
  const copies = (await w.forge.listOpenPullRequests(REPO)).filter(
    (p) => p.head === `yardmaster/copy/release-1/pr-${n}`,
  );
  return {
    comments: view.comments.filter((c) => c.body.startsWith(`Welcome #${n}`)).length,
    approvals: view.reviews.filter((r) => r.state === "APPROVED").length,
    copies: copies.length,
  };
}
const settled = async (n: number) => {
  const e = await until(async () => {
    const x = await effects(n);
    return x.comments >= 1 && x.approvals >= 1 && x.copies >= 1 ? x : null;
  });
  await w.runner.drain();
  return e;
};
const types = async (n: number) => (await logged(n)).map((e) => e.type).filter((t) => /comment|review|copy/.test(t));

describe("exactly once", () => {
  it("the same webhook delivered again does not run the actions again", async () => {
    const n = await w.pull("again", { "again.txt": "1\n" });
    await w.forge.label(REPO, n, ["ready"], []);
    await settled(n);
    for (let i = 0; i < 2; i++) await w.runner.submit({ kind: "pull_request_labeled", repo: REPO, number: n });
    await w.runner.drain();
    expect(await effects(n)).toEqual({ comments: 1, approvals: 1, copies: 1 });
    expect(await types(n)).toEqual(["action.comment", "action.review", "action.copy"]);
    expect((await listPullRuleActions(w.db.pool, REPO, n)).map((a) => a.outcome)).toEqual([
      "success",
      "success",
      "success",
    ]);
  });

  it("a runner that dies after the forge acted and before the commit: the next one replays, acting once", async () => {
    const crashed = new Set<string>();
    // The forge call returned; the result is not recorded: what a crash leaves (the effect stays, started).
    armFailpoint("runner.effect.rule_action.after-perform", () => {
      const size = crashed.size;
      crashed.add(String(size));
      if (size < 3) throw new ForgeError("transient", "simulated crash after the forge call");
    });
    const n = await w.pull("crash", { "crash.txt": "1\n" });
    await w.forge.label(REPO, n, ["ready"], []);
    await until(async () => crashed.size >= 3);
    await w.restartRunner();
    await until(async () => (await types(n)).length === 3);
    expect(await effects(n)).toEqual({ comments: 1, approvals: 1, copies: 1 });
    // One event each; the replays after the restart may be recorded in another order.
    expect((await types(n)).sort()).toEqual(["action.comment", "action.copy", "action.review"]);
  });

  it("two runners on one database run each action once", async () => {
    const second = w.anotherRunner();
    const n = await w.pull("two-runners", { "two.txt": "1\n" });
    await w.forge.label(REPO, n, ["ready"], []);
    await Promise.all([
      second.submit({ kind: "pull_request_labeled", repo: REPO, number: n }),
      w.runner.submit({ kind: "pull_request_labeled", repo: REPO, number: n }),
    ]);
    await settled(n);
    await second.drain();
    expect(await effects(n)).toEqual({ comments: 1, approvals: 1, copies: 1 });
    expect(await types(n)).toEqual(["action.comment", "action.review", "action.copy"]);
  });
});

describe("two runners, three pull requests", () => {
  it("comment, label and backport each act once per pull request, however the runners interleave", async () => {
    const second = w.anotherRunner();
    // Every action takes 50 ms once started: both runners are busy at once, the lock decides who acts.
    armFailpoint("runner.effect.rule_action.after-start", () => new Promise((r) => setTimeout(r, 50)));
    const numbers = [];
    for (const name of ["ship-a", "ship-b", "ship-c"]) numbers.push(await w.pull(name, { [`${name}.txt`]: "1\n" }));
    for (const n of numbers) {
      await w.forge.label(REPO, n, ["ship"], []);
      await Promise.all(
        [w.runner, second].map((r) => r.submit({ kind: "pull_request_labeled", repo: REPO, number: n })),
      );
    }
    const shipped = async (n: number) => {
      const view = await w.forge.describePullRequest(REPO, n);
      const backports = (await w.forge.listOpenPullRequests(REPO)).filter(
        (p) => p.head === `yardmaster/bp/release-1/pr-${n}`,
      );
      return {
        comments: view.comments.filter((c) => c.body.startsWith(`Shipping #${n}`)).length,
        labels: view.labels.filter((l) => l === "shipped").length,
        backports: backports.length,
        events: (await logged(n)).map((e) => e.type).filter((t) => /comment|label|backport/.test(t)),
      };
    };
    for (const n of numbers) await until(async () => (await shipped(n)).events.length >= 3);
    await Promise.all([w.runner.drain(), second.drain()]);
    for (const n of numbers) {
      expect(await shipped(n), `#${n}`).toEqual({
        comments: 1,
        labels: 1,
        backports: 1,
        events: ["action.comment", "action.label", "action.backport"],
      });
    }
  });
});

describe("label loops", () => {
  it("two rules that keep adding and removing a label are stopped, with one loop_stopped event", async () => {
    const n = await w.pull("loop", { "loop.txt": "1\n" });
    await w.forge.label(REPO, n, ["loopy"], []);
    const stop = await until(async () => (await logged(n)).find((e) => e.type === "action.label.loop_stopped") ?? null);
    expect(stop.metadata).toEqual({ label: "flag", rules: ["add flag", "drop flag"] });
    await w.runner.drain();
    const labelEvents = (await logged(n)).filter((e) => e.type === "action.label").length;
    expect(labelEvents).toBe(6);
    // Nothing more happens: the loop stays stopped.
    await w.runner.submit({ kind: "pull_request_labeled", repo: REPO, number: n });
    await w.runner.drain();
    expect((await logged(n)).filter((e) => e.type.startsWith("action.label")).length).toBe(7);
  });
});
