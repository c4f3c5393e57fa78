/**
 * The actions of pull request rules that write git, end to end on the local forge (real git, real
 * PostgreSQL): update and rebase of a stale head, squash, a direct merge, a backport with and
 * without a conflict, deleting the head branch (docs/workflow-automation.md "Actions").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueWorld, REPO, type QueueWorld } from "../queue-world.js";

const CONFIG = `
pull_request_rules:
  - name: update stale
    conditions: [label=update]
    actions:
      update: {}
  - name: rebase stale
    conditions: [label=rebase]
    actions:
      rebase: {}
  - name: squash it
    conditions: [label=squash]
    actions:
      squash:
        commit_message: title+body
  - name: automerge
    conditions: [label=automerge, "#commits-behind=0"]
    actions:
      merge:
        method: merge
        commit_message_template: |
          {{ title }} (#{{ number }})

          {{ body }}
  - name: backport
    conditions: [merged, label=backport]
    actions:
      backport:
        branches: [release-1, release-2]
        title: "[{{ destination_branch }}] {{ title }}"
        labels: [backported]
  - name: cleanup
    conditions: [merged]
    actions:
      delete_head_branch: {}
`;

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(CONFIG, { "c.txt": "base\n" });
  // main moves past its first commit: every pull request (made from it) starts one commit behind.
  await w.commitOnTop("main", { "m.txt": "main moved\n" }, "ada");
  await w.branch("release-1");
  await w.branch("release-2");
  // release-2 changed c.txt: a pull request that changes it too conflicts there.
  await w.commitOnTop("release-2", { "c.txt": "release two\n" }, "ada");
}, 60_000);
afterAll(async () => w?.cleanup());

const until = <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 40_000) =>
  w.untilSome(probe, timeoutMs);
const events = async (n: number, type: string) =>
  (await w.loggedTypes()).filter((e) => e.pull_request === String(n) && e.type === type);
const pull = (n: number) => w.forge.getPullRequest(REPO, n);

describe("git actions of pull request rules", () => {
  it("update merges the base into a stale head; rebase replays it on the base", async () => {
    const a = await w.pull("stale-a", { "a.txt": "a\n" });
    const b = await w.pull("stale-b", { "b.txt": "b\n" });
    expect([(await pull(a)).commitsBehind, (await pull(b)).commitsBehind]).toEqual([1, 1]);
    await w.forge.label(REPO, a, ["update"], []);
    await w.forge.label(REPO, b, ["rebase"], []);
    const [pa, pb] = await until(async () => {
      const [x, y] = [await pull(a), await pull(b)];
      return x.commitsBehind === 0 && y.commitsBehind === 0 ? [x, y] : null;
    });
    expect(pa.commits.at(-1)?.parents.length).toBe(2); // a merge of the base
    expect(pb.commits.map((c) => c.parents.length)).toEqual([1]); // replayed, linear
    expect((await events(a, "action.update")).length).toBe(1);
    expect((await events(b, "action.rebase")).length).toBe(1);
  });

  it("squash makes the head one commit with the pull request's title and body", async () => {
    const n = await w.pull("two-commits", { "s1.txt": "1\n" }, { body: "Why it matters" });
    await w.commitOnTop("two-commits", { "s2.txt": "2\n" }, "ada");
    await until(async () => (await pull(n)).commits.length === 2);
    await w.forge.label(REPO, n, ["squash"], []);
    const p = await until(async () => {
      const x = await pull(n);
      return x.commits.length === 1 ? x : null;
    });
    expect(p.commits[0].message).toBe(`Add two-commits (#${n})\n\nWhy it matters`);
    expect(p.files.sort()).toEqual(["s1.txt", "s2.txt"]);
    expect((await events(n, "action.squash")).length).toBe(1);
  });

  it("update, then merge directly; then backport copies it to each branch, a conflict reported; the head branch is deleted", async () => {
    const n = await w.pull("fix-c", { "c.txt": "fixed\n", "d.txt": "d\n" }, { body: "Fixes c" });
    await w.forge.label(REPO, n, ["backport", "automerge", "update"], []);
    const bps = await until(async () => {
      const e = await events(n, "action.backport");
      return e.length === 2 ? e : null;
    });
    expect((await pull(n)).state).toBe("merged");
    expect((await events(n, "action.merge"))[0].metadata).toEqual({ branch: "main" });
    const byTarget = Object.fromEntries(bps.map((e) => [e.metadata.to, e.metadata]));
    expect(byTarget["release-1"].conflicts).toBe(false);
    expect(byTarget["release-2"].conflicts).toBe(true);
    const clean = await pull(byTarget["release-1"].pull_request_number);
    expect(clean.base).toBe("release-1");
    expect(clean.title).toBe("[release-1] Add fix-c");
    expect(clean.labels.map((l) => l.name)).toEqual(["backported"]);
    expect(await w.forge.readFile(REPO, clean.headSha, "d.txt")).toBe("d\n");
    const conflicted = await pull(byTarget["release-2"].pull_request_number);
    expect(conflicted.labels.map((l) => l.name).sort()).toEqual(["backported", "conflicts"]);
    expect(await w.forge.readFile(REPO, conflicted.headSha, "c.txt")).toContain("<<<<<<<");
    await until(async () => (await events(n, "action.delete_head_branch")).length === 1);
    const gone = await w.forge.getBranchSha(REPO, "fix-c").catch((e) => e);
    expect(gone.kind).toBe("not_found");
  });
});
