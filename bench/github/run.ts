/**
 * One run of `npm run bench:github` (bench/github.ts): a repository of the GitHub double with `open`
 * open pull requests (each adds a file of its own; CI green on each), the configuration of
 * {@link CONFIG}, and a whole queue on it (test/forge/github/support/github-queue.ts: the adapter
 * with conditional requests and paced writes, the webhook route, the runner with reconciliation).
 * The counts start once the pull requests are opened and read; then `merges` of them are labelled
 * `ready`, one every `labelEverySeconds`, and the run ends when all are merged and the queue is
 * idle. Time is the double's, running `scale` times faster than real time for everything (the
 * adapter's pacing, the rate limits' windows, CI's duration, reconciliation's interval).
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { migrate, openDatabase } from "../../services/store/index.js";
import type { RouteCount } from "../../test/forge/github/support/double-traffic.js";
import { githubQueue, reportCi } from "../../test/forge/github/support/github-queue.js";
import { GithubDouble } from "../../test/forge/github/support/github-double.js";

/** The configuration of the benchmark's repository: a queue rule, and pull request rules acting on every pull request. */
export const CONFIG = `queue_rules:
  - name: default
    merge_conditions:
      - check-success=ci
    batch_size: BATCH
pull_request_rules:
  - name: merge what is ready
    conditions:
      - label=ready
      - check-success=ci
    actions:
      queue: {}
  - name: label documentation
    conditions:
      - files~=^docs/
    actions:
      label:
        add: [documentation]
  - name: thank the author once merged
    conditions:
      - merged
    actions:
      comment:
        message: "Thank you, {{ author }}!"
`;

/** What one run measured. */
export interface RunFigures {
  open: number;
  merges: number;
  /** Every request the App made, 304s included. */
  requests: number;
  /** Those charged against the installation's primary limit (REST). */
  charged: number;
  notModified: number;
  graphql: number;
  contentCreating: number;
  primaryRefused: number;
  secondaryRefused: number;
  /** Requests of reconciliation's passes and of redelivery's listings (counted in `requests` too). */
  reconciliation: number;
  /** Virtual seconds from the first label to the last merge. */
  virtualSeconds: number;
  routes: RouteCount[];
}

export interface RunOptions {
  open: number;
  merges: number;
  /** The queue rule's batch_size. */
  batchSize: number;
  /** Virtual seconds a CI run takes. */
  ciSeconds: number;
  /** Virtual seconds between two labels. */
  labelEverySeconds: number;
  reconcileSeconds: number;
  scale: number;
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the scenario of the file header once. */
export async function runOnce(o: RunOptions): Promise<RunFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-bench-github-"));
  // As root, PostgreSQL runs under its own user, which must be able to enter the directory.
  await chmod(dir, 0o755);
  const db = await openDatabase({ dataDir: dir });
  await migrate(db.url);
  const double = await GithubDouble.start();
  const t0 = Date.now();
  const epoch = double.clock.getTime();
  const now = () => epoch + (Date.now() - t0) * o.scale;
  const real = (virtualMs: number) => virtualMs / o.scale;
  const logger = pino({ level: "warn" });
  const say = (what: string) => o.log?.(`  ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s  ${what}`);
  try {
    // The repository as the queue finds it when it starts: its pull requests opened over the past
    // day, each tested by CI (before the App's deliveries start: no event).
    double.clockSource = () => now() - 86_400_000;
    const repo = await double.addRepo("bench/widgets", {
      files: { ".yardmaster.yml": CONFIG.replace("BATCH", String(o.batchSize)) },
    });
    for (let i = 1; i <= o.open; i++) {
      const head = await repo.commit(`feature-${i}`, { [`src/f${i}.txt`]: `${i}\n` }, `Add f${i}`);
      await repo.openPull({ head: `feature-${i}`, title: `Add f${i}`, author: { login: `dev${i % 7}`, id: 9000 + i } });
      await reportCi(double, repo, head);
    }
    double.clockSource = now;
    say(`${o.open} pull requests opened in the double, CI green on each`);
    const queue = await githubQueue({
      double,
      db: db.pool,
      logger,
      now,
      spaceWrites: true,
      secondMs: 1000 / o.scale,
      reconcileIntervalMs: real(o.reconcileSeconds * 1000),
      ciDelayMs: real(o.ciSeconds * 1000),
    });
    double.traffic.resetCounts();
    let reconciliation = 0;
    say("the queue has started; counting starts");

    const started = now();
    const chosen = Array.from({ length: o.merges }, (_, i) => 1 + Math.floor((i * o.open) / o.merges));
    for (const n of chosen) {
      repo.pull(n)!.labels.push({ id: 5000 + n, name: "ready", color: "0e8a16", default: false });
      await double.changed(repo);
      await sleep(real(o.labelEverySeconds * 1000));
    }
    const deadline = Date.now() + 20 * 60_000;
    for (;;) {
      const state = await queue.state(repo);
      const done = chosen.every((n) => repo.pull(n)!.mergedAt !== null);
      if (done && state && Object.keys(state.pulls).length === 0 && state.trains.every((t) => t.batches.length === 0))
        break;
      if (Date.now() > deadline)
        throw new Error(
          `bench: ${chosen.filter((n) => !repo.pull(n)!.mergedAt).length} pull requests not merged in 20 minutes`,
        );
      await sleep(200);
    }
    const virtualSeconds = (now() - started) / 1000;
    say(`${o.merges} merged`);
    // What the merges cause after them (closing webhooks, rules on merged pull requests) counts too.
    await double.webhooks.settled();
    await queue.runner.drain();
    await double.webhooks.settled();
    await queue.stop();
    const routes = double.traffic.tally();
    const total = double.traffic.total();
    reconciliation = routes
      .filter((r) => r.route === "graphql ReconcileFacts" || r.route === "apps/list-webhook-deliveries")
      .reduce((s, r) => s + r.requests, 0);
    return {
      open: o.open,
      merges: o.merges,
      requests: total.requests,
      charged: total.charged,
      notModified: total.notModified,
      graphql: routes.filter((r) => r.route.startsWith("graphql")).reduce((s, r) => s + r.requests, 0),
      contentCreating: total.contentCreating,
      primaryRefused: total.primaryRefused,
      secondaryRefused: total.secondaryRefused,
      reconciliation,
      virtualSeconds,
      routes,
    };
  } finally {
    await double.stop();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
