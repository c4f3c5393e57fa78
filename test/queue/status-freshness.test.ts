/**
 * The merge queue status under read load (docs/reliability.md "Load"): the QueueService serves
 * the state from per-repository snapshots checked against PostgreSQL on every read
 * (services/queue/state-snapshots.ts), on the API's own pool. What a user notices:
 * - a change the runner committed (here a second runner, as another process would) is in the very
 *   next status read, while other readers keep the snapshot busy;
 * - the status answers while every connection of the runner's pool is taken.
 */
import { create } from "@bufbuild/protobuf";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetMergeQueueStatusRequestSchema } from "../../gen/yardmaster/v1/queue_pb.js";
import { wireQueue } from "../../services/main/queue-wiring.js";
import { queueWorld, REPO, type QueueWorld } from "../runner/queue-world.js";
import { testLogger } from "../support/logger.js";

// Pull requests wait in a forming batch (no conditions, a batch of 10 filled for 10 minutes).
const CONFIG =
  "queue_rules:\n  - name: default\n    batch_size: 10\n    batch_max_wait_time: 10 min\n    branch_protection_injection_mode: none\n";

let w: QueueWorld;
let runnerPool: pg.Pool;
let apiPool: pg.Pool;
let service: ReturnType<typeof wireQueue>["queueService"];
const [owner, repository] = REPO.split("/");

/** The pull request numbers the status shows (batches and waiting). */
async function shown(): Promise<number[]> {
  const s = await service.getMergeQueueStatus!(
    create(GetMergeQueueStatusRequestSchema, { owner, repository }),
    undefined as never,
  );
  return [
    ...(s.batches ?? []).flatMap((b) => (b.pullRequests ?? []).map((p) => Number(p.number))),
    ...(s.waitingPullRequests ?? []).map((p) => Number(p.number)),
  ].sort((a, b) => a - b);
}

beforeAll(async () => {
  w = await queueWorld(CONFIG);
  runnerPool = new pg.Pool({ connectionString: w.db.url, max: 2 });
  apiPool = new pg.Pool({ connectionString: w.db.url, max: 2 });
  service = wireQueue({
    db: runnerPool,
    api: apiPool,
    forge: w.forge,
    logger: testLogger().logger,
    eventsWritten: () => {},
  }).queueService;
});
afterAll(async () => {
  await runnerPool?.end();
  await apiPool?.end();
  await w?.cleanup();
});

describe("the merge queue status under read load", () => {
  it("shows each change the runner committed in the next read, while 20 readers keep reading", async () => {
    const numbers = [
      await w.pull("one", { "one.txt": "1\n" }),
      await w.pull("two", { "two.txt": "2\n" }),
      await w.pull("three", { "three.txt": "3\n" }),
    ];
    await w.runner.drain();
    let reading = true;
    const readers = Array.from({ length: 20 }, async () => {
      while (reading) await shown();
    });
    try {
      const expected: number[] = [];
      for (const n of numbers) {
        await w.runner.request(REPO, { kind: "enqueue", number: n, queueRule: null, trigger: "API" });
        expected.push(n);
        expect(await shown()).toEqual(expected);
      }
      for (const n of numbers) {
        await w.runner.request(REPO, {
          kind: "engine",
          event: { type: "dequeue_requested", number: n, trigger: "API", source: "api" },
        });
        expected.shift();
        expect(await shown()).toEqual(expected);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });

  it("answers while every connection of the runner's pool is taken", async () => {
    const held = await Promise.all([runnerPool.connect(), runnerPool.connect()]);
    try {
      const answer = await Promise.race([
        shown(),
        new Promise((r) => setTimeout(() => r("no answer within 5 s"), 5000)),
      ]);
      expect(answer).toEqual([]);
    } finally {
      for (const c of held) c.release();
    }
  });
});
