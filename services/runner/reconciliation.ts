/**
 * Reconciliation (docs/github.md "Reconciliation"): a webhook GitHub failed to deliver is never
 * sent again by GitHub, so every `intervalMs` (RECONCILE_INTERVAL_SECONDS, default 60 s) the
 * runner compares what the forge shows with what the queue knows, for each active repository
 * (store `activeRepositories`), and puts in the inbox the input a lost event would have put there:
 *
 * | found | input |
 * | --- | --- |
 * | a queued pull request (or a check's draft) closed or merged | `pull_request_closed` (merged, merge commit) |
 * | a queued pull request's head moved | `pull_request_synchronized` |
 * | a pull request changed since the last snapshot the runner read of it (labels, title, base...; for one not in the queue also a later `updated_at`: reviews, threads), when it is queued, waiting to enter, or pull request rules exist | `pull_request_edited` |
 * | the checks on a running check's commit differ from those the engine last recorded | `evaluate_check` |
 * | the checks on the head of a pull request waiting to enter changed since the last pass | `checks_changed` |
 * | a base branch with a queue moved (no merge of the queue in flight) | `branch_pushed` |
 *
 * A pass reads a repository once (reconciliation-port.ts `reconciliationFacts`; on GitHub one
 * GraphQL query, which counts against GraphQL's own rate limit, not REST's): the pull requests
 * updated since the previous pass's newest `updated_at` (50 a query), the checks of the commits
 * above, the tips of the bases. A repository whose installation has less than
 * {@link RESERVE_SHARE} of its hourly requests left is skipped until the reset, as is one answered
 * `rate_limited` (until the wait it gave): webhooks keep the queue going meanwhile.
 *
 * "Updated after the last snapshot the runner read": the runner's forge is wrapped so that every
 * snapshot it reads records the pull request's `updatedAt` and the facts a list shows too (labels,
 * title, head...; GitHub's `updated_at` has one-second steps) in this process; a change whose
 * webhook arrived was read then, so only a change no webhook reported makes an input.
 */
import type { Logger } from "pino";
import type { EngineState } from "../engine/index.js";
import { isForgeError, type ForgeEvent, type ForgePort, type PullRequestSnapshot } from "../forge/index.js";
import { activeRepositories, listQueueRequests, loadQueueState, type Pool } from "../store/index.js";
import type { RunnerInput } from "./inputs.js";
import { factsOf, fingerprint, foreign, type Facts } from "./reconciliation-facts.js";
import { storedRepositoryConfig } from "./repository-config.js";

/** Below this share of the hour's requests left, a repository is not reconciled until the reset. */
export const RESERVE_SHARE = 0.1;
/** A repository whose state changed within this window is active even with an empty queue (pull request rules). */
export const ACTIVE_WINDOW_MS = 24 * 3_600_000;

/** What reconciliation needs. */
export interface ReconcilerDeps {
  db: Pool;
  forge: ForgePort;
  log: Logger;
  /** Epoch ms UTC. */
  now: () => number;
  /** The pass interval, ms: the first pass of a repository looks this far back. */
  intervalMs: number;
  /** Puts inputs in a repository's inbox and processes it soon. */
  addInputs(repository: string, inputs: RunnerInput[]): Promise<void>;
}

/** What one pass did. */
export interface ReconcileReport {
  repositories: number;
  /** Repositories skipped for their rate limit. */
  skipped: number;
  /** Inputs added, by repository. */
  inputs: Record<string, RunnerInput[]>;
}

/** What reconciliation remembers of a repository between passes (in this process). */
interface Memory {
  /** The newest `updated_at` of the previous listing, epoch ms (the next listing starts there). */
  watermark: number;
  /** `updatedAt` of the last input made for a pull request (not made twice for one change). */
  reported: Map<number, number>;
  /** Checks of the heads of pull requests waiting to enter, by number: head SHA and fingerprint. */
  waiting: Map<number, { sha: string; checks: string }>;
}

/** Compares the forge with the queue (see the file header). */
export class Reconciler {
  private readonly memory = new Map<string, Memory>();
  /** `updatedAt` (epoch ms), head and facts of the last snapshot the runner read, by repository and number. */
  private readonly seen = new Map<string, Map<number, { updatedAt: number; headSha: string; facts: Facts }>>();
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly deps: ReconcilerDeps) {}

  /** `forge` recording what each snapshot it reads shows (give the result to the runner). */
  recording(forge: ForgePort): ForgePort {
    const note = (pr: PullRequestSnapshot) => this.noteSnapshot(pr);
    const recorder: ForgePort = Object.create(forge);
    recorder.getPullRequest = async (repo, number) => {
      const pr = await forge.getPullRequest(repo, number);
      note(pr);
      return pr;
    };
    recorder.listOpenPullRequests = async (repo, only) => {
      const list = await forge.listOpenPullRequests(repo, only);
      list.forEach(note);
      return list;
    };
    return recorder;
  }

  private noteSnapshot(pr: PullRequestSnapshot): void {
    let byNumber = this.seen.get(pr.repository);
    if (!byNumber) this.seen.set(pr.repository, (byNumber = new Map()));
    byNumber.delete(pr.number);
    byNumber.set(pr.number, {
      updatedAt: pr.updatedAt.getTime(),
      headSha: pr.headSha,
      facts: { ...pr, labels: pr.labels.map((l) => l.name) },
    });
    if (byNumber.size > 10_000) byNumber.delete(byNumber.keys().next().value!);
  }

  /** One pass over every active repository; a repository's failure is logged, never the pass's. */
  async pass(): Promise<ReconcileReport> {
    const now = this.deps.now();
    const report: ReconcileReport = { repositories: 0, skipped: 0, inputs: {} };
    for (const repository of await activeRepositories(this.deps.db, new Date(now - ACTIVE_WINDOW_MS))) {
      report.repositories++;
      if (this.rateLimited(repository, now)) {
        report.skipped++;
        continue;
      }
      try {
        const inputs = await this.reconcile(repository);
        if (inputs.length > 0) {
          report.inputs[repository] = inputs;
          await this.deps.addInputs(repository, inputs);
        }
      } catch (e) {
        if (isForgeError(e, "rate_limited")) {
          this.pausedUntil.set(repository, now + (e.retryAfterMs ?? 60_000));
          report.skipped++;
        }
        this.deps.log.warn({ repository, err: (e as Error).message }, "reconciliation of a repository failed");
      }
    }
    return report;
  }

  /** Whether `repository`'s rate limit keeps it out of this pass. */
  private rateLimited(repository: string, now: number): boolean {
    const until = this.pausedUntil.get(repository);
    if (until !== undefined && now < until) return true;
    this.pausedUntil.delete(repository);
    const budget = this.deps.forge.requestBudget(repository);
    if (budget && budget.remaining < budget.limit * RESERVE_SHARE && now < budget.resetAt) {
      this.deps.log.info(
        { repository, remaining: budget.remaining, resetAt: new Date(budget.resetAt).toISOString() },
        "reconciliation waits for the rate limit's reset",
      );
      return true;
    }
    return false;
  }

  /**
   * The inputs that bring `repository`'s queue up to date with the forge (see the file header).
   * @throws ForgeError when the forge cannot be read
   */
  async reconcile(repository: string): Promise<RunnerInput[]> {
    const { forge, db } = this.deps;
    const state = await loadQueueState<EngineState>(db, repository);
    const waitingRows = await listQueueRequests(db, repository);
    const config = await storedRepositoryConfig({ forge, db }, repository, { lane: "runner", repository });
    const rules = config.config.pull_request_rules.some((r) => !r.disabled);
    const mq = config.config.merge_queue;
    const statusLabels = new Set(
      [mq.queued_label, mq.dequeued_label, mq.checking_label].flatMap((l) => (l ? [l.toLowerCase()] : [])),
    );
    const first = !this.memory.has(repository);
    const memory: Memory = this.memory.get(repository) ?? {
      watermark: this.deps.now() - this.deps.intervalMs,
      reported: new Map(),
      waiting: new Map(),
    };
    this.memory.set(repository, memory);
    const pulls = state?.pulls ?? {};
    const checks = (state?.trains ?? []).flatMap((t) => t.batches).flatMap((b) => (b.check ? [b.check] : []));
    const drafts = new Map(checks.filter((c) => c.number !== null && c.mode === "draft").map((c) => [c.number!, c]));
    const waiting = new Set(waitingRows.map((r) => r.number));
    // On a repository's first pass, look back to the oldest queued pull request: a change lost
    // while no process was running is found too.
    let since = memory.watermark;
    if (first) for (const p of Object.values(pulls)) since = Math.min(since, p.queuedAt);
    if (first) for (const r of waitingRows) since = Math.min(since, r.requestedAt.getTime());

    const inputs: RunnerInput[] = [];
    const forgeEvent = (event: ForgeEvent) => inputs.push({ kind: "forge", event });
    const seen = this.seen.get(repository) ?? new Map();
    const running = checks.filter((c) => c.phase === "running" && c.headSha !== null);
    const waitingHeads = [...waiting].flatMap((n) => {
      const head = seen.get(n)?.headSha;
      return head ? [[n, head] as const] : [];
    });
    const bases = Object.entries(state?.bases ?? {})
      .filter(
        ([branch, b]) => !b.deleted && b.mergingBatchId === null && state!.trains.some((t) => t.branch === branch),
      )
      .map(([branch, b]) => [branch, b.sha] as const);
    // One read for the whole repository (GitHub: one GraphQL query; reconciliation-port.ts).
    const facts = await forge.reconciliationFacts(repository, {
      since: new Date(since),
      branches: bases.map(([branch]) => branch),
      commits: [...running.map((c) => c.headSha!), ...waitingHeads.map(([, head]) => head)],
    });
    for (const p of facts.pulls) {
      memory.watermark = Math.max(memory.watermark, p.updatedAt.getTime());
      const at = p.updatedAt.getTime();
      if (memory.reported.get(p.number) === at) continue;
      const entry = pulls[String(p.number)];
      const draft = drafts.get(p.number);
      const before = inputs.length;
      if ((entry || draft) && p.state !== "open") {
        forgeEvent({
          kind: "pull_request_closed",
          repo: repository,
          number: p.number,
          merged: p.state === "merged",
          mergeCommitSha: p.mergeCommitSha,
        });
      } else if (draft || p.state !== "open") {
        // A running check's draft that is still open, or a pull request outside the queue closed.
      } else if (entry && entry.headSha !== p.headSha && entry.pendingHeadSha !== p.headSha) {
        forgeEvent({
          kind: "pull_request_synchronized",
          repo: repository,
          number: p.number,
          headSha: p.headSha,
          by: null,
        });
      } else if (entry || waiting.has(p.number) || rules) {
        const last = seen.get(p.number);
        // Changed since the runner's last read of it. Facts a list shows differ (the queue's status
        // labels aside: its own output). A later `updated_at` (reviews, threads, comments: what a
        // list does not show) counts for pull requests outside the queue: a queued one is read
        // whole again when its batch's checks are evaluated, and its `updated_at` moves with the
        // queue's own comments and labels. Never read by this process: on its first pass only
        // what is queued or waiting.
        const changed = last
          ? factsOf(p, statusLabels) !== factsOf(last.facts, statusLabels) || (!entry && at > last.updatedAt)
          : first
            ? entry !== undefined || waiting.has(p.number)
            : true;
        if (changed) forgeEvent({ kind: "pull_request_edited", repo: repository, number: p.number });
      }
      if (inputs.length > before) memory.reported.set(p.number, at);
    }
    if (memory.reported.size > 10_000) memory.reported.delete(memory.reported.keys().next().value!);

    for (const check of running) {
      const onForge = foreign(facts.checks[check.headSha!] ?? []);
      if (fingerprint(onForge) !== fingerprint(check.checks))
        inputs.push({ kind: "evaluate_check", checkId: check.id });
    }

    for (const [number, head] of waitingHeads) {
      const now = fingerprint(foreign(facts.checks[head] ?? []));
      const was = memory.waiting.get(number);
      memory.waiting.set(number, { sha: head, checks: now });
      if (was && was.sha === head && was.checks !== now)
        forgeEvent({ kind: "checks_changed", repo: repository, sha: head });
    }
    for (const number of memory.waiting.keys()) if (!waiting.has(number)) memory.waiting.delete(number);

    for (const [branch, known] of bases) {
      const tip = facts.tips[branch] ?? null;
      if (tip !== known)
        forgeEvent({ kind: "branch_pushed", repo: repository, branch, before: known, after: tip, forced: false });
    }
    for (const input of inputs)
      this.deps.log.info(
        { repository, input: input.kind === "forge" ? input.event : input },
        "reconciliation found a change no webhook reported",
      );
    return inputs;
  }
}
