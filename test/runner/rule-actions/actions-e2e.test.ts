/**
 * pull_request_rules run their actions on the local forge (real git, real PostgreSQL), each once
 * per transition of its conditions, each with its activity log event (docs/workflow-automation.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPullRuleActions } from "../../../services/store/index.js";
import { queueWorld, REPO, type QueueWorld } from "../queue-world.js";

const CONFIG = `
pull_request_rules:
  - name: triage
    conditions:
      - label=triage
    actions:
      label:
        add: [triaged]
        remove: [triage]
      comment:
        message: "Thanks {{ author }} for #{{ number }}: {{ title | upper }} ({{ labels | join(', ') }})"
      assign:
        add_users: ["{{ author }}", bob]
      request_reviews:
        users: [carol, dave]
        random_count: 1
  - name: wip
    conditions:
      - title~=^WIP
    actions:
      edit:
        draft: true
  - name: approve docs
    conditions:
      - files~=^docs/
    actions:
      review:
        type: APPROVE
        message: "Docs only: {{ title }}"
      post_check:
        title: "docs {{ check_status }}"
        summary: "{{ check_conditions }}"
  - name: close stale
    conditions:
      - label=stale
    actions:
      close:
        message: "Closed: stale"
  - name: dismiss on push
    conditions:
      - label=strict
    actions:
      dismiss_reviews: {}
  - name: self review
    conditions:
      - label=refused
    actions:
      request_reviews:
        teams: [devs]
      label:
        add: [after-refusal]
  - name: run ci
    conditions:
      - label=rerun
    actions:
      github_actions:
        workflow:
          dispatch:
            - workflow: test
            - workflow: nope
`;

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(CONFIG);
}, 60_000);
afterAll(async () => w?.cleanup());

const until = <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000) =>
  w.untilSome(probe, timeoutMs);

const events = async (n: number, type: string) =>
  (await w.loggedTypes()).filter((e) => e.pull_request === String(n) && e.type === type);

describe("pull request rules act on the local forge", () => {
  it("label, comment, assign and request_reviews run once when the rule starts matching", async () => {
    const n = await w.pull("feature-a", { "a.txt": "a\n" });
    await w.forge.label(REPO, n, ["triage"], []);
    const view = await until(async () => {
      const v = await w.forge.describePullRequest(REPO, n);
      return v.labels.includes("triaged") && v.comments.length === 1 && v.requestedReviewers.length === 1 ? v : null;
    }, 30_000);
    expect(view.labels).toEqual(["triaged"]);
    expect(view.comments[0].body).toContain(`Thanks ada for #${n}: ADD FEATURE-A (triage)`);
    expect(view.assignees.sort()).toEqual(["ada", "bob"]);
    expect(["carol", "dave"]).toContain(view.requestedReviewers[0]);
    expect((await events(n, "action.label"))[0].metadata).toEqual({ added: ["triaged"], removed: ["triage"] });
    expect((await events(n, "action.comment")).length).toBe(1);
    expect((await events(n, "action.assign"))[0].metadata).toEqual({ added: ["ada", "bob"], removed: [] });
    // The rule stopped matching (triage removed): labelling triage again is a new transition.
    await w.forge.label(REPO, n, ["triage"], []);
    await until(async () => ((await events(n, "action.comment")).length === 2 ? true : null), 30_000);
    expect((await w.forge.describePullRequest(REPO, n)).comments.length).toBe(2);
    const actions = await listPullRuleActions(w.db.pool, REPO, n);
    expect(actions.filter((a) => a.rule === "triage").map((a) => a.action)).toEqual([
      "label",
      "comment",
      "assign",
      "request_reviews",
      "label",
      "comment",
      "assign",
      "request_reviews",
    ]);
  });

  it("edit converts a WIP pull request to draft; review and post_check act on a docs change", async () => {
    const wip = await w.pull("wip-x", { "x.txt": "x\n" });
    await w.forge.editPullRequest(REPO, wip, { title: "WIP: x" });
    await until(async () => ((await w.forge.describePullRequest(REPO, wip)).pull.draft ? true : null));
    expect((await events(wip, "action.edit"))[0].metadata).toEqual({ draft: true });

    const docs = await w.pull("docs-y", { "docs/y.md": "y\n" });
    const view = await until(async () => {
      const v = await w.forge.describePullRequest(REPO, docs);
      const check = v.checks.find((c) => c.name === "approve docs");
      return v.reviews.length === 1 && check ? { v, check } : null;
    });
    expect(view.v.reviews[0]).toMatchObject({ author: "yardmaster[bot]", state: "APPROVED" });
    expect(view.check).toMatchObject({ state: "success", description: "docs success" });
    expect((await events(docs, "action.review"))[0].metadata).toEqual({
      review_type: "APPROVE",
      reviewer: null,
      message: "Docs only: Add docs-y",
    });
    // A pull request the rule does not match gets the failing check (no success_conditions).
    const other = await until(async () => {
      const c = (await w.forge.describePullRequest(REPO, wip)).checks.find((x) => x.name === "approve docs");
      return c ?? null;
    });
    expect(other.state).toBe("failure");
  });

  it("close closes with its message; dismiss_reviews dismisses approvals when the head moves", async () => {
    const n = await w.pull("stale-z", { "z.txt": "z\n" });
    await w.forge.review(REPO, n, { event: "APPROVE", body: "", author: "bob" });
    await w.forge.label(REPO, n, ["strict"], []);
    await w.until(async () => w.runner.drain());
    await w.commitOnTop("stale-z", { "z2.txt": "z2\n" }, "ada");
    const dismissed = await until(async () => (await events(n, "action.dismiss_reviews"))[0] ?? null);
    expect(dismissed.metadata).toEqual({ users: ["bob"] });
    expect((await w.forge.describePullRequest(REPO, n)).reviews.map((r) => r.state)).toEqual(["DISMISSED"]);
    await w.forge.label(REPO, n, ["stale"], []);
    const closed = await until(async () => {
      const v = await w.forge.describePullRequest(REPO, n);
      return v.pull.state === "closed" && v.comments.some((c) => c.body.startsWith("Closed: stale")) ? v : null;
    });
    expect(closed.pull.state).toBe("closed");
    expect((await events(n, "action.close"))[0].metadata).toEqual({ message: "Closed: stale" });
  });

  it("a forge refusal is a failure event with the forge's message; the other actions still run", async () => {
    const n = await w.pull("refused", { "r.txt": "r\n" });
    await w.forge.label(REPO, n, ["refused", "rerun"], []);
    await until(async () =>
      (await w.forge.describePullRequest(REPO, n)).labels.includes("after-refusal") ? true : null,
    );
    const refused = await until(async () => (await events(n, "action.request_reviews"))[0] ?? null);
    expect(refused.metadata.error).toMatch(/the local forge has no teams \(devs\)/);
    const dispatched = await until(async () => {
      const e = await events(n, "action.host_actions");
      return e.length === 2 ? e : null;
    });
    expect(dispatched[0].metadata).toEqual({ workflow: "test", inputs: {} });
    expect(dispatched[1].metadata.error).toMatch(/declares no check "nope"/);
    const outcomes = await w.db.pool.query(
      "SELECT type, outcome FROM event_outbox WHERE pull_request = $1 AND type IN ('action.request_reviews', 'action.label') ORDER BY id",
      [n],
    );
    expect(outcomes.rows.map((r) => [r.type, r.outcome])).toEqual([
      ["action.request_reviews", "failure"],
      ["action.label", "success"],
    ]);
  });
});
