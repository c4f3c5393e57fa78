/**
 * `yardmaster events import FILE.ndjson` (docs/activity-log.md "Ingest"): records the events of a
 * file, one EventInput per line (activity-log/event-lines.ts), through the running service's
 * AppendEvents RPC, with a progress bar on a terminal.
 * - The whole file is checked first; any bad line is reported with its line number and field,
 *   and nothing is sent (exit status 1).
 * - Events go in chunks of 1,000, each with the idempotency key
 *   `events-import/v1/<SHA-256 of the file's lines>/<chunk index>`: running the same import again
 *   (after a failure half-way, or by mistake) writes nothing twice.
 * Blank lines are skipped (they still count for line numbers).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import readline from "node:readline";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { JsonObject } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { SingleBar, Presets } from "cli-progress";
import type { Command } from "commander";
import { ActivityLogService } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import type { EventInput } from "../../activity-log/index.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** Events per AppendEvents call. Fixed: the idempotency keys depend on it. */
export const IMPORT_CHUNK = 1000;
/** At most this many bad lines are printed. */
const MAX_REPORTED = 50;

async function* lines(file: string): AsyncGenerator<{ n: number; text: string }> {
  const rl = readline.createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    if (text.trim() !== "") yield { n, text };
  }
}

/**
 * The activity log's line parser, loaded when a command needs it: importing the activity log
 * costs every CLI start a noticeable fraction of a second, and only `events import` uses it.
 */
const eventLines = () => import("../../activity-log/index.js");

/** Pass 1: every line checked, the file's digest, and the number of events. */
async function checkFile(file: string): Promise<{ digest: string; count: number; problems: string[] }> {
  const hash = createHash("sha256");
  const problems: string[] = [];
  const { parseEventLine } = await eventLines();
  let count = 0;
  for await (const { n, text } of lines(file)) {
    hash.update(text).update("\n");
    const parsed = parseEventLine(text);
    if (parsed.event) count++;
    else for (const v of parsed.violations) problems.push(`line ${n}: ${v.field}: ${v.description}`);
  }
  return { digest: hash.digest("hex"), count, problems };
}

const toRequestEvent = (e: EventInput) => ({
  type: e.type,
  repository: e.repository,
  pullRequest: e.pullRequest === null ? undefined : BigInt(e.pullRequest),
  baseRef: e.baseRef ?? undefined,
  trigger: e.trigger,
  receivedAt: e.receivedAt ? timestampFromDate(e.receivedAt) : undefined,
  metadata: e.metadata as JsonObject,
});

/** `events import`: see the module comment. */
async function importEvents(file: string): Promise<void> {
  await access(file).catch(() => {
    throw new Error(`cannot read ${file}`);
  });
  const { digest, count, problems } = await checkFile(file);
  if (problems.length) {
    for (const p of problems.slice(0, MAX_REPORTED)) process.stderr.write(`${file}: ${p}\n`);
    const more = problems.length > MAX_REPORTED ? ` (${problems.length - MAX_REPORTED} more not shown)` : "";
    throw new Error(`${problems.length} problem(s) in ${file}${more}; nothing was imported`);
  }
  const client = await serviceClient(ActivityLogService, readSettings());
  const bar = new SingleBar(
    { stream: process.stderr, format: "importing |{bar}| {value}/{total} events", hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(count, 0);
  let written = 0;
  let replayed = 0;
  let chunk: { n: number; event: EventInput }[] = [];
  let index = 0;
  const send = async () => {
    const key = `events-import/v1/${digest}/${index}`;
    try {
      const res = await client.appendEvents({ idempotencyKey: key, events: chunk.map((c) => toRequestEvent(c.event)) });
      if (res.replayed) replayed += chunk.length;
      else written += chunk.length;
    } catch (e) {
      bar.stop();
      const m = e instanceof ConnectError ? /^events\[(\d+)\]\.?(.*)$/.exec(e.rawMessage) : null;
      if (m)
        throw new Error(
          `line ${chunk[Number(m[1])].n}: ${m[2]} (refused by the service; ${written + replayed} events before it are recorded)`,
        );
      throw e;
    }
    bar.increment(chunk.length);
    chunk = [];
    index++;
  };
  const { parseEventLine } = await eventLines();
  for await (const { n, text } of lines(file)) {
    const { event } = parseEventLine(text);
    if (!event) throw new Error(`${file} changed during the import (line ${n} is no longer valid); run it again`);
    chunk.push({ n, event });
    if (chunk.length === IMPORT_CHUNK) await send();
  }
  if (chunk.length) await send();
  bar.stop();
  out(`imported ${count} events from ${file}: ${written} written, ${replayed} already imported before`);
}

/** Registers `yardmaster events import`. */
export function registerEvents(program: Command): void {
  const events = program.command("events").description("the activity log's events (admin key required)");
  events
    .command("import <file>")
    .description("record the events of an NDJSON file (one AppendEvents EventInput per line); safe to run again")
    .action(importEvents);
}
