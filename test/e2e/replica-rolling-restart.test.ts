/**
 * A rolling restart of the replicas loses nothing (docs/deployment.md "Several replicas"): three
 * `yardmaster serve` processes on one PostgreSQL with the GitHub forge (the test double over HTTP)
 * work a stream of `@yardmaster queue` comments and CI results, delivered as signed webhooks to
 * whichever replica is in service, as a load balancer would (a refused or reset connection, or a 5xx,
 * goes to the next replica). Meanwhile each replica in turn is replaced: a new one starts, and the
 * old one gets SIGTERM: it answers /readyz 503 at once and keeps serving for
 * YARDMASTER_SHUTDOWN_DELAY_SECONDS (a webhook sent to it then is processed), closes its port after
 * the requests under way, stops its runner after the round under way, releases its locks and
 * leaves the replicas. Every delivery is answered 200 by some replica, every stopped replica exits 0
 * and is gone from the replicas when it exits, every pull request is merged exactly once, and no
 * event is written twice.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { eventually } from "../support/eventually.js";
import { doubledEvents, mergedEvents, replicaIds } from "../support/replica-checks.js";
import { replicaWorld, WEBHOOK_SECRET, type ReplicaWorld } from "../support/replica-world.js";
import { pullRequestPayload, WebhookSender } from "../forge/github/support/webhook-deliveries.js";

const REPOSITORIES = 4;
const PULLS = 3;

let db: TestDatabase;
let w: ReplicaWorld;
beforeAll(async () => {
  db = await freshDatabase({ migrated: false });
  w = await replicaWorld(db.url, { YARDMASTER_SHUTDOWN_DELAY_SECONDS: "1" });
});
afterAll(async () => {
  await w?.close();
  await db?.drop();
});

it("restarts every replica in turn while webhooks arrive, losing no webhook, merge or event", async () => {
  await Promise.all(["r1", "r2", "r3"].map((n) => w.start(n)));
  const repos: Awaited<ReturnType<ReplicaWorld["repository"]>>[] = [];
  for (let i = 1; i <= REPOSITORIES; i++) repos.push(await w.repository(`acme/roll-${i}`, PULLS));
  const all = repos.flatMap(({ repo, numbers }) => numbers.map((n) => ({ repo, n })));

  // The comments arrive one every 400 ms, round-robin over the repositories, during the restarts
  // (and the CI results of the checks they start after them).
  const order = Array.from({ length: PULLS }, (_, k) =>
    repos.map(({ repo, numbers }) => ({ repo, n: numbers[k] })),
  ).flat();
  const stream = (async () => {
    for (const { repo, n } of order) {
      await w.queue(repo, n);
      await new Promise((r) => setTimeout(r, 400));
    }
  })();

  const restarts: { name: string; code: number | null; goneAtExit: boolean; whileDraining: string }[] = [];
  // Each new replica starts first, then the old one gets SIGTERM (a rolling update with a surge of one).
  for (const [old, next] of [
    ["r1", "r4"],
    ["r2", "r5"],
    ["r3", "r6"],
  ]) {
    await w.start(next);
    const replica = w.replicas.get(old)!;
    replica.terminate();
    // Unready at once, and still serving for the delay: a load balancer takes it out of service
    // meanwhile, and a webhook that reaches it anyway is processed, not refused.
    await eventually(
      async () => {
        const ready = await fetch(`${replica.url}/readyz`);
        expect([ready.status, ((await ready.json()) as { checks: Record<string, string> }).checks.process]).toEqual([
          503,
          "shutting down",
        ]);
      },
      10_000,
      50,
    );
    const { repo, numbers } = repos[restarts.length];
    const direct = new WebhookSender(WEBHOOK_SECRET, () => [replica.url], { maxAttempts: 1 });
    const opened = pullRequestPayload(repo, numbers[0], "opened", await repo.headSha(repo.pull(numbers[0])!));
    const whileDraining = (await direct.deliver("pull_request", opened)).body.status ?? "";
    // The load balancer keeps sending to it until its port closes; then the others get everything.
    const code = await replica.stop();
    w.inService.delete(old);
    restarts.push({ name: old, code, goneAtExit: !(await replicaIds(db.pool)).has(old), whileDraining });
  }
  await stream;

  await eventually(
    async () => expect(all.filter(({ repo, n }) => w.merges.get(`${repo.fullName}#${n}`) !== 1)).toEqual([]),
    120_000,
  );
  expect(restarts).toEqual(
    ["r1", "r2", "r3"].map((name) => ({ name, code: 0, goneAtExit: true, whileDraining: "processed" })),
  );
  // No webhook lost: every delivery was answered 200 (processed, or a duplicate of one that was).
  expect(w.deliveries.filter((d) => d.status !== 200)).toEqual([]);
  expect(w.deliveries.filter((d) => d.event === "issue_comment")).toHaveLength(REPOSITORIES * PULLS);
  // Some deliveries met a replica shutting down and went to another.
  console.log(
    `rolling restart: ${w.deliveries.length} deliveries, ${w.deliveries.filter((d) => d.attempts > 1).length} sent again to another replica`,
  );
  expect([...w.merges.values()].every((n) => n === 1)).toBe(true);
  expect(w.merges.size).toBe(REPOSITORIES * PULLS);
  await eventually(async () => expect(await mergedEvents(db.pool)).toEqual(w.merges), 30_000);
  expect(await doubledEvents(db.pool)).toEqual([]);
  expect(w.problems).toEqual([]);
  expect(w.double.problems).toEqual([]);
  // The new replicas work the repositories now.
  expect([...(await replicaIds(db.pool)).keys()].sort()).toEqual(["r4", "r5", "r6"]);
}, 240_000);
