/**
 * `yardmaster freeze list|create|update|delete owner/name`: scheduled freezes of a repository
 * (docs/scheduled-freeze.md), through QueueService's internal freeze RPCs on the running service
 * (admin key). Times are RFC 3339 with a UTC offset ("2026-12-24T18:00:00+01:00", "...Z");
 * conditions are condition strings (the RPCs also take and/or/not objects).
 */
import { InvalidArgumentError, type Command } from "commander";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, ValueSchema, type Timestamp } from "@bufbuild/protobuf/wkt";
import { QueueService, type ScheduledFreeze } from "../../../gen/yardmaster/v1/queue_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";
import { parseRepoArgument } from "./repo.js";

type Repo = { owner: string; repository: string };

const WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/**
 * An instant option.
 * @throws InvalidArgumentError (a usage error) unless it is RFC 3339 with a UTC offset
 */
export function parseInstant(value: string): Timestamp {
  const ms = Date.parse(value);
  if (!WITH_OFFSET.test(value) || Number.isNaN(ms))
    throw new InvalidArgumentError(`"${value}" must be a date-time with a UTC offset, such as 2026-12-24T18:00:00Z`);
  return timestampFromDate(new Date(ms));
}

const collect = (value: string, previous: string[]) => [...previous, value];
const conditions = (xs: string[]) => xs.map((x) => fromJson(ValueSchema, x));
const iso = (t: Timestamp | undefined) =>
  t === undefined
    ? "none"
    : timestampDate(t)
        .toISOString()
        .replace(/\.000Z$/, "Z");
const client = () => serviceClient(QueueService, readSettings());

/** The lines of one freeze in `freeze list` and after a change. */
export function renderFreeze(f: ScheduledFreeze): string[] {
  const a = f.attributes!;
  const list = (xs: typeof a.matchingConditions) =>
    xs.length === 0 ? "(none)" : xs.map((x) => JSON.stringify(toJson(ValueSchema, x))).join(", ");
  return [
    `${f.id}  ${f.active ? "active" : "inactive"}  ${a.reason}`,
    `  from ${iso(a.start)} to ${a.end === undefined ? "(until deleted)" : iso(a.end)} (${a.timezone})`,
    `  matching: ${list(a.matchingConditions)}`,
    `  excluded: ${list(a.excludeConditions)}`,
  ];
}

/** Adds `freeze list|create|update|delete` to the CLI. */
export function registerFreeze(program: Command): void {
  const freeze = program
    .command("freeze")
    .description("scheduled freezes: the queue keeps checking but does not merge what they match");
  freeze
    .command("list")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .description("the repository's scheduled freezes, by start")
    .action(async (repo: Repo) => {
      const res = await (await client()).listScheduledFreezes(repo);
      if (res.scheduledFreezes.length === 0) out("no scheduled freezes");
      for (const f of res.scheduledFreezes) for (const line of renderFreeze(f)) out(line);
    });
  freeze
    .command("create")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .requiredOption("--reason <text>", "why merging is frozen (1-255 characters)")
    .option("--start <date-time>", "when it begins (default: now)", parseInstant)
    .option("--end <date-time>", "when it ends (default: until deleted)", parseInstant)
    .option("--timezone <zone>", "IANA time zone it is shown in", "UTC")
    .option(
      "--match <condition>",
      "a condition the frozen pull requests meet (repeatable; none: every pull request)",
      collect,
      [],
    )
    .option(
      "--exclude <condition>",
      "a condition that lets a pull request through (repeatable; all must hold)",
      collect,
      [],
    )
    .description("create a scheduled freeze")
    .action(
      async (
        repo: Repo,
        o: { reason: string; start?: Timestamp; end?: Timestamp; timezone: string; match: string[]; exclude: string[] },
      ) => {
        const f = await (await client()).createScheduledFreeze({
          ...repo,
          reason: o.reason,
          start: o.start ?? timestampFromDate(new Date()),
          end: o.end,
          timezone: o.timezone,
          matchingConditions: conditions(o.match),
          excludeConditions: conditions(o.exclude),
        });
        for (const line of renderFreeze(f)) out(line);
      },
    );
  freeze
    .command("update")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<id>", "the freeze (as `freeze list` shows it)")
    .option("--reason <text>", "a new reason")
    .option("--start <date-time>", "a new start", parseInstant)
    .option("--end <date-time>", "a new end", parseInstant)
    .option("--no-end", "last until deleted")
    .option("--timezone <zone>", "a new time zone")
    .option("--match <condition>", "replace the matching conditions (repeatable)", collect)
    .option("--exclude <condition>", "replace the exclude conditions (repeatable)", collect)
    .description("change a scheduled freeze: the options given replace its values")
    .action(
      async (
        repo: Repo,
        id: string,
        o: {
          reason?: string;
          start?: Timestamp;
          end?: Timestamp | false;
          timezone?: string;
          match?: string[];
          exclude?: string[];
        },
      ) => {
        const f = await (await client()).updateScheduledFreeze({
          ...repo,
          id,
          reason: o.reason,
          start: o.start,
          end: o.end === false ? undefined : o.end,
          removeEnd: o.end === false,
          timezone: o.timezone,
          matchingConditions: o.match ? { items: conditions(o.match) } : undefined,
          excludeConditions: o.exclude ? { items: conditions(o.exclude) } : undefined,
        });
        for (const line of renderFreeze(f)) out(line);
      },
    );
  freeze
    .command("delete")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<id>", "the freeze")
    .option("--reason <text>", "why it is deleted", "")
    .description("delete a scheduled freeze: what it held merges")
    .action(async (repo: Repo, id: string, o: { reason: string }) => {
      await (await client()).deleteScheduledFreeze({ ...repo, id, reason: o.reason });
      out(`scheduled freeze ${id} deleted`);
    });
}
