/**
 * One replay from start to report (docs/replay.md): read the history, plan, set up the repository
 * in the local forge, drive the steps with a progress bar (progress lines off a terminal), then read the run's log and the base's
 * final tree and build the report. The scratch workspace is removed at the end, whatever happens.
 */
import { setTimeout as delay } from "node:timers/promises";
import { connectReplayClients, type ReplayClients, type ServiceConnector } from "./clients.js";
import { driveReplay } from "./driver.js";
import { ReplayError } from "./errors.js";
import { readHistory } from "./history.js";
import { countEvents, readEvents } from "./log-reader.js";
import type { ReplayOptions } from "./options.js";
import { planReplay } from "./plan.js";
import { startProgress } from "./progress.js";
import { REPORT_EVENT_TYPES, summarizeReplay, type ReplayReport } from "./report.js";
import { replayDelays } from "./schedule.js";
import { prepareReplay } from "./setup.js";
import { ReplayTracker } from "./tracker.js";
import { createWorkspace } from "./workspace.js";

/**
 * Runs a replay against the running service `connect` reaches.
 * @returns the report (its `ok` says whether the tree matched where it must)
 * @throws ReplayError for bad input (naming the option) or a replay that did not finish;
 *   ConnectError when the service fails
 */
export async function runReplay(
  connect: ServiceConnector,
  options: ReplayOptions,
  progress: NodeJS.WriteStream = process.stderr,
): Promise<ReplayReport> {
  const history = await readHistory({ path: options.from, base: options.base, range: options.range });
  const plan = planReplay(history, options.limit);
  const tooLarge = [...options.breaks].filter((o) => o > plan.pulls.length);
  if (tooLarge.length > 0)
    throw new ReplayError(
      `--break: the replay has ${plan.pulls.length} pull requests; there is no pull request ${tooLarge.join(", ")}`,
    );
  const clients = await connectReplayClients(connect, options.repo);
  const ws = await createWorkspace(history.path);
  try {
    // The repository is new, so every event of it belongs to this replay; the minute of margin
    // covers a difference between this machine's clock and the service's.
    const since = new Date(Date.now() - 60_000);
    const started = Date.now();
    const prepared = await prepareReplay(clients, ws, {
      historyPath: history.path,
      base: options.base,
      plan,
      ciYml: options.ciYml,
      configYml: options.configYml,
      breaks: options.breaks,
      flaky: options.flaky,
    });
    const { delays, factor } = replayDelays(
      plan.steps.map((s) => s.arrivalAt),
      options.speed,
    );
    const tracker = new ReplayTracker(
      plan.pulls.map((p) => p.order),
      plan.pushes.length,
    );
    // A bar on a terminal, progress lines otherwise (progress.ts).
    const bar = startProgress(progress, plan.pulls.length + plan.pushes.length);
    const update = () => bar.update(tracker.counts());
    try {
      await driveReplay(clients, {
        plan,
        prepared,
        ws,
        base: options.base,
        delays,
        tracker,
        since,
        timeoutMs: options.timeoutMs,
        onUpdate: update,
      });
    } finally {
      bar.stop();
    }
    const wallSeconds = (Date.now() - started) / 1000;
    const left = [...tracker.pulls.values()].flatMap((s) =>
      s.kind === "merged" || s.kind === "dequeued" ? [s.number] : [],
    );
    await waitForLeaveEvents(clients, left, since);
    const until = new Date(Date.now() + 1);
    const [events, aggregated, branch] = await Promise.all([
      readEvents(clients, REPORT_EVENT_TYPES, since, until),
      countEvents(clients, REPORT_EVENT_TYPES, since, until),
      clients.forge.getBranch({ ...clients.repo, branch: options.base }),
    ]);
    return summarizeReplay({
      repository: `${options.repo.owner}/${options.repo.repository}`,
      plan,
      tracker,
      breaks: options.breaks,
      flaky: options.flaky,
      events,
      aggregated: aggregated.byType,
      tree: { expected: prepared.expectedTree, actual: branch.treeSha },
      wallSeconds,
      speed: factor,
    });
  } finally {
    await ws.dispose();
  }
}

/**
 * Waits (up to 30 s, polling every 250 ms) until the log holds an `action.queue.leave` for each of
 * `numbers`: the forge shows a merge as soon as it is made, the log a moment later (outbox relay).
 */
async function waitForLeaveEvents(clients: ReplayClients, numbers: number[], since: Date): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const seen = new Set((await readEvents(clients, ["action.queue.leave"], since)).map((e) => e.pullRequest));
    if (numbers.every((n) => seen.has(n))) return;
    await delay(250);
  }
}
