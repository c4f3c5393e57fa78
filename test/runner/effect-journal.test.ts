/**
 * Forge effects performed again after a crash (docs/reliability.md "Crashes: every effect exactly
 * once"), over the real local forge: an effect is marked started before the forge is called; a
 * stored effect found started (its result never recorded) is a resume, which reads the forge
 * instead of acting blindly. A comment carries its effect's idempotency key in a hidden marker
 * and is not posted twice; a merge whose pull requests are merged reports the commit where the
 * batch landed, not the base's tip.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type pg from "pg";
import type { EngineEffect } from "../../services/engine/effects.js";
import { enginePerformer, type ExecutorDeps } from "../../services/runner/effect-executor.js";
import { performJournaled } from "../../services/runner/effect-journal.js";
import { addEffects, deleteEffect, dueEffects, type EffectRow } from "../../services/store/index.js";
import { createWorld, REPO, widgets, type ForgeWorld, type Widgets } from "../forge/local/forge-fixture.js";
import { testLogger } from "../support/logger.js";

let w: ForgeWorld;
let repo: Widgets;
let client: pg.PoolClient;
let mainTip: string;
let heads: Record<number, string>;

beforeEach(async () => {
  w = await createWorld();
  repo = await widgets(w, { "README.md": "hello\n" });
  mainTip = await w.forge.getBranchSha(REPO, "main");
  heads = {};
  for (const [n, name] of [
    [1, "one"],
    [2, "two"],
  ] as const) {
    heads[n] = await repo.push(name, repo.src.root, { [`${name}.txt`]: `${n}\n` });
    await repo.open(name);
  }
  client = await w.db.pool.connect();
});
afterEach(async () => {
  client.release();
  await w.cleanup();
});

/** Stores `effect` and returns its row as the runner reads it. */
async function stored(effect: EngineEffect) {
  await addEffects(client, REPO, [effect]);
  const rows = await dueEffects<EngineEffect>(w.db.pool, REPO);
  return rows[rows.length - 1]!;
}

/** The row of `id` as a restarted runner reads it (the result was never recorded: a crash). */
async function afterCrash(id: string) {
  return (await dueEffects<EngineEffect>(w.db.pool, REPO)).find((r) => r.id === id)!;
}

const deps = () => ({ forge: w.forge, repository: REPO, logger: testLogger().logger });
/** Marks the effect started and performs it, its result not recorded (the runner crashes there). */
const performStoredEffect = (d: ExecutorDeps, c: pg.ClientBase, row: EffectRow<EngineEffect>) =>
  performJournaled(c, row, enginePerformer(d));
const bodies = async () => {
  const { comments } = await w.forge.describePullRequest(REPO, 1);
  return comments.filter((c) => c.author === "yardmaster[bot]").map((c) => c.body);
};

describe("a comment effect", () => {
  it("is posted once with its key in a hidden marker, and a resume finds it instead of posting again", async () => {
    const row = await stored({ kind: "comment", number: 1, body: "Queued" });
    expect(row.startedAt).toBeNull();
    await performStoredEffect(deps(), client, row);
    const resumed = await afterCrash(row.id);
    expect(resumed.startedAt).not.toBeNull();
    await performStoredEffect(deps(), client, resumed);
    expect(await bodies()).toEqual([`Queued\n\n<!-- yardmaster:effect ${row.id} -->`]);
  });

  it("with the same text but another effect is another comment", async () => {
    const first = await stored({ kind: "comment", number: 1, body: "Queued" });
    await performStoredEffect(deps(), client, first);
    await deleteEffect(client, first.id);
    const second = await stored({ kind: "comment", number: 1, body: "Queued" });
    await performStoredEffect(deps(), client, second);
    expect(await bodies()).toHaveLength(2);
  });
});

describe("a merge effect resumed after its merge committed", () => {
  const merge = (): EngineEffect => ({
    kind: "merge_batch",
    batchId: "b1",
    baseRef: "main",
    method: "merge",
    pulls: [1, 2].map((number) => ({ number, headSha: heads[number]! })),
    expectedBaseSha: mainTip,
    checkBaseSha: mainTip,
    checkSha: mainTip,
    exactTree: false,
    checkPullRequest: 3,
    inPlace: false,
    botAccount: null,
  });

  it("reports merge_completed where the batch landed, without merging again, after the base moved on", async () => {
    const row = await stored(merge());
    const [first] = await performStoredEffect(deps(), client, row);
    expect(first).toMatchObject({ type: "merge_completed", batchId: "b1" });
    const landed = (first as { newBaseSha: string }).newBaseSha;
    // Someone pushes to main before the restarted runner resumes the effect.
    const later = await repo.src.commit("later", repo.src.root, { "later.txt": "later\n" });
    const { after: pushed } = await w.forge.pushBranch({
      repo: REPO,
      fromPath: repo.src.path,
      sourceRef: later,
      branch: "main",
      force: false,
      pusher: "ada",
      merge: true,
    });
    const results = await performStoredEffect(deps(), client, await afterCrash(row.id));
    expect(results).toEqual([{ type: "merge_completed", batchId: "b1", newBaseSha: landed }]);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(pushed);
    expect((await w.forge.getPullRequest(REPO, 2)).mergeCommitSha).toBe(landed);
  });
});
