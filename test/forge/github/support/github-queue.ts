/**
 * A whole merge queue on the GitHub double: the GitHub adapter over the double's `fetch`, the
 * webhook route (`POST /webhooks/github` in a Fastify instance, signature, de-duplication in
 * PostgreSQL) receiving the double's deliveries, the queue runner on a real PostgreSQL database
 * (started: it processes what arrives, and reconciles every `reconcileIntervalMs` when given),
 * and a CI (GitHub Actions as another App: check run `ci` on each pull request's new head, a
 * failure when the head's tree holds a file named BROKEN). For the reconciliation tests and
 * `npm run bench:github`; scenario tests build on it (its `double.webhooks` drops deliveries:
 * `drop`, `dropRandomly`).
 */
import Fastify, { type FastifyInstance } from "fastify";
import type pg from "pg";
import type { Logger } from "pino";
import { createGithubForge, registerGithubWebhook } from "../../../../services/forge/github/index.js";
import { readFileBlob, readRef } from "../../../../services/forge/local/git/index.js";
import type { ForgePort } from "../../../../services/forge/types.js";
import type { EngineState } from "../../../../services/engine/index.js";
import { createQueueRunner, type QueueRunner } from "../../../../services/runner/index.js";
import { loadQueueState } from "../../../../services/store/index.js";
import type { DoubleRepo } from "./double-state.js";
import type { GithubDouble } from "./github-double.js";

export const WEBHOOK_SECRET = "double-webhook-secret";
/** GitHub Actions' App id and slug, as GitHub gives them. */
export const ACTIONS_APP = { id: 15368, slug: "github-actions" };

/** What {@link githubQueue} needs. */
export interface GithubQueueOptions {
  double: GithubDouble;
  db: pg.Pool;
  logger: Logger;
  /** The clock of the runner and the adapter (epoch ms); default the double's. */
  now?: () => number;
  /** Reconciliation's interval (0: passes only when asked). */
  reconcileIntervalMs?: number;
  /** Adapter options: pacing of content-creating requests and the length of its second (default off, 0). */
  spaceWrites?: boolean;
  secondMs?: number;
  /** Sweep interval of the runner, ms (default 50). */
  intervalMs?: number;
  /**
   * When CI reports: "auto", right after the event that triggered it (default); "manual", when
   * the test calls {@link GithubQueue.finishCi} (a CI that takes its time).
   */
  ci?: "auto" | "manual";
  /** With `ci: "auto"`, how long a CI run takes, real ms (default 0). */
  ciDelayMs?: number;
}

export interface GithubQueue {
  forge: ForgePort;
  runner: QueueRunner;
  webhook: FastifyInstance;
  state(repo: DoubleRepo): Promise<EngineState | null>;
  /** Runs CI on the head of every open pull request of `repo` (a check run `ci` per head, once). */
  ciOnOpenPulls(repo: DoubleRepo): Promise<void>;
  /** With `ci: "manual"`: reports CI on every head it was triggered for so far; resolves once the events are sent. */
  finishCi(): Promise<number>;
  stop(): Promise<void>;
}

/** Builds and starts the queue (see the file header). */
export async function githubQueue(opts: GithubQueueOptions): Promise<GithubQueue> {
  const { double, db, logger } = opts;
  const now = opts.now ?? (() => double.now().getTime());
  const forge = createGithubForge({
    appId: double.appId,
    privateKey: double.privateKey,
    fetch: double.fetch,
    secondMs: opts.secondMs ?? 0,
    spaceWrites: opts.spaceWrites ?? false,
    now,
    wait: async () => {},
  });
  const runner = createQueueRunner({
    db,
    forge,
    logger,
    eventsWritten: () => {},
    now,
    intervalMs: opts.intervalMs ?? 50,
    reconcileIntervalMs: opts.reconcileIntervalMs,
  });
  const webhook = Fastify();
  await registerGithubWebhook(webhook, {
    secret: WEBHOOK_SECRET,
    pool: db,
    sink: (event, key) => runner.submit(event, key),
    log: logger,
    now: () => new Date(now()),
    appId: double.appId,
  });
  await webhook.ready();
  runner.start();
  await double.deliverWebhooksTo(async (d) => {
    const res = await webhook.inject({ method: "POST", url: "/webhooks/github", headers: d.headers, payload: d.body });
    return res.statusCode;
  }, WEBHOOK_SECRET);

  // CI: GitHub Actions on `pull_request` (opened, reopened, synchronize), whatever the App receives.
  const tested = new Set<string>();
  const runCi = async (repo: DoubleRepo, sha: string): Promise<boolean> => {
    if (tested.has(`${repo.fullName} ${sha}`)) return false;
    tested.add(`${repo.fullName} ${sha}`);
    await reportCi(double, repo, sha);
    await double.events.observe(repo, { login: `${ACTIONS_APP.slug}[bot]`, id: 41898282 });
    return true;
  };
  const waiting: [DoubleRepo, string][] = [];
  const unsubscribe = double.webhooks.onEvent((event, payload) => {
    if (event !== "pull_request") return;
    const action = payload.action as string;
    if (!["opened", "reopened", "synchronize"].includes(action)) return;
    const full = (payload.repository as { full_name: string }).full_name;
    const repo = double.repo(...(full.split("/") as [string, string]));
    const sha = (payload.pull_request as { head: { sha: string } }).head.sha;
    if (!repo) return;
    if (opts.ci === "manual") waiting.push([repo, sha]);
    // After the event that triggered it, as GitHub Actions would (never inside the App's request).
    else setTimeout(() => void runCi(repo, sha).catch(() => {}), opts.ciDelayMs ?? 0);
  });

  return {
    forge,
    runner,
    webhook,
    state: (repo) => loadQueueState<EngineState>(db, repo.fullName),
    async ciOnOpenPulls(repo) {
      for (const p of repo.pulls.values()) if (p.state === "open") await runCi(repo, await repo.headSha(p));
      await double.webhooks.settled();
    },
    async finishCi() {
      let ran = 0;
      for (const [repo, sha] of waiting.splice(0)) if (await runCi(repo, sha)) ran++;
      await double.webhooks.settled();
      return ran;
    },
    async stop() {
      unsubscribe();
      await runner.stop();
      await double.webhooks.settled();
      await webhook.close();
    },
  };
}

/**
 * What the CI reports on `sha`: a completed check run `ci` of GitHub Actions, failed when the
 * commit holds a file named BROKEN (no event: the caller reports the change, or it happened before
 * deliveries started).
 */
export async function reportCi(double: GithubDouble, repo: DoubleRepo, sha: string): Promise<void> {
  const broken = (await readFileBlob(repo.git, sha, "BROKEN").catch(() => null)) !== null;
  const at = double.now();
  repo.checkRuns.push({
    id: double.id(),
    name: "ci",
    headSha: sha,
    status: "completed",
    conclusion: broken ? "failure" : "success",
    title: broken ? "BROKEN is present" : "passed",
    summary: "",
    appId: ACTIONS_APP.id,
    appSlug: ACTIONS_APP.slug,
    detailsUrl: null,
    startedAt: at,
    completedAt: at,
  });
}

/** The tip of `branch` in `repo`. */
export async function tipOf(repo: DoubleRepo, branch: string): Promise<string> {
  return (await readRef(repo.git, `refs/heads/${branch}`))!;
}
