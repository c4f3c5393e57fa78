/**
 * `yardmaster replay --from PATH --repo owner/name [...]` (docs/replay.md): replays a git
 * repository's history as pull requests through the running service's local forge and merge
 * queue, and prints the report (text, or one JSON object with `--json`). Exit status 0 when the
 * replay finished and, unless pull requests were broken on purpose, the base's final tree equals
 * the history's tree at B; 1 otherwise, with a one-line message after the report.
 */
import type { Command } from "commander";
import type { RawReplayOptions } from "../../replay/index.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** `replay`: see the module comment. */
async function replay(raw: RawReplayOptions): Promise<void> {
  // Loaded here, not at the top: importing the replay costs every CLI start about 0.2 s.
  const { formatReport, parseReplayOptions, runReplay } = await import("../../replay/index.js");
  const options = await parseReplayOptions(raw);
  const settings = readSettings();
  const report = await runReplay((service) => serviceClient(service, settings), options);
  out(options.json ? JSON.stringify(report) : formatReport(report));
  if (!report.ok)
    throw new Error(
      `the base's final tree ${report.tree.actual} is not the original history's tree ${report.tree.expected}, and nothing was broken on purpose`,
    );
}

/** Registers `yardmaster replay`. */
export function registerReplay(program: Command): void {
  program
    .command("replay")
    .description(
      "replay a git repository's history as pull requests through the local forge and the merge queue, then report (docs/replay.md)",
    )
    .requiredOption("--from <path>", "the git repository whose history is replayed")
    .requiredOption("--repo <owner/name>", "the local forge repository to create for the replay (must not exist)")
    .option("--base <branch>", "the branch whose first-parent history is replayed", "main")
    .option(
      "--range <A..B>",
      "replay what landed after A up to B (default: everything after the first commit of --base)",
    )
    .option("--limit <n>", "keep the first n changes after A")
    .option("--ci <command>", 'the CI check run on every queue check (bash; default "true", which exits 0)')
    .option(
      "--config <file>",
      "the .yardmaster.yml of the replay (default: batches of 2-4, 3 s wait, 2 parallel checks; docs/replay.md)",
    )
    .option(
      "--speed <x>",
      'replay x times faster than the original times, or "auto" (arrivals about 2 s apart on average)',
      "auto",
    )
    .option("--break <n,m>", "make these pull requests (replay order, from 1) fail CI, to exercise bisection")
    .option(
      "--flaky <rate>",
      "make the CI fail spuriously at this rate (0-1, per run) on named flaky tests, with JUnit reports for CI Insights (docs/replay.md)",
    )
    .option(
      "--flaky-tests <names>",
      "the flaky tests CI Insights knows as flaky (comma-separated; default replay.flaky_network,replay.flaky_timing)",
    )
    .option(
      "--quarantined-tests <names>",
      "flaky tests quarantined on the base branch (comma-separated; default replay.flaky_clock)",
    )
    .option("--timeout <seconds>", "give up when the queue is not done after this long", "1800")
    .option("--json", "print the report as one JSON object", false)
    .action(replay);
}
