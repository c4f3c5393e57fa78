/**
 * A real Yardmaster server process (`FORGE=github`) against the GitHub test double served over
 * HTTP (`GITHUB_API_URL`), configured as a real repository: its merge settings, branch protection
 * or rulesets, and its Actions workflows (double-actions.ts). The double delivers the App's
 * webhooks to the server, signed; Actions run the workflows' jobs on the events that trigger them.
 * The scenario tests (test/forge/github/scenarios/) open pull requests, queue them with
 * `@yardmaster queue`, and read the outcome from the double and the activity log.
 *
 * Extending it: `drop` loses webhook deliveries on their first attempt (the double's drop rules,
 * double-webhooks.ts), e.g. `{ rate: 0.1, seed: 7 }` for deliveries lost at random, and
 * {@link GithubWorld.redeliverFailed} is an operator redelivering the failed ones.
 */
import { expect } from "vitest";
import { eventually } from "../../../support/eventually.js";
import { restCall } from "../../../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../../../support/server-process.js";
import type { HandlerContext } from "./double-answers.js";
import { DoubleActions, type WorkflowJob } from "./double-actions.js";
import { grantsOf, type AppGrants } from "./double-app-handlers.js";
import { serveDouble, type DoubleHttp } from "./double-http.js";
import type { DoubleRepo } from "./double-state.js";
import type { DropRule } from "./double-webhooks.js";
import { GithubDouble } from "./github-double.js";
import { ReadCache } from "./read-cache.js";

const SECRET = "scenario-webhook-secret";
const OCTOCAT = { login: "octocat", id: 583231 };

/** A repository as real teams set it up. */
export interface RepositorySetup {
  /** Its name (`acme/<name>`). */
  name: string;
  /** Merge settings, branch protection, rulesets (double-rules.ts). */
  protect(repo: DoubleRepo, double: GithubDouble): void;
  /** `.yardmaster.yml` on main. */
  config: string;
  /** Its workflows' jobs. */
  jobs: WorkflowJob[];
  /** Whether each pull request gets an approving review (required reviews). */
  approve?: boolean;
}

/** How the world runs. */
export interface WorldOptions {
  /** Pull requests opened and queued (default 10). */
  pulls?: number;
  /** The pull request that breaks CI in any batch holding it (default 4); it adds `BROKEN`. */
  culprit?: number;
  /** A failpoint armed with `kill` in the first server process (docs/reliability.md "Failpoints"). */
  killAt?: string;
  /** Webhook deliveries lost on their first attempt: a rule, or at random. */
  drop?: DropRule | { rate: number; seed: number };
  /** The server's RECONCILE_INTERVAL_SECONDS (default: the server's own, 60 s). */
  reconcileIntervalSeconds?: number;
  /** Changes what the App's installations granted (default: everything the App asks for). */
  grants?: (grants: AppGrants) => void;
}

/** One scenario's world. */
export interface GithubWorld {
  double: GithubDouble;
  repo: DoubleRepo;
  actions: DoubleActions;
  server: ServerProcess;
  pulls: number[];
  culprit: number;
  /**
   * Waits for the server killed by its failpoint, then starts another on the same data and
   * database; with `redeliver` (the default) an operator then redelivers the failed deliveries,
   * without it the new server's own redelivery must (a lossy world's reconciliation).
   * @returns the killed server's output
   */
  restartAfterKill(opts?: { redeliver?: boolean }): Promise<string>;
  /** When the server restarted by {@link restartAfterKill} was ready (null before). */
  restartedAt: Date | null;
  /** Redelivers every failed delivery once (GitHub's "Redeliver", as an operator would). */
  redeliverFailed(): Promise<void>;
  /** `action.queue.leave` events by pull request (their `dequeue_code`s, in order). */
  leaves(): Promise<Map<number, string[]>>;
  /** Waits until every pull request left the queue (each with a leave event). */
  settled(timeoutMs?: number): Promise<Map<number, string[]>>;
  git(...args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

async function queueFile(repo: DoubleRepo, setup: RepositorySetup, options: WorldOptions, double: GithubDouble) {
  const count = options.pulls ?? 10;
  const culprit = options.culprit ?? 4;
  const pulls: number[] = [];
  for (let n = 1; n <= count; n++) {
    const files: Record<string, string> = { [`changes/${n}.txt`]: `${n}\n` };
    if (n === culprit) files.BROKEN = "this change breaks the build\n";
    await repo.commit(`pr-${n}`, files, `Add change ${n}`);
    const p = await repo.openPull({ head: `pr-${n}`, title: `Change ${n}`, author: OCTOCAT });
    if (setup.approve)
      repo.reviews.set(p.number, [{ id: double.id(), user: "reviewer", state: "APPROVED", submittedAt: double.now() }]);
    pulls.push(p.number);
  }
  return { pulls, culprit };
}

/** Builds the world: the double over HTTP, the repository, the server, the pull requests, queued. */
export async function githubWorld(setup: RepositorySetup, options: WorldOptions = {}): Promise<GithubWorld> {
  const double = await GithubDouble.start();
  // A clock that runs, as GitHub's does: the server's redelivery and reconciliation read the
  // deliveries' and pull requests' times against its own.
  double.clockSource = Date.now;
  // A GitHub Enterprise Server whose administrator turned the secondary rate limits off, as the
  // server is told (GITHUB_SPACE_WRITES=false below): against GitHub.com's 80 writes a minute the
  // unpaced server was refused, and waited out a `retry-after` of about 50 s, twice in a measured
  // case (most of its time). Pacing under those limits is measured by `npm run bench:github` (adapter
  // and double on a 10x clock), the retry after a refusal by errors.test.ts (docs/contributing.md
  // "The suite's time").
  double.traffic.configure({ contentPerMinute: Number.POSITIVE_INFINITY, contentPerHour: Number.POSITIVE_INFINITY });
  const actions = new DoubleActions(double);
  const reads = new ReadCache();
  actions.onChange = () => reads.invalidate();
  const observing: typeof fetch = async (input, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    // GraphQL queries read; only mutations change anything.
    const writes = method !== "GET" && !(String(input).endsWith("/graphql") && !/"mutation/.test(String(init?.body)));
    if (writes) {
      reads.invalidate();
      const answer = await double.fetch(input as string, init);
      reads.invalidate();
      for (const repo of double.allRepos()) await actions.observe(repo);
      return answer;
    }
    if (method !== "GET") return double.fetch(input as string, init);
    return reads.get(String(input), () => double.fetch(input as string, init));
  };
  const http: DoubleHttp = await serveDouble(observing);
  const repo = await double.addRepo(`acme/${setup.name}`, { files: { ".yardmaster.yml": setup.config } });
  repo.collaborators.set(OCTOCAT.login, { role_name: "write", permission: "write" });
  repo.collaborators.set("reviewer", { role_name: "write", permission: "write" });
  setup.protect(repo, double);
  options.grants?.(grantsOf(double));
  await actions.use(repo, setup.jobs);

  const env = {
    FORGE: "github",
    GITHUB_APP_ID: String(double.appId),
    GITHUB_PRIVATE_KEY: double.privateKey.replace(/\n/g, "\\n"),
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_API_URL: http.url,
    GITHUB_SPACE_WRITES: "false",
    LOG_LEVEL: "warn",
    ...(options.reconcileIntervalSeconds === undefined
      ? {}
      : { RECONCILE_INTERVAL_SECONDS: String(options.reconcileIntervalSeconds) }),
  };
  const servers: ServerProcess[] = [];
  // The pull requests exist, and their own CI ran, before the queue hears of them: it learns of each
  // from its `@yardmaster queue` comment (fewer events to process, the same queue). They are made
  // while the server starts: no webhook is delivered before `deliverWebhooksTo` below.
  const made = (async () => {
    const queued = await queueFile(repo, setup, options, double);
    await actions.observe(repo);
    await actions.idle();
    return queued;
  })();
  const [started, queued] = await Promise.allSettled([
    startServerProcess({
      ...env,
      ...(options.killAt ? { YARDMASTER_FAILPOINTS: `${options.killAt}=kill` } : {}),
    }),
    made,
  ]);
  if (started.status === "rejected" || queued.status === "rejected") {
    if (started.status === "fulfilled") await started.value.stop();
    await http.close();
    await double.stop();
    throw started.status === "rejected" ? started.reason : (queued as PromiseRejectedResult).reason;
  }
  const first = started.value;
  servers.push(first);
  const world = { server: first } as GithubWorld;
  const { pulls, culprit } = queued.value;
  reads.invalidate();
  await double.deliverWebhooksTo(async (delivery) => {
    const res = await fetch(`${world.server.url}/webhooks/github`, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await res.arrayBuffer();
    return res.status;
  }, SECRET);
  if (options.drop) {
    if (typeof options.drop === "function") double.webhooks.drop(options.drop, Number.POSITIVE_INFINITY);
    else double.webhooks.dropRandomly(options.drop.rate, options.drop.seed);
  }

  for (const n of pulls)
    repo.comments.push({ id: double.id(), number: n, body: "@yardmaster queue", author: OCTOCAT.login });
  reads.invalidate();
  await double.changed(repo, OCTOCAT);

  const leaves = async () => {
    const query = "per_page=100&received_from=2000-01-01T00:00:00Z&event_type=action.queue.leave";
    const res = await restCall(world.server, "GET", `/v1/repos/${repo.fullName}/logs?${query}`);
    expect(res.status).toBe(200);
    const out = new Map<number, string[]>();
    for (const e of [...res.json.events].reverse())
      (out.get(Number(e.pull_request)) ?? out.set(Number(e.pull_request), []).get(Number(e.pull_request))!).push(
        e.metadata.dequeue_code,
      );
    return out;
  };
  return Object.assign(world, {
    double,
    repo,
    actions,
    pulls,
    culprit,
    restartedAt: null,
    async restartAfterKill({ redeliver = true } = {}) {
      const child = world.server.child;
      await eventually(
        async () => expect(child.signalCode, world.server.output().slice(-3000)).toBe("SIGKILL"),
        300_000,
        100,
      );
      const output = world.server.output();
      const same = { YARDMASTER_DATA_DIR: first.dataDir, DATABASE_URL: first.db.url };
      world.server = await startServerProcess({ ...env, ...same });
      world.restartedAt = new Date();
      servers.push(world.server);
      if (redeliver) await world.redeliverFailed();
      return output;
    },
    async redeliverFailed() {
      await double.webhooks.settled();
      const failed = new Set(double.webhooks.failed().map((d) => d.guid));
      for (const d of double.webhooks.deliveries.filter((x) => failed.has(x.guid) && !x.redelivery)) {
        if (double.webhooks.deliveries.some((x) => x.guid === d.guid && x.status === "OK")) continue;
        double.webhooks.redeliver({ params: { delivery_id: String(d.id) } } as unknown as HandlerContext);
      }
      await double.webhooks.settled();
    },
    leaves,
    async settled(timeoutMs = 360_000) {
      return eventually(
        async () => {
          const left = await leaves();
          expect(
            [...left.keys()].sort((a, b) => a - b),
            world.server.output().slice(-2000),
          ).toEqual(pulls);
          return left;
        },
        timeoutMs,
        500,
      );
    },
    async git(...args: string[]) {
      const { runGit } = await import("../../../../services/forge/local/git/index.js");
      return (await runGit(repo.git.gitDir, args)).stdout.toString("utf8").trim();
    },
    async cleanup() {
      await actions.idle().catch(() => {});
      for (const s of servers.reverse()) {
        if (s.child.exitCode === null && s.child.signalCode === null) {
          const gone = new Promise((resolve) => s.child.once("exit", resolve));
          s.child.kill("SIGKILL");
          await gone;
        }
        if (s !== first) await s.db.drop();
      }
      await first.stop();
      await http.close();
      await double.stop();
    },
  });
}
