/**
 * The scheduled freezes on REST in the flat shape of Mergify's `/scheduled_freeze` resource, so
 * that `mergify freeze list|create|update|delete` works against Yardmaster (docs/mergify-cli.md;
 * crates/mergify-freeze/src/*.rs of github.com/Mergifyio/mergify-cli): `{id, reason, start, end,
 * timezone, matching_conditions, exclude_conditions}` with `start` and `end` wall-clock times in
 * `timezone` (wall-clock-times.ts). Each operation is the nested one of freeze-handlers.ts (same
 * checks, events and engine hooks); only the shape changes here.
 */
import { fromJson, toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, ValueSchema, type ListValue, type Value } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { FlatScheduledFreeze, ScheduledFreeze } from "../../gen/yardmaster/v1/queue_pb.js";
import { DomainError, invalidField } from "../contracts/index.js";
import { fullName, type RepoRequest } from "./caller.js";
import type { freezeHandlers } from "./freeze-handlers.js";
import { formatWallClock, parseWallClock, zoneOf } from "./wall-clock-times.js";

type Nested = ReturnType<typeof freezeHandlers>;
type FlatInit = Omit<FlatScheduledFreeze, "$typeName" | "$unknown">;

/** A condition as the flat shape shows it: a string as is, an and/or/not object as its JSON text. */
const conditionText = (v: Value): string => {
  const json = toJson(ValueSchema, v);
  return typeof json === "string" ? json : JSON.stringify(json);
};

const stringValue = (s: string): Value => fromJson(ValueSchema, s);

/** A stored freeze (nested message) in the flat shape. */
export function flatFreeze(f: ScheduledFreeze): FlatInit {
  const a = f.attributes!;
  return {
    id: f.id,
    reason: a.reason,
    start: formatWallClock(timestampDate(a.start!), a.timezone),
    end: a.end ? formatWallClock(timestampDate(a.end), a.timezone) : undefined,
    timezone: a.timezone,
    matchingConditions: a.matchingConditions.map(conditionText),
    excludeConditions: a.excludeConditions.map(conditionText),
    active: f.active,
  };
}

/** The strings of a present condition list. @throws InvalidArgumentError naming an item that is not a string */
function conditionStrings(list: ListValue, field: string): Value[] {
  return list.values.map((v, i) => {
    if (v.kind.case !== "stringValue") throw invalidField(`${field}[${i}]`, "must be a condition string");
    return v;
  });
}

interface CreateFlat extends RepoRequest {
  reason: string;
  start?: string;
  end?: string;
  timezone: string;
  matchingConditions: string[];
  excludeConditions: string[];
}
interface UpdateFlat extends RepoRequest {
  id: string;
  reason?: string;
  start?: string;
  end?: string;
  timezone?: string;
  matchingConditions?: ListValue;
  excludeConditions?: ListValue;
}

/**
 * The flat freeze methods of QueueService over the nested ones; `now` is the clock (epoch ms UTC),
 * the start of a freeze created with `start` null.
 */
export function flatFreezeHandlers(nested: Nested, now: () => number) {
  const find = async (req: RepoRequest & { id: string }) => {
    const found = (await nested.listScheduledFreezes(req)).scheduledFreezes.find((f) => f.id === req.id);
    if (!found) throw new DomainError("not_found", `${fullName(req)} has no scheduled freeze ${req.id}`);
    return found;
  };
  return {
    listFlatScheduledFreezes: async (req: RepoRequest) => ({
      scheduledFreezes: (await nested.listScheduledFreezes(req)).scheduledFreezes.map(flatFreeze),
    }),
    createFlatScheduledFreeze: async (req: CreateFlat, ctx: HandlerContext) => {
      const zone = zoneOf(req.timezone);
      const start = req.start === undefined ? new Date(now()) : parseWallClock(req.start, zone, "start");
      const end = req.end === undefined ? undefined : parseWallClock(req.end, zone, "end");
      const created = await nested.createScheduledFreeze(
        {
          owner: req.owner,
          repository: req.repository,
          reason: req.reason,
          start: timestampFromDate(start),
          end: end && timestampFromDate(end),
          timezone: zone,
          matchingConditions: req.matchingConditions.map(stringValue),
          excludeConditions: req.excludeConditions.map(stringValue),
        },
        ctx,
      );
      return flatFreeze(created);
    },
    updateFlatScheduledFreeze: async (req: UpdateFlat, ctx: HandlerContext) => {
      const current = (await find(req)).attributes!;
      const zone = req.timezone === undefined ? current.timezone : zoneOf(req.timezone);
      // The wall-clock times shown are kept when only the time zone changes.
      const at = (given: string | undefined, stored: typeof current.start, field: string) => {
        if (given !== undefined) return timestampFromDate(parseWallClock(given, zone, field));
        if (zone === current.timezone || !stored) return undefined;
        return timestampFromDate(parseWallClock(formatWallClock(timestampDate(stored), current.timezone), zone, field));
      };
      const updated = await nested.updateScheduledFreeze(
        {
          owner: req.owner,
          repository: req.repository,
          id: req.id,
          reason: req.reason,
          start: at(req.start, current.start, "start"),
          end: at(req.end, current.end, "end"),
          removeEnd: false,
          timezone: zone === current.timezone ? undefined : zone,
          matchingConditions: req.matchingConditions && {
            items: conditionStrings(req.matchingConditions, "matching_conditions"),
          },
          excludeConditions: req.excludeConditions && {
            items: conditionStrings(req.excludeConditions, "exclude_conditions"),
          },
        },
        ctx,
      );
      return flatFreeze(updated);
    },
    deleteFlatScheduledFreeze: async (req: RepoRequest & { id: string; deleteReason: string }, ctx: HandlerContext) =>
      nested.deleteScheduledFreeze(
        { owner: req.owner, repository: req.repository, id: req.id, reason: req.deleteReason },
        ctx,
      ),
  };
}
