/**
 * The scheduled freeze operations of QueueService (internal RPCs, no REST route;
 * docs/scheduled-freeze.md): list, create, update (the fields given replace the freeze's), delete.
 * A freeze is checked as a whole before anything is written: a known IANA time zone (empty =
 * "UTC"), an end after the start, conditions that parse (the configuration file's grammar,
 * docs/conditions.md); each refusal is INVALID_ARGUMENT (422) naming the field. An unknown id is
 * NOT_FOUND (404). Every change writes its log event and tells the queue engine in one transaction
 * (store/scheduled-freezes.ts).
 */
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, ValueSchema, type Timestamp, type Value } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import { FreezeAttrsSchema } from "../../gen/yardmaster/v1/events_pb.js";
import { ScheduledFreezeSchema, type ScheduledFreeze } from "../../gen/yardmaster/v1/queue_pb.js";
import { childPath, DomainError, invalidField } from "../contracts/index.js";
import { parseConditionList } from "../config/index.js";
import {
  createFreeze,
  deleteFreeze,
  listFreezes,
  updateFreeze,
  type FreezeAttributes,
  type FreezeRow,
  type Pool,
  type PoolClient,
} from "../store/index.js";
import { actorOf, fullName, type RepoRequest } from "./caller.js";
import { freezeCreateEvent, freezeDeleteEvent, freezeUpdateEvent } from "./freeze-events.js";

/** What the freeze operations need: the pool, the outbox kick, the engine hooks and the clock. */
export interface FreezeDeps {
  db: Pool;
  /** Called after a commit that wrote log events (kicks the outbox relay). */
  eventsWritten: () => void;
  /**
   * Records the change for the queue engine in the freeze's own transaction (the runner's inbox
   * and the timer at the freeze's start; `deleted` for a deletion).
   */
  freezeChanged?: (
    client: PoolClient,
    repository: string,
    freeze: { id: string; start: Date; deleted: boolean },
  ) => Promise<void>;
  /** Called after the commit (wakes the runner). */
  freezeCommitted?: (repository: string) => void;
  /** Clock, epoch ms UTC (default Date.now): `active` in answers. */
  now?: () => number;
}

const notFound = (repo: string, id: string) => new DomainError("not_found", `${repo} has no scheduled freeze ${id}`);

/** A condition list as JSON, refused with the first problem's path when it does not parse. */
function conditionsOf(field: string, values: readonly Value[]): unknown[] {
  const json = values.map((v) => toJson(ValueSchema, v));
  const { issues } = parseConditionList(json);
  if (issues.length > 0) throw invalidField(issues[0]!.path.reduce<string>(childPath, field), issues[0]!.message);
  return json;
}

function validTimezone(zone: string): string {
  const name = zone === "" ? "UTC" : zone;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
  } catch {
    throw invalidField("timezone", `unknown time zone "${zone}" (an IANA name such as Europe/Paris)`);
  }
  return name;
}

function checked(a: FreezeAttributes): FreezeAttributes {
  if (a.end !== null && a.end.getTime() <= a.start.getTime()) throw invalidField("end", "must be after start");
  return { ...a, timezone: validTimezone(a.timezone) };
}

/** The message of a stored freeze; `active` at `now` (epoch ms). */
export function freezeMessage(f: FreezeRow, now: number): ScheduledFreeze {
  const json = (xs: unknown[]) => xs.map((x) => fromJson(ValueSchema, x as JsonValue));
  return create(ScheduledFreezeSchema, {
    id: f.id,
    attributes: create(FreezeAttrsSchema, {
      reason: f.reason,
      start: timestampFromDate(f.start),
      end: f.end ? timestampFromDate(f.end) : undefined,
      timezone: f.timezone,
      matchingConditions: json(f.matchingConditions),
      excludeConditions: json(f.excludeConditions),
    }),
    createdAt: timestampFromDate(f.createdAt),
    active: f.start.getTime() <= now && (f.end === null || now < f.end.getTime()),
  });
}

interface CreateRequest extends RepoRequest {
  reason: string;
  start?: Timestamp;
  end?: Timestamp;
  timezone: string;
  matchingConditions: Value[];
  excludeConditions: Value[];
}
interface UpdateRequest extends RepoRequest {
  id: string;
  reason?: string;
  start?: Timestamp;
  end?: Timestamp;
  removeEnd: boolean;
  timezone?: string;
  matchingConditions?: { items: Value[] };
  excludeConditions?: { items: Value[] };
}
interface DeleteRequest extends RepoRequest {
  id: string;
  reason: string;
}

/** The QueueService methods of scheduled freezes (see the file header). */
export function freezeHandlers(deps: FreezeDeps) {
  const now = deps.now ?? Date.now;
  const changed = (repo: string, deleted: boolean) => (client: unknown, row: FreezeRow) =>
    deps.freezeChanged?.(client as PoolClient, repo, { id: row.id, start: row.start, deleted }) ?? Promise.resolve();
  const committed = (repo: string) => {
    deps.eventsWritten();
    deps.freezeCommitted?.(repo);
  };
  return {
    listScheduledFreezes: async (req: RepoRequest) => ({
      scheduledFreezes: (await listFreezes(deps.db, fullName(req))).map((f) => freezeMessage(f, now())),
    }),
    createScheduledFreeze: async (req: CreateRequest, ctx: HandlerContext) => {
      const repo = fullName(req);
      const actor = actorOf(ctx);
      if (!req.start) throw invalidField("start", "is required");
      const attributes = checked({
        reason: req.reason,
        start: timestampDate(req.start),
        end: req.end ? timestampDate(req.end) : null,
        timezone: req.timezone,
        matchingConditions: conditionsOf("matching_conditions", req.matchingConditions),
        excludeConditions: conditionsOf("exclude_conditions", req.excludeConditions),
      });
      const row = await createFreeze(
        deps.db,
        { ...attributes, repository: repo, createdBy: actor },
        (r) => freezeCreateEvent(repo, r, actor, r.createdAt),
        changed(repo, false),
      );
      committed(repo);
      return freezeMessage(row, now());
    },
    updateScheduledFreeze: async (req: UpdateRequest, ctx: HandlerContext) => {
      const repo = fullName(req);
      const actor = actorOf(ctx);
      if (req.removeEnd && req.end) throw invalidField("remove_end", "cannot be given together with end");
      const matching = req.matchingConditions
        ? conditionsOf("matching_conditions.items", req.matchingConditions.items)
        : null;
      const exclude = req.excludeConditions
        ? conditionsOf("exclude_conditions.items", req.excludeConditions.items)
        : null;
      const at = new Date(now());
      const result = await updateFreeze(
        deps.db,
        repo,
        req.id,
        (b) =>
          checked({
            reason: req.reason ?? b.reason,
            start: req.start ? timestampDate(req.start) : b.start,
            end: req.removeEnd ? null : req.end ? timestampDate(req.end) : b.end,
            timezone: req.timezone ?? b.timezone,
            matchingConditions: matching ?? b.matchingConditions,
            excludeConditions: exclude ?? b.excludeConditions,
          }),
        (b, a) => freezeUpdateEvent(repo, b, a, actor, at),
        changed(repo, false),
      );
      if (!result) throw notFound(repo, req.id);
      committed(repo);
      return freezeMessage(result.after, now());
    },
    deleteScheduledFreeze: async (req: DeleteRequest, ctx: HandlerContext) => {
      const repo = fullName(req);
      const actor = actorOf(ctx);
      const at = new Date(now());
      const removed = await deleteFreeze(
        deps.db,
        repo,
        req.id,
        (r) => freezeDeleteEvent(repo, r, req.reason, actor, at),
        changed(repo, true),
      );
      if (!removed) throw notFound(repo, req.id);
      committed(repo);
      return {};
    },
  };
}
