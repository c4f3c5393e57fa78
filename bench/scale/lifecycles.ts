/**
 * The pull request lifecycles `npm run bench:scale` drives, and how long each webhook takes to
 * reach its effect in "GitHub" (the test double, which sees every request the replicas make). A
 * lifecycle is three webhooks on one pull request of one repository, each sent once the previous
 * one's effect was seen:
 *
 * | webhook | its effect |
 * | --- | --- |
 * | `pull_request` opened | the `triage` label of the repository's pull request rule is added |
 * | `issue_comment` `@yardmaster queue` | the queue's `queued` label is added |
 * | `check_run` completed, on the draft pull request the queue opened (the world's CI sends it) | the pull request is merged |
 *
 * Each repository has at most one lifecycle under way, so an effect is the repository's own.
 */
import type { AnsweredRequest } from "../../test/forge/github/support/double-server.js";
import type { DoubleRepo } from "../../test/forge/github/support/double-state.js";
import { pullRequestPayload } from "../../test/forge/github/support/webhook-deliveries.js";
import type { ReplicaWorld } from "../../test/support/replica-world.js";

/** The configuration of every repository of the benchmark: the world's queue, and a labelling rule. */
export const SCALE_CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    merge_conditions:",
  "      - check-success=ci",
  "merge_queue:",
  "  max_parallel_checks: 1",
  "pull_request_rules:",
  "  - name: triage",
  "    conditions:",
  "      - base=main",
  "    actions:",
  "      label:",
  "        add:",
  "          - triage",
  "",
].join("\n");

/** The webhooks of a lifecycle, in order. */
export const EVENT_KINDS = ["opened", "comment", "check_run"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** One webhook of a lifecycle: when it was sent, and its latency to its effect (null: never seen). */
export interface EventLatency {
  kind: EventKind;
  sentAt: number;
  ms: number | null;
}

/** A pull request made ready for a lifecycle (it exists in GitHub; no webhook told of it yet). */
export interface PreparedPull {
  repo: DoubleRepo;
  number: number;
  headSha: string;
}

type EffectKind = "triage" | "queued" | "merged";

/** The effects seen by the double, by pull request, and the waits for them. */
export class Effects {
  private readonly seen = new Map<string, number>();
  private readonly waits = new Map<string, (at: number) => void>();
  /** Pull requests merged more than once ("owner/name#n"): none expected. */
  readonly mergedTwice: string[] = [];
  /** Requests the double answered, and how many of them were writes (POST, PATCH, PUT, DELETE). */
  requests = 0;
  writes = 0;
  /** Time the double took to answer them, ms, all together. */
  githubMs = 0;

  /** What the double answered (serveGithubDouble's observer). */
  observe = (r: AnsweredRequest): void => {
    this.requests++;
    this.githubMs += r.ms;
    if (r.method !== "GET" && r.path !== "/graphql") this.writes++;
    const parts = r.path.split("/");
    const pull = `${parts[2]}/${parts[3]}#${parts[5]}`;
    if (r.operationId === "issues/add-labels" && r.status === 200) {
      const given = (r.body as { labels?: (string | { name: string })[] }).labels ?? [];
      const labels = given.map((l) => (typeof l === "string" ? l : l.name));
      if (labels.includes("triage")) this.record(pull, "triage", r.at);
      if (labels.includes("queued")) this.record(pull, "queued", r.at);
    }
    if (r.operationId === "pulls/merge" && r.status === 200) {
      if (this.seen.has(`${pull} merged`)) this.mergedTwice.push(pull);
      this.record(pull, "merged", r.at);
    }
  };

  private record(pull: string, kind: EffectKind, at: number): void {
    const key = `${pull} ${kind}`;
    if (!this.seen.has(key)) this.seen.set(key, at);
    this.waits.get(key)?.(at);
    this.waits.delete(key);
  }

  /** When the effect reached the double (epoch ms), or null when it did not within `timeoutMs`. */
  when(pull: string, kind: EffectKind, timeoutMs: number): Promise<number | null> {
    const key = `${pull} ${kind}`;
    const at = this.seen.get(key);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waits.delete(key);
        resolve(null);
      }, timeoutMs);
      this.waits.set(key, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
  }
}

/**
 * Runs one lifecycle (see the file header) on `pull`; each effect is waited for at most `timeoutMs`.
 * @returns the latency of each webhook sent (a lifecycle whose effect never came stops there)
 */
export async function runLifecycle(
  w: ReplicaWorld,
  effects: Effects,
  pull: PreparedPull,
  timeoutMs: number,
): Promise<EventLatency[]> {
  const key = `${pull.repo.fullName}#${pull.number}`;
  const out: EventLatency[] = [];
  const step = async (kind: EventKind, send: () => Promise<unknown>, effect: EffectKind) => {
    const sentAt = Date.now();
    await send();
    const at = await effects.when(key, effect, timeoutMs);
    out.push({ kind, sentAt, ms: at === null ? null : at - sentAt });
    return at !== null;
  };
  const opened = () =>
    w.sender.deliver("pull_request", pullRequestPayload(pull.repo, pull.number, "opened", pull.headSha));
  if (!(await step("opened", opened, "triage"))) return out;
  if (!(await step("comment", () => w.queue(pull.repo, pull.number), "queued"))) return out;
  // The check_run webhook is the world's CI's, sent once the queue opened its draft: measured from it.
  const mergedAt = await effects.when(key, "merged", timeoutMs);
  const ci = w.deliveries.filter(
    (d) =>
      d.event === "check_run" && d.repository === pull.repo.fullName && (mergedAt === null || d.sentAt <= mergedAt),
  );
  const sentAt = ci.at(-1)?.sentAt ?? Date.now();
  out.push({ kind: "check_run", sentAt, ms: mergedAt === null ? null : mergedAt - sentAt });
  return out;
}
