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
  - name: cleanup
    conditions:
      - closed
    actions:
      delete_head_branch: {}
`;

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(CONFIG);
}, 60_000);
afterAll(async () => w?.cleanup());

/** Polls `probe` until it returns a value (null: not yet). */
async function until<T>(probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  return w.until(async () => {
    const v = await probe();
    if (v === null) throw new Error("not yet");
    return v;
  }, timeoutMs);
}

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
});
