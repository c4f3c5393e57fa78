/**
 * Driving a replay through the running service (docs/replay.md "While it runs"):
 * - at each step's time (schedule.ts) a pull request's head is pushed to `replay/pull-<order>`,
 *   the pull request opened by its original author and queued with the comment
 *   `@yardmaster queue`, once the pull request before it has entered the queue (or left it), so
 *   they enter in replay order: a head that contains the one before (a linear history, a branch
 *   forked after an earlier merge) must not be checked, nor merged, ahead of it; an outside change is pushed to the base with PushBranch `merge`, once
 *   the pull requests that landed before it in the history have left the queue (it was made on
 *   top of them), without holding up the steps after it;
 * - every `pollMs` (default 1 s) the queue and the log are observed (observe.ts) and the tracker
 *   updated; the replay is over when every step is resolved and the queue is empty.
 * @throws ReplayError when it is not over within `timeoutMs`, naming what is still unresolved
 */
import { setTimeout as delay } from "node:timers/promises";
import { ConnectError } from "@connectrpc/connect";
import type { ReplayClients } from "./clients.js";
import { ReplayError } from "./errors.js";
import { observeService } from "./observe.js";
import type { PullStep, PushStep, ReplayPlan } from "./plan.js";
import type { PreparedReplay } from "./setup.js";
import type { ReplayTracker } from "./tracker.js";
import type { Workspace } from "./workspace.js";

/** Inputs of {@link driveReplay}. */
export interface DriveInput {
  plan: ReplayPlan;
  prepared: PreparedReplay;
  ws: Workspace;
  base: string;
  /** Delay of each step from the start, in milliseconds (same order as `plan.steps`). */
  delays: number[];
  tracker: ReplayTracker;
  /** When the replay started (the log window). */
  since: Date;
  pollMs?: number;
  timeoutMs: number;
  /** Called after every poll (the progress bar). */
  onUpdate?: () => void;
}

/** What the steps share while they run. */
interface Running extends DriveInput {
  /** Give up at this time, epoch milliseconds. */
  deadline: number;
}

/** Consecutive failed polls (about one a second) after which the replay stops with the last error. */
const MAX_POLL_FAILURES = 15;

/**
 * A GitHub-style login for a commit author: the e-mail's local part (else the name), letters and
 * digits kept, other runs turned into single hyphens, at most 39 characters; "replay-user" when
 * nothing is left.
 */
export function loginOf(name: string, email: string): string {
  const raw = (email.split("@")[0] || name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 39)
    .replace(/-+$/, "");
  return raw === "" ? "replay-user" : raw;
}

const messageOf = (e: unknown) => (e instanceof ConnectError ? e.rawMessage : (e as Error).message);

/**
 * Waits until the pull request before `order` is in the queue or resolved: GetQueuedPullRequest
 * answers it (every 100 ms), or the tracker (updated by the poller) resolves it; at most until
 * `deadline` (epoch ms), after which the replay is reported unfinished anyway.
 */
async function afterPrevious(
  clients: ReplayClients,
  tracker: ReplayTracker,
  order: number,
  deadline: number,
): Promise<void> {
  while (Date.now() < deadline) {
    const previous = tracker.pulls.get(order - 1);
    if (
      previous === undefined ||
      previous.kind === "pending" ||
      tracker.isResolved(order - 1) ||
      previous.kind === "queued"
    )
      return;
    if ("number" in previous) {
      const inQueue = await clients.queue
        .getQueuedPullRequest({ ...clients.repo, prNumber: BigInt(previous.number) })
        .then(
          () => true,
          () => false,
        );
      if (inQueue) return;
    }
    await delay(100);
  }
}

/** Opens and queues one pull request; a refusal resolves it as not opened. */
async function openPull(clients: ReplayClients, input: Running, pull: PullStep): Promise<void> {
  const branch = `replay/pull-${pull.order}`;
  const author = loginOf(pull.authorName, pull.authorEmail);
  try {
    await clients.forge.pushBranch({
      ...clients.repo,
      fromPath: input.ws.path,
      sourceRef: input.prepared.pullRefs.get(pull.order)!,
      branch,
      force: false,
      pusher: author,
    });
    const opened = await clients.forge.openPullRequest({
      ...clients.repo,
      head: branch,
      base: input.base,
      title: pull.title.slice(0, 256) || branch,
      author,
      body: `Replayed from ${pull.head} (landed in ${pull.landedIn}).`,
    });
    const number = Number(opened.pullRequest!.number);
    input.tracker.setPull(pull.order, { kind: "opened", number });
    await afterPrevious(clients, input.tracker, pull.order, input.deadline);
    await clients.forge.commentPullRequest({
      ...clients.repo,
      number: BigInt(number),
      body: "@yardmaster queue",
      author,
    });
  } catch (error) {
    input.tracker.setPull(pull.order, { kind: "not_opened", reason: messageOf(error) });
  }
}

/** Pushes one outside change once the pull requests before it are resolved. */
async function pushChange(clients: ReplayClients, input: Running, push: PushStep, index: number): Promise<void> {
  input.tracker.setPush(index, { kind: "waiting" });
  const ready = () => push.after.every((o) => input.tracker.isResolved(o));
  while (!ready() && Date.now() < input.deadline) await Promise.race([input.tracker.changed(), delay(1000)]);
  if (!ready()) {
    input.tracker.setPush(index, {
      kind: "refused",
      reason: `not pushed: pull ${push.after.filter((o) => !input.tracker.isResolved(o)).join(", ")} never left the queue`,
    });
    return;
  }
  try {
    const res = await clients.forge.pushBranch({
      ...clients.repo,
      fromPath: input.ws.path,
      sourceRef: input.prepared.pushRefs[index]!,
      branch: input.base,
      force: false,
      merge: true,
      pusher: loginOf(push.authorName, push.authorEmail),
    });
    input.tracker.setPush(index, { kind: "pushed", sha: res.afterSha });
  } catch (error) {
    input.tracker.setPush(index, { kind: "refused", reason: messageOf(error) });
  }
}

/** Runs the steps and waits until the queue is done with them. */
export async function driveReplay(clients: ReplayClients, options: DriveInput): Promise<void> {
  const { plan, tracker } = options;
  const started = Date.now();
  const input: Running = { ...options, deadline: started + options.timeoutMs };
  let stepsDone = false;
  let queueEmpty = false;
  let pollError: unknown = null;
  const poller = (async () => {
    let failures = 0;
    while (!(stepsDone && queueEmpty && tracker.allResolved())) {
      if (Date.now() > input.deadline) return;
      try {
        const seen = await observeService(clients, input.base, input.since, tracker.unknownNumbers());
        failures = 0;
        tracker.observe(seen);
        queueEmpty = seen.queueEmpty;
        input.onUpdate?.();
      } catch (error) {
        // A failed read (the service busy, a restart) is tried again; many in a row end the replay.
        if (++failures >= MAX_POLL_FAILURES) {
          pollError = error;
          return;
        }
      }
      await delay(input.pollMs ?? 1000);
    }
  })();

  let pushes: Promise<void> = Promise.resolve();
  for (const [i, step] of plan.steps.entries()) {
    const wait = started + input.delays[i]! - Date.now();
    if (wait > 0) await delay(wait);
    if (Date.now() > input.deadline) break;
    if (step.kind === "pull") await openPull(clients, input, step);
    else {
      const index = plan.pushes.indexOf(step);
      pushes = pushes.then(() => pushChange(clients, input, step, index));
    }
    input.onUpdate?.();
  }
  await Promise.race([pushes, poller]);
  stepsDone = true;
  await poller;
  if (pollError !== null) throw pollError;
  if (!(queueEmpty && tracker.allResolved())) {
    const open = [...tracker.pulls]
      .filter(([o]) => !tracker.isResolved(o))
      .map(([o, s]) => ("number" in s ? `#${s.number} (pull ${o})` : `pull ${o}`));
    throw new ReplayError(
      `the replay did not finish within ${Math.round(input.timeoutMs / 1000)} s; still unresolved: ${open.join(", ") || "the queue is not empty"}`,
    );
  }
}
