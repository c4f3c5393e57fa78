/**
 * A server killed with SIGKILL after a pull request rule's action reached the forge and before the
 * runner recorded it, then started again on the same data directory and database, performs each
 * action exactly once (docs/workflow-automation.md "When actions run", item 4; docs/reliability.md
 * "Crashes: every effect exactly once"). The actions are the ones that are not idempotent as they
 * stand: a templated comment (the replay looks for its hidden marker), a label (a set; its event
 * must not be logged twice) and a backport (a real cherry-pick onto a branch and a new pull
 * request, found again by its branch).
 *
 * One scenario, five processes: each but the last is armed to die at one failpoint, in order
 * - after the comment's forge call (`runner.effect.rule_action.comment.after-perform`),
 * - after the label's (`...label.after-perform`),
 * - after the backport opened its pull request, before labelling it (`...backport.after-pull-request`),
 * - after the backport's forge calls (`...backport.after-perform`),
 * and the last has none. Then, on the local forge: one comment per pull request, the label once,
 * one backport branch holding one cherry-picked commit and one open backport pull request with its
 * label; in the activity log one `action.comment`, `action.label` and `action.backport` per pull
 * request, none with an error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { faultWorld, rpc, type FaultWorld } from "./support/fault-world.js";

const REPO = { owner: "acme", repository: "faults" };
const TARGET = "release-1.x";
const CONFIG = `
pull_request_rules:
  - name: welcome
    conditions: [label=ready]
    actions:
      comment:
        message: "Thanks @{{ author }} for #{{ number }} ({{ title }})"
      label:
        add: [triaged]
      backport:
        branches: [${TARGET}]
        labels: [backported]
`;
const KILLS = ["comment.after-perform", "label.after-perform", "backport.after-pull-request", "backport.after-perform"];
const PULLS = [1, 2];

let world: FaultWorld;
const outputs: string[] = [];
const armed = (i: number) => ({ YARDMASTER_FAILPOINTS: `runner.effect.rule_action.${KILLS[i]}=kill` });

beforeAll(async () => {
  world = await faultWorld(PULLS.length, armed(0), "true", { config: CONFIG, queue: false, branches: [TARGET] });
  for (const n of PULLS) await rpc(world, "ForgeService/LabelPullRequest", { ...REPO, number: n, add: ["ready"] });
  for (let i = 0; i < KILLS.length; i++) {
    outputs.push(await world.died());
    await world.restart(i + 1 < KILLS.length ? armed(i + 1) : {});
  }
}, 600_000);
afterAll(async () => world?.cleanup());

const pull = async (n: number) =>
  (await rpc(world, "ForgeService/GetPullRequest", { ...REPO, number: n })).pull_request;
const backports = async (n: number) =>
  (await rpc(world, "ForgeService/ListPullRequests", { ...REPO, state: "" })).pull_requests.filter(
    (p: any) => p.head === `yardmaster/bp/${TARGET}/pr-${n}`,
  );
/** The log's events of `type` for pull request `n`, once at least one is there. */
async function logged(type: string, n: number): Promise<any[]> {
  return eventually(async () => {
    const list = (await world.events(type)).filter((e) => Number(e.pull_request) === n);
    expect(list.length, type).toBeGreaterThan(0);
    return list;
  }, 60_000);
}

describe("a server killed between a rule action's forge call and its commit, four times", () => {
  it("died at each failpoint in turn", () => {
    expect(outputs.map((o, i) => o.includes(`failpoint runner.effect.rule_action.${KILLS[i]}: kill`))).toEqual(
      KILLS.map(() => true),
    );
  });

  it("each action acted on the forge exactly once", async () => {
    for (const n of PULLS) {
      await eventually(async () => expect((await backports(n))[0]?.labels ?? []).toContain("backported"), 60_000);
    }
    for (const n of PULLS) {
      const p = await pull(n);
      const thanks = p.comments.filter((c: any) => c.body.startsWith("Thanks @"));
      expect(
        thanks.map((c: any) => c.body.split("\n")[0]),
        `#${n}`,
      ).toEqual([`Thanks @${p.author} for #${n} (Add ${n})`]);
      expect([...p.labels].sort(), `#${n}`).toEqual(["ready", "triaged"]);
      const copies = await backports(n);
      expect(
        copies.map((c: any) => [c.base, c.state, c.labels]),
        `#${n}`,
      ).toEqual([[TARGET, "open", ["backported"]]]);
      const picked = world.git("log", "--format=%s", `${TARGET}..yardmaster/bp/${TARGET}/pr-${n}`).split("\n");
      expect(picked, `#${n}`).toEqual([`Add ${n}`]);
      expect(world.git("show", `yardmaster/bp/${TARGET}/pr-${n}:changes/${n}.txt`)).toBe(String(n));
    }
    const branches = world.git("for-each-ref", "--format=%(refname:short)", "refs/heads/yardmaster/bp/").split("\n");
    expect(branches.sort()).toEqual(PULLS.map((n) => `yardmaster/bp/${TARGET}/pr-${n}`));
  });

  it("each action logged exactly one event, without error", async () => {
    for (const n of PULLS) {
      const copy = (await backports(n))[0];
      for (const type of ["action.comment", "action.label", "action.backport"]) await logged(type, n);
      // Late duplicates would come from the same relay: give it one more turn.
      await new Promise((r) => setTimeout(r, 1500));
      const comment = await logged("action.comment", n);
      const label = await logged("action.label", n);
      const backport = await logged("action.backport", n);
      expect(
        comment.map((e) => [e.outcome, e.metadata.error ?? null]),
        `#${n}`,
      ).toEqual([["success", null]]);
      expect(
        label.map((e) => e.metadata.added),
        `#${n}`,
      ).toEqual([["triaged"]]);
      expect(
        backport.map((e) => [e.metadata.to, Number(e.metadata.pull_request_number), e.metadata.error ?? null]),
        `#${n}`,
      ).toEqual([[TARGET, Number(copy.number), null]]);
    }
  });
});
