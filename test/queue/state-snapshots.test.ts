/**
 * The QueueService's snapshots of the committed queue state (services/queue/state-snapshots.ts):
 * a read never answers with a state older than the last commit before it, even when a slow read
 * of the old state is still on its way; a state edited by hand in PostgreSQL (no version bump)
 * shows too; a snapshot cannot be changed by a reader.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineState } from "../../services/engine/index.js";
import { queueStateSnapshots } from "../../services/queue/state-snapshots.js";
import { saveQueueState, type Pool } from "../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db?.drop());

const state = (mark: string) => ({ repository: "acme/snap", mark, trains: [] }) as unknown as EngineState;
const save = (mark: string) => saveQueueState(db.pool as never, "acme/snap", state(mark), false);
const mark = (s: EngineState | null) => (s as unknown as { mark: string } | null)?.mark;

/** The pool, with every answer delivered `delayMs` after PostgreSQL gave it. */
function slowAnswers(delayMs: number): Pool {
  return {
    query: async (...args: unknown[]) => {
      const res = await (db.pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
      await new Promise((r) => setTimeout(r, delayMs));
      return res;
    },
  } as unknown as Pool;
}

describe("queue state snapshots", () => {
  it("answer a read made after a commit with the committed state, though an older read is still on its way", async () => {
    await save("first");
    const reads = queueStateSnapshots(slowAnswers(300));
    const before = reads.current("acme/snap");
    await new Promise((r) => setTimeout(r, 100));
    await save("second");
    const after = reads.current("acme/snap");
    expect(mark(await before)).toBe("first");
    expect(mark(await after)).toBe("second");
  });

  it("show a state edited by hand, and nothing for a repository never seen", async () => {
    const reads = queueStateSnapshots(db.pool);
    await save("third");
    expect(mark(await reads.current("acme/snap"))).toBe("third");
    await db.pool.query(
      `UPDATE queue_states SET state = jsonb_set(state, '{mark}', '"by hand"') WHERE repository = 'acme/snap'`,
    );
    expect(mark(await reads.current("acme/snap"))).toBe("by hand");
    expect(await reads.current("acme/never")).toBeNull();
  });

  it("cannot be changed by a reader, so the next reader gets the committed state", async () => {
    const reads = queueStateSnapshots(db.pool);
    const s = await reads.current("acme/snap");
    expect(() => ((s as unknown as { mark: string }).mark = "changed")).toThrow(TypeError);
    expect(mark(await reads.current("acme/snap"))).toBe("by hand");
  });
});
