/**
 * One look at the service during a replay (docs/replay.md "While it runs"): which pull requests
 * the forge shows merged, which are in the queue, which left it without merging (the log's
 * `action.queue.leave`), and which the queue refused (its reply comment "This pull request cannot
 * be queued" / "was not queued"). In the queue: the pull requests of GetMergeQueueStatus of the
 * base, and those whose last `action.queue.enter` / `leave` in the log is an enter (the log keeps
 * the answer right when the status cannot be read; the status sees an entry before the log does).
 */
import type { Batch } from "../../../gen/yardmaster/v1/queue_pb.js";
import type { ReplayClients } from "./clients.js";
import { readEvents } from "./log-reader.js";
import type { Observation } from "./tracker.js";

/** The bot's replies that mean "not taken into the queue" (services/engine/runner/replies.ts). */
const REFUSAL = /^This pull request (cannot be queued|was not queued)/;

/** Every pull request number of a batch and its sub-batches. */
function numbersOf(batch: Batch): number[] {
  return [...batch.pullRequests.map((p) => Number(p.number)), ...batch.subBatches.flatMap(numbersOf)];
}

/**
 * Reads the forge, the queue and the log once.
 * @param since the replay's start (the log window's start)
 * @param botLogin the login of Yardmaster's replies
 * @throws ConnectError from the service
 */
export async function observeService(clients: ReplayClients, base: string, since: Date, botLogin = "yardmaster[bot]"): Promise<Observation & { queueEmpty: boolean }> {
  const [pulls, status, sessions] = await Promise.all([
    clients.forge.listPullRequests({ ...clients.repo, state: "" }),
    clients.queue.getMergeQueueStatus({ ...clients.repo, branch: base }).catch(() => null),
    readEvents(clients, ["action.queue.enter", "action.queue.leave"], since),
  ]);
  const merged = new Set<number>();
  const refused = new Map<number, string>();
  for (const p of pulls.pullRequests) {
    if (p.state === "merged") merged.add(Number(p.number));
    const reply = p.comments.filter((c) => c.author === botLogin).at(-1);
    if (reply && REFUSAL.test(reply.body)) refused.set(Number(p.number), reply.body.split("\n")[0]!);
  }
  const inQueue = new Set(status === null ? [] : [...status.batches.flatMap(numbersOf), ...status.waitingPullRequests.map((p) => Number(p.number))]);
  const left = new Map<number, { code: string; reason: string }>();
  const entered = new Set<number>();
  for (const e of sessions) {
    if (e.pullRequest === null) continue;
    if (e.type === "action.queue.enter") {
      entered.add(e.pullRequest);
      left.delete(e.pullRequest);
      continue;
    }
    entered.delete(e.pullRequest);
    if (e.metadata.merged === true) left.delete(e.pullRequest);
    else left.set(e.pullRequest, { code: String(e.metadata.dequeue_code ?? "UNKNOWN"), reason: String(e.metadata.reason ?? "") });
  }
  for (const n of entered) inQueue.add(n);
  return { merged, inQueue, left, refused, queueEmpty: inQueue.size === 0 };
}
