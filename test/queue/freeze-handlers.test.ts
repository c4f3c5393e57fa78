/**
 * The scheduled freeze operations of QueueService (services/queue/freeze-handlers.ts,
 * docs/scheduled-freeze.md) over a real PostgreSQL database: what a freeze is checked against
 * before anything is written, the fields an update replaces, the scheduled_freeze.* events in the
 * outbox, and what the queue runner is told in the same transaction (its inbox, and a timer at a
 * freeze's start).
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import { ConnectError, createContextValues, type HandlerContext } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { principalKey } from "../../services/auth/index.js";
import { domainErrorToConnect } from "../../services/contracts/index.js";
import { freezeChangedInputs } from "../../services/main/queue-wiring.js";
import { freezeHandlers } from "../../services/queue/freeze-handlers.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

const NOW = Date.parse("2026-12-20T12:00:00Z");
const ACTOR = { type: "user" as const, id: 7, name: "ada" };
const REPO = { owner: "acme", repository: "widgets" };
let db: TestDatabase;
let handlers: ReturnType<typeof freezeHandlers>;

beforeAll(async () => {
  db = await freshDatabase();
  handlers = freezeHandlers({
    db: db.pool,
    eventsWritten: () => {},
    now: () => NOW,
    freezeChanged: (c, r, f) => freezeChangedInputs(c, r, f, NOW),
  });
});
afterAll(() => db?.drop());
beforeEach(async () => {
  await db.pool.query("TRUNCATE scheduled_freezes, event_outbox, queue_inbox, queue_timers");
});

function ctx(): HandlerContext {
  const values = createContextValues();
  values.set(principalKey, { kind: "admin", actor: ACTOR } as never);
  return { values } as HandlerContext;
}

const at = (iso: string) => timestampFromDate(new Date(iso));
const values = (xs: JsonValue[]) => xs.map((x) => fromJson(ValueSchema, x));

function createRequest(over: Record<string, unknown> = {}) {
  return {
    ...REPO,
    reason: "release 2.0",
    start: at("2026-12-24T18:00:00Z"),
    end: at("2026-12-27T08:00:00Z"),
    timezone: "Europe/Paris",
    matchingConditions: values(["base=main"]),
    excludeConditions: values(["label=hotfix"]),
    ...over,
  };
}

async function refusal(p: Promise<unknown>): Promise<{ code: number; field?: string; message: string }> {
  try {
    await p;
  } catch (e) {
    const violations = (e as { violations?: { field: string }[] }).violations;
    // A handler's refusal as the gateway answers it (contracts/domain-error.ts).
    const answered = e instanceof ConnectError ? e : domainErrorToConnect(e);
    return { code: answered?.code ?? -1, field: violations?.[0]?.field, message: (e as Error).message };
  }
  throw new Error("not refused");
}

const tables = async () => ({
  freezes: (await db.pool.query("SELECT count(*)::int AS n FROM scheduled_freezes")).rows[0].n,
  events: (await db.pool.query("SELECT type, metadata FROM event_outbox ORDER BY id")).rows.map((r) => ({
    type: r.type,
    metadata: JSON.parse(r.metadata),
  })),
  inbox: (await db.pool.query("SELECT input FROM queue_inbox ORDER BY id")).rows.map((r) => r.input),
  timers: (await db.pool.query("SELECT key, due_at FROM queue_timers")).rows.map((r) => [
    r.key,
    new Date(r.due_at).toISOString(),
  ]),
});

describe("creating a scheduled freeze", () => {
  it("stores it, logs scheduled_freeze.create with its attributes and actor, and tells the runner now and at its start", async () => {
    const made = await handlers.createScheduledFreeze(createRequest(), ctx());
    expect(made.active).toBe(false);
    const t = await tables();
    expect(t.freezes).toBe(1);
    expect(t.events).toEqual([
      {
        type: "scheduled_freeze.create",
        metadata: {
          scheduled_freeze_attributes: {
            reason: "release 2.0",
            start: "2026-12-24T18:00:00.000Z",
            end: "2026-12-27T08:00:00.000Z",
            timezone: "Europe/Paris",
            matching_conditions: ["base=main"],
            exclude_conditions: ["label=hotfix"],
          },
          created_by: ACTOR,
          created_at: expect.any(String),
          created_by_staff: false,
        },
      },
    ]);
    expect(t.inbox).toEqual([{ kind: "freezes_changed" }]);
    expect(t.timers).toEqual([[`freeze-start/${made.id}`, "2026-12-24T18:00:00.000Z"]]);
    const listed = await handlers.listScheduledFreezes(REPO);
    expect(listed.scheduledFreezes.map((f) => [f.id, f.attributes?.reason])).toEqual([[made.id, "release 2.0"]]);
  });

  it("is active at once when it began already, open-ended without an end, in UTC without a time zone; no start timer", async () => {
    const made = await handlers.createScheduledFreeze(
      createRequest({
        start: at("2026-12-20T11:00:00Z"),
        end: undefined,
        timezone: "",
        matchingConditions: [],
        excludeConditions: [],
      }),
      ctx(),
    );
    expect(made.active).toBe(true);
    expect(made.attributes?.end).toBeUndefined();
    expect(made.attributes?.timezone).toBe("UTC");
    expect((await tables()).timers).toEqual([]);
  });

  it.each([
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone", /unknown time zone "Mars\/Olympus"/],
    ["an end before the start", { end: at("2026-12-24T17:00:00Z") }, "end", /must be after start/],
    [
      "a condition that does not parse",
      { matchingConditions: values(["base=main", { or: ["label=", "author=ada"] }]) },
      "matching_conditions[1].or[0]",
      /label/,
    ],
    [
      "a bad exclude condition",
      { excludeConditions: values(["no-such-attribute=1"]) },
      "exclude_conditions[0]",
      /no-such-attribute/,
    ],
  ])("refuses %s with 422 naming the field, and writes nothing", async (_what, over, field, message) => {
    const r = await refusal(handlers.createScheduledFreeze(createRequest(over), ctx()));
    expect(r).toMatchObject({ code: 3, field });
    expect(r.message).toMatch(message);
    expect(await tables()).toEqual({ freezes: 0, events: [], inbox: [], timers: [] });
  });
});

describe("changing and deleting a scheduled freeze", () => {
  it("replaces only the fields given, logs the attributes before and after, and moves the start timer", async () => {
    const made = await handlers.createScheduledFreeze(createRequest(), ctx());
    await db.pool.query("TRUNCATE event_outbox, queue_inbox");
    const changed = await handlers.updateScheduledFreeze(
      { ...REPO, id: made.id, start: at("2026-12-23T18:00:00Z"), removeEnd: true, excludeConditions: { items: [] } },
      ctx(),
    );
    expect(changed.attributes).toMatchObject({ reason: "release 2.0", timezone: "Europe/Paris" });
    expect(changed.attributes?.end).toBeUndefined();
    const t = await tables();
    expect(t.events.map((e) => e.type)).toEqual(["scheduled_freeze.update"]);
    expect(t.events[0]!.metadata).toMatchObject({
      scheduled_freeze_attributes_before: {
        start: "2026-12-24T18:00:00.000Z",
        end: "2026-12-27T08:00:00.000Z",
        exclude_conditions: ["label=hotfix"],
      },
      scheduled_freeze_attributes_after: { start: "2026-12-23T18:00:00.000Z", end: null, exclude_conditions: [] },
      updated_by: ACTOR,
      updated_at: "2026-12-20T12:00:00.000Z",
      updated_by_staff: false,
    });
    expect(t.inbox).toEqual([{ kind: "freezes_changed" }]);
    expect(t.timers).toEqual([[`freeze-start/${made.id}`, "2026-12-23T18:00:00.000Z"]]);
  });

  it("checks the result as a whole: a new start after the kept end is refused and nothing changes", async () => {
    const made = await handlers.createScheduledFreeze(createRequest(), ctx());
    const r = await refusal(
      handlers.updateScheduledFreeze(
        { ...REPO, id: made.id, start: at("2026-12-28T00:00:00Z"), removeEnd: false },
        ctx(),
      ),
    );
    expect(r).toMatchObject({ code: 3, field: "end" });
    const refused = await refusal(
      handlers.updateScheduledFreeze({ ...REPO, id: made.id, end: at("2026-12-29T00:00:00Z"), removeEnd: true }, ctx()),
    );
    expect(refused).toMatchObject({ code: 3, field: "remove_end" });
    const [kept] = (await handlers.listScheduledFreezes(REPO)).scheduledFreezes;
    expect(kept!.attributes?.start).toEqual(at("2026-12-24T18:00:00Z"));
    expect((await tables()).events.map((e) => e.type)).toEqual(["scheduled_freeze.create"]);
  });

  it("deletes it with scheduled_freeze.delete and its reason, and removes its start timer; an unknown id is 404", async () => {
    const made = await handlers.createScheduledFreeze(createRequest(), ctx());
    await handlers.deleteScheduledFreeze({ ...REPO, id: made.id, reason: "release shipped early" }, ctx());
    const t = await tables();
    expect(t.freezes).toBe(0);
    expect(t.events.at(-1)).toMatchObject({
      type: "scheduled_freeze.delete",
      metadata: {
        reason: "release shipped early",
        deleted_by: ACTOR,
        scheduled_freeze_attributes: { reason: "release 2.0" },
      },
    });
    expect(t.timers).toEqual([]);
    expect(await refusal(handlers.deleteScheduledFreeze({ ...REPO, id: made.id, reason: "" }, ctx()))).toMatchObject({
      code: 5,
    });
    expect(
      await refusal(handlers.updateScheduledFreeze({ ...REPO, id: made.id, removeEnd: false }, ctx())),
    ).toMatchObject({ code: 5 });
  });

  it("keeps each repository's freezes apart", async () => {
    const made = await handlers.createScheduledFreeze(createRequest(), ctx());
    expect((await handlers.listScheduledFreezes({ owner: "acme", repository: "other" })).scheduledFreezes).toEqual([]);
    expect(
      await refusal(
        handlers.deleteScheduledFreeze({ owner: "acme", repository: "other", id: made.id, reason: "" }, ctx()),
      ),
    ).toMatchObject({ code: 5 });
  });
});
