/**
 * A deployment of several replicas against the GitHub test double, all real but GitHub: replica
 * processes (replica-processes.ts) on one PostgreSQL, the double served over HTTP
 * (test/forge/github/support/double-server.ts), webhooks signed and delivered to whichever replica
 * is in service as through a load balancer (webhook-deliveries.ts), and a CI that passes every
 * check: the pull requests' own heads pass when opened, and each draft pull request the queue opens
 * passes as soon as it exists, its `check_run` webhook delivered like any other.
 *
 * Named builders: a repository with the queue's configuration (checks `ci` required, batches of
 * one) and `octocat` as a writer; pull requests adding a file each; `@yardmaster queue` comments.
 * The world counts each pull request's merges as the double answered them.
 */
import type { DoubleRepo } from "../forge/github/support/double-state.js";
import { serveGithubDouble, type AnsweredRequest, type DoubleServer } from "../forge/github/support/double-server.js";
import { GithubDouble } from "../forge/github/support/github-double.js";
import {
  checkRunPayload,
  commentPayload,
  WebhookSender,
  type Delivery,
} from "../forge/github/support/webhook-deliveries.js";
import { startReplica, type ReplicaProcess, type ReplicaSetting } from "./replica-processes.js";

/** The configuration every repository of the world has. */
export const REPLICA_WORLD_CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    merge_conditions:",
  "      - check-success=ci",
  "merge_queue:",
  "  max_parallel_checks: 1",
  "",
].join("\n");

/** The App's webhook secret in the world (deliveries signed with it are accepted). */
export const WEBHOOK_SECRET = "replica-world-webhook-secret";

export interface ReplicaWorld {
  double: GithubDouble;
  api: DoubleServer;
  sender: WebhookSender;
  /** The replicas started, by name (stopped ones stay, for their output). */
  replicas: Map<string, ReplicaProcess>;
  /** The replicas webhooks are delivered to (the load balancer's backends); the test takes them in and out. */
  inService: Set<string>;
  /** Every delivery made, in order. */
  deliveries: Delivery[];
  /** Answered `pulls/merge` requests (status 200) by "owner/name#number". */
  merges: Map<string, number>;
  /** Failures of the world's own CI and observers (each test expects none). */
  problems: string[];
  /** Starts a replica (`env` and `nodeArgs` added to the world's) and puts it in service. */
  start(name: string, env?: NodeJS.ProcessEnv, nodeArgs?: string[]): Promise<ReplicaProcess>;
  /** A repository with the world's configuration and `pulls` pull requests. @returns it and their numbers */
  repository(fullName: string, pulls: number): Promise<{ repo: DoubleRepo; numbers: number[] }>;
  /** Repositories alike but for their names, each as {@link repository} makes one. */
  repositories(names: string[], pulls: number): Promise<{ repo: DoubleRepo; numbers: number[] }[]>;
  /** Delivers `@yardmaster queue` on pull request `number` of `repo`. */
  queue(repo: DoubleRepo, number: number): Promise<Delivery>;
  /** Calls `fn` for each request the double answers from now on (takeover timings). */
  watch(fn: (request: AnsweredRequest) => void): void;
  close(): Promise<void>;
}

/**
 * Starts the double and its HTTP server for replicas on `databaseUrl` (migrated by the first
 * replica; a replica started with DATABASE_URL in its `env` uses that database instead). `env` goes
 * to every replica; `config` is every repository's configuration (default {@link REPLICA_WORLD_CONFIG}).
 */
export async function replicaWorld(
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
  config = REPLICA_WORLD_CONFIG,
): Promise<ReplicaWorld> {
  const double = await GithubDouble.start();
  const secret = WEBHOOK_SECRET;
  const problems: string[] = [];
  const merges = new Map<string, number>();
  const watchers: ((r: AnsweredRequest) => void)[] = [];
  const replicas = new Map<string, ReplicaProcess>();
  const inService = new Set<string>();
  const deliveries: Delivery[] = [];
  const sender = new WebhookSender(secret, () => [...inService].map((n) => replicas.get(n)!.url));
  const deliver = async (event: string, payload: object) => {
    const d = await sender.deliver(event, payload);
    deliveries.push(d);
    return d;
  };

  /** The world's CI: a draft the queue opened passes at once; its check_run webhook follows. */
  async function passDraft(request: AnsweredRequest): Promise<void> {
    const [owner, name] = request.path.split("/").slice(2, 4);
    const repo = double.repo(owner, name)!;
    const head = String((request.body as { head: string }).head);
    const pull = [...repo.pulls.values()].find((p) => p.headRef === head && p.state === "open");
    if (!pull) return;
    const sha = await repo.headSha(pull);
    passCheck(repo, sha);
    await deliver("check_run", checkRunPayload(repo, sha));
  }

  const api = await serveGithubDouble(double, (r) => {
    if (r.operationId === "pulls/merge" && r.status === 200) {
      const key = `${r.path.split("/").slice(2, 4).join("/")}#${r.path.split("/")[5]}`;
      merges.set(key, (merges.get(key) ?? 0) + 1);
    }
    if (r.operationId === "pulls/create" && r.status === 201 && (r.body as { draft?: boolean }).draft) {
      passDraft(r).catch((e: Error) => problems.push(`CI of ${r.path}: ${e.message}`));
    }
    for (const fn of watchers) fn(r);
  });

  const setting: ReplicaSetting = {
    databaseUrl,
    githubApiUrl: api.url,
    appId: double.appId,
    privateKey: double.privateKey,
    webhookSecret: secret,
    adminKey: "replica-world-admin-key-0123456789",
    env,
  };

  /** Repositories alike but for their names (ReplicaWorld.repositories). */
  async function repositories(names: string[], pulls: number) {
    // The first is built; the others are copies of its git (branches included): no commit to write.
    const first = await double.addRepo(names[0], { files: { ".yardmaster.yml": config } });
    const tips: string[] = [];
    for (let i = 1; i <= pulls; i++)
      tips.push(await first.commit(`feature-${i}`, { [`f${i}.txt`]: `${names[0]} ${i}\n` }, `Add f${i}`));
    const repos = [first];
    for (const name of names.slice(1)) repos.push(await double.copyRepo(name, first));
    const out = [];
    for (const repo of repos) {
      repo.collaborators.set("octocat", { role_name: "write", permission: "write" });
      const numbers: number[] = [];
      for (let i = 1; i <= pulls; i++) {
        numbers.push((await repo.openPull({ head: `feature-${i}`, title: `Add f${i}` })).number);
        passCheck(repo, tips[i - 1]);
      }
      out.push({ repo, numbers });
    }
    return out;
  }

  return {
    double,
    api,
    sender,
    replicas,
    inService,
    deliveries,
    merges,
    problems,
    async start(name, more = {}, nodeArgs = []) {
      const r = await startReplica(name, { ...setting, env: { ...setting.env, ...more }, nodeArgs });
      replicas.set(name, r);
      inService.add(name);
      return r;
    },
    async repository(fullName, pulls) {
      return (await repositories([fullName], pulls))[0];
    },
    repositories,
    queue: (repo, number) => deliver("issue_comment", commentPayload(repo, number, "@yardmaster queue")),
    watch: (fn) => void watchers.push(fn),
    async close() {
      for (const r of replicas.values()) await r.cleanup();
      await api.close();
      await double.stop();
    },
  };

  /** A completed, successful `ci` check run of another App (GitHub Actions) on `sha`. */
  function passCheck(repo: DoubleRepo, sha: string): void {
    const at = double.now();
    repo.checkRuns.push({
      id: double.id(),
      name: "ci",
      headSha: sha,
      status: "completed",
      conclusion: "success",
      title: null,
      summary: null,
      appId: 15368,
      appSlug: "github-actions",
      detailsUrl: null,
      startedAt: at,
      completedAt: at,
    });
  }
}
