/**
 * One look at the service during a replay (docs/replay.md "While it runs"): which pull requests
 * merged and which left the queue without merging (the log's `action.queue.enter` / `leave`:
 * the last of a pull request's events decides), which are in the queue (GetMergeQueueStatus of
 * the base, plus those whose last log event is an enter: the status sees an entry first, the log
 * answers when the status cannot be read), and, for the pull requests opened but seen nowhere
 * yet, what the forge says: merged, or refused by the queue (its reply comment "This pull request
 * cannot be queued" / "was not queued"). Only those few are read from the forge, so polling
 * costs the service little while many pull requests are open.
 */
import type { Batch } from "../../gen/yardmaster/v1/queue_pb.js";
import type { ReplayClients } from "./clients.js";
import { readEvents } from "./log-reader.js";
import type { Observation } from "./tracker.js";

/** The bot's replies that mean "not taken into the queue" (services/runner/replies.ts). */
const REFUSAL = /^This pull request (cannot be queued|was not queued)/;

/** Every pull request number of a batch and its sub-batches. */
function numbersOf(batch: Batch): number[] {
  return [...batch.pullRequests.map((p) => Number(p.number)), ...batch.subBatches.flatMap(numbersOf)];
}

/**
 * Reads the queue and the log once, and the forge for `unknown` pull requests not seen there.
 * @param since the replay's start (the log window's start)
 * @param unknown numbers opened whose state is not known yet
 * @param botLogin the login of Yardmaster's replies
 * @throws ConnectError from the service
 */
export async function observeService(
  clients: ReplayClients,
  base: string,
  since: Date,
  unknown: readonly number[],
  botLogin = "yardmaster[bot]",
): Promise<Observation & { queueEmpty: boolean }> {
  const [status, sessions] = await Promise.all([
    clients.queue.getMergeQueueStatus({ ...clients.repo, branch: base }).catch(() => null),
    readEvents(clients, ["action.queue.enter", "action.queue.leave"], since),
  ]);
  const inQueue = new Set(
    status === null
      ? []
      : [...status.batches.flatMap(numbersOf), ...status.waitingPullRequests.map((p) => Number(p.number))],
  );
  const merged = new Set<number>();
  const left = new Map<number, { code: string; reason: string }>();
  const entered = new Set<number>();
  for (const e of sessions) {
    const n = e.pullRequest;
    if (n === null) continue;
    entered.delete(n);
    merged.delete(n);
    left.delete(n);
    if (e.type === "action.queue.enter") entered.add(n);
    else if (e.metadata.merged === true) merged.add(n);
    else left.set(n, { code: String(e.metadata.dequeue_code ?? "UNKNOWN"), reason: String(e.metadata.reason ?? "") });
  }
  for (const n of entered) inQueue.add(n);
  const refused = new Map<number, string>();
  const unseen = unknown.filter((n) => !inQueue.has(n) && !merged.has(n) && !left.has(n));
  for (const n of unseen) {
    const pull = (await clients.forge.getPullRequest({ ...clients.repo, number: BigInt(n) })).pullRequest!;
    if (pull.state === "merged") merged.add(n);
    const reply = pull.comments.filter((c) => c.author === botLogin).at(-1);
    if (reply && REFUSAL.test(reply.body)) refused.set(n, reply.body.split("\n")[0]!);
  }
  return { merged, inQueue, left, refused, queueEmpty: inQueue.size === 0 };
}
