/**
 * A time condition fires on its own (docs/workflow-automation.md "When actions run", item 6): a
 * rule whose only change is the clock runs its actions when the runner's clock reaches the
 * instant, with no event of the pull request after it opened, once per transition; a toggled label
 * goes away when the window closes; the wake-up is a durable timer, so a restart keeps it. The
 * runners' clock is injected and moved ahead; the forge keeps the real one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPullRuleActions } from "../../../services/store/index.js";
import { queueWorld, REPO, type QueueWorld } from "../queue-world.js";

const HOUR = 3_600_000;
const T0 = Date.now();
let ahead = 0;
/** `current-datetime` of the instant `ms` after the test file started (UTC, to the second). */
const at = (ms: number) => new Date(T0 + ms).toISOString().slice(0, 19);

const CONFIG = `
pull_request_rules:
  - name: after hours
    conditions:
      - current-datetime>=${at(HOUR)}
      - current-datetime<${at(2 * HOUR)}
    actions:
      label:
        toggle: [after-hours]
      comment:
        message: "After hours for #{{ number }}"
`;

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(CONFIG, {}, { now: () => Date.now() + ahead });
}, 60_000);
afterAll(async () => w?.cleanup());

const until = <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000) =>
  w.untilSome(probe, timeoutMs);
const logged = async (n: number, type: string) =>
  (await w.loggedTypes()).filter((e) => e.pull_request === String(n) && e.type === type);
const timerOf = async (n: number) =>
  (
    await w.db.pool.query<{ due_at: Date }>("SELECT due_at FROM queue_timers WHERE repository = $1 AND key = $2", [
      REPO,
      `pull-rules/${n}`,
    ])
  ).rows[0]?.due_at.getTime() ?? null;

describe("time conditions fire on their own", () => {
  it("labels and comments when the window opens, removes the toggled label when it closes, once each", async () => {
    const n = await w.pull("late", { "late.txt": "late\n" });
    // The local CI's check completes first: its event, not the clock, must not be what evaluates.
    await until(async () =>
      (await w.forge.describePullRequest(REPO, n)).checks.some((c) => c.name === "test" && c.state === "success"),
    );
    await w.runner.drain();
    // Evaluated at the opening: not matching yet, a wake-up at the window's start.
    expect(await timerOf(n)).toBe(Date.parse(`${at(HOUR)}Z`));
    expect((await w.forge.describePullRequest(REPO, n)).labels).toEqual([]);
    // A restart loses nothing: the wake-up is a row, not a setTimeout.
    const runner = await w.restartRunner();
    const eventsBefore = w.events.length;

    ahead = HOUR;
    const opened = await until(async () => {
      const v = await w.forge.describePullRequest(REPO, n);
      return v.labels.includes("after-hours") && v.comments.length === 1 ? v : null;
    });
    // Nothing but the clock moved: the forge events since are the rule's own label and comment.
    expect(
      w.events
        .slice(eventsBefore)
        .map((e) => e.kind)
        .sort(),
    ).toEqual(["comment_created", "pull_request_labeled"]);
    expect(opened.comments[0].body).toContain(`After hours for #${n}`);
    expect((await logged(n, "action.label")).map((e) => e.metadata)).toEqual([{ added: ["after-hours"], removed: [] }]);
    expect(await timerOf(n)).toBe(Date.parse(`${at(2 * HOUR)}Z`));

    // Further sweeps and the rule's own label event decide nothing again.
    await runner.drain();
    await runner.submit({ kind: "pull_request_labeled", repo: REPO, number: n });
    await runner.drain();
    expect((await logged(n, "action.label")).length).toBe(1);
    expect((await logged(n, "action.comment")).length).toBe(1);

    ahead = 2 * HOUR;
    await until(async () => !(await w.forge.describePullRequest(REPO, n)).labels.includes("after-hours"));
    await runner.drain();
    expect((await logged(n, "action.label")).map((e) => e.metadata)).toEqual([
      { added: ["after-hours"], removed: [] },
      { added: [], removed: ["after-hours"] },
    ]);
    expect((await logged(n, "action.comment")).length).toBe(1);
    expect((await w.forge.describePullRequest(REPO, n)).comments.length).toBe(1);
    expect((await listPullRuleActions(w.db.pool, REPO, n)).map((a) => `${a.action}:${a.outcome}`)).toEqual([
      "label:success",
      "comment:success",
      "label:success",
    ]);
    // Past the window no time condition can change the rule: no timer is kept.
    expect(await timerOf(n)).toBeNull();
  });

  it("a closed pull request keeps no timer", async () => {
    ahead = 0;
    const n = await w.pull("closed-early", { "c.txt": "c\n" });
    expect(await until(() => timerOf(n))).toBe(Date.parse(`${at(HOUR)}Z`));
    await w.forge.closePullRequest(REPO, n);
    await until(async () => (await timerOf(n)) === null);
  });
});
