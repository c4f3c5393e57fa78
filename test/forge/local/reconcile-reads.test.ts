/**
 * The local forge's reconciliation read (ReconciliationPort.reconciliationFacts;
 * docs/github.md "Reconciliation"): the pull requests updated since an instant, newest first, with
 * the facts a snapshot shows; the tips of the branches asked; the checks of the commits asked.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

let w: ForgeWorld;
let repo: Widgets;

const snapshot = worldSnapshot({ "README.md": "hello\n" }, async () => undefined);
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({ world: w, repo } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

describe("reconciliationFacts", () => {
  it("gives the pull requests updated since the instant, the tips and the checks asked", async () => {
    const open = (head: string) =>
      w.forge.openPullRequest(REPO, { head, base: "main", title: head, body: "", author: "ada", draft: false });
    const first = await repo.push("one", repo.src.root, { "a.txt": "a\n" }, "A");
    const older = await open("one");
    const head = await repo.push("two", repo.src.root, { "b.txt": "b\n" }, "B");
    const newer = await open("two");
    await w.forge.addLabels(REPO, newer, ["ready"]);
    await w.forge.postCheckRun(REPO, {
      sha: head,
      name: "ci",
      state: "success",
      description: "",
      detailsUrl: null,
      app: "ci",
    });
    const since = (await w.forge.getPullRequest(REPO, newer)).updatedAt;

    const facts = await w.forge.reconciliationFacts(REPO, {
      since,
      branches: ["main", "gone"],
      commits: [head, first],
    });
    // Only what changed at or after the instant; the facts are the snapshot's.
    expect(facts.pulls.map((p) => [p.number, p.state, p.headSha, p.labels])).toEqual([
      [newer, "open", head, ["ready"]],
    ]);
    expect(facts.pulls.some((p) => p.number === older)).toBe(false);
    expect(facts.tips).toEqual({ main: await w.forge.getBranchSha(REPO, "main"), gone: null });
    expect(facts.checks[head]!.map((c) => [c.name, c.state])).toEqual([["ci", "success"]]);
    expect(facts.checks[first]).toEqual([]);

    const all = await w.forge.reconciliationFacts(REPO, { since: new Date(0), branches: [], commits: [] });
    expect(all.pulls.map((p) => p.number)).toEqual([newer, older]);
  });
});
