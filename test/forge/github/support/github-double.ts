/**
 * A test double of GitHub's HTTP API, handed to the adapter as its `fetch`. Every request is
 * matched against GitHub's OpenAPI description and checked (openapi.ts); every answer is checked
 * against the operation's declared responses; a mismatch is recorded in `problems`, which each
 * test asserts empty. Authentication is GitHub's (double-credentials.ts): App endpoints need a JWT
 * signed with the App's private key (RS256, verified with the public key), other endpoints an
 * installation token the double issued, or a user token it knows. Faults (rate limits, 5xx,
 * 404...) can be queued for an operation (double-faults.ts). Operations are answered by
 * double-handlers.ts. The repositories are real bare git repositories (double-state.ts).
 */
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { answerOperation, type Answer } from "./double-handlers.js";
import { answerDraftMutation } from "./double-app-handlers.js";
import { DoubleCredentials } from "./double-credentials.js";
import { DoubleEvents } from "./double-events.js";
import { DoubleFaults, type Fault } from "./double-faults.js";
import { answerResponse } from "./double-response.js";
import { answerGraphql } from "./double-graphql.js";
import { DoubleRepo } from "./double-state.js";
import { DoubleTraffic, etagOf, isContentCreating, matchesEtag } from "./double-traffic.js";
import { DoubleWebhooks, type WebhookTarget } from "./double-webhooks.js";
import { ACTIONS_LOG_PATH, serveJobLog, type DoubleRerunner } from "./double-workflow-runs.js";
import { GithubOpenApi } from "./openapi.js";

/** One request as the double saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  operationId: string | null;
  query: Record<string, string>;
  body: unknown;
}

export class GithubDouble {
  readonly problems: string[] = [];
  /** What re-runs Actions jobs (DoubleActions sets itself), for the re-run operations. */
  rerunner: DoubleRerunner | null = null;
  readonly requests: SeenRequest[] = [];
  readonly appId = 4242;
  readonly appSlug = "yardmaster-test";
  /** The App's key pair, the installation and user tokens (double-credentials.ts). */
  private readonly credentials = new DoubleCredentials(this.appId);
  /** The App's private key as GitHub hands it out (PKCS#1 PEM). */
  readonly privateKey = this.credentials.privateKey;
  private readonly repos = new Map<string, DoubleRepo>();
  /** User tokens: token → user and the repositories (lower case) it can read. */
  readonly users = this.credentials.users;
  /** Faults queued for operations (double-faults.ts). */
  private readonly faults = new DoubleFaults();
  private nextId = 100;
  /** Fork branches GitHub is updating in the background ("owner/name#N"): reads left before the new head lands. */
  readonly pendingUpdates = new Map<string, { reads: number; from: string; to: string }>();
  clock = new Date("2026-03-02T10:00:00Z");
  /** When set, the double's time (epoch ms) instead of `clock`: a clock that runs (the queue's tests, the benchmark). */
  clockSource: (() => number) | null = null;
  /** Rate limits, conditional requests and the requests per route (double-traffic.ts). */
  readonly traffic = new DoubleTraffic(() => this.now().getTime());
  /** The App's webhook: deliveries, lost ones, the delivery API (double-webhooks.ts). */
  readonly webhooks = new DoubleWebhooks(() => this.now());
  /** Repository changes turned into webhook events (double-events.ts). */
  readonly events = new DoubleEvents(
    this.webhooks,
    () => ({ login: `${this.appSlug}[bot]`, id: this.appId }),
    () => this.now(),
  );

  private constructor(private readonly dir: string) {}

  static async start(): Promise<GithubDouble> {
    return new GithubDouble(await mkdtemp(path.join(os.tmpdir(), "ym-github-double-")));
  }

  async stop(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  /** A fresh id for GitHub objects. */
  id(): number {
    return this.nextId++;
  }

  now = (): Date => new Date(this.clockSource ? this.clockSource() : this.clock);

  async addRepo(
    fullName: string,
    opts: { defaultBranch?: string; files?: Record<string, string> } = {},
  ): Promise<DoubleRepo> {
    const repo = await DoubleRepo.create(
      this.dir,
      fullName,
      { id: this.id(), installationId: this.id() },
      opts.defaultBranch ?? "main",
      opts.files ?? {},
      this.now,
    );
    this.repos.set(fullName.toLowerCase(), repo);
    if (this.webhooks.enabled) await this.events.baseline(repo);
    return repo;
  }

  /**
   * A repository whose git is a copy of `template`'s (its commits, branches and tags; none of its
   * pull requests or other platform data), with ids of its own: many alike repositories without the
   * cost of building each (`npm run bench:scale`).
   */
  async copyRepo(fullName: string, template: DoubleRepo): Promise<DoubleRepo> {
    const gitDir = path.join(this.dir, `${fullName.replace("/", "__")}.git`);
    await cp(template.git.gitDir, gitDir, { recursive: true, errorOnExist: true, force: false });
    const git = { gitDir, name: fullName };
    const repo = new DoubleRepo(fullName, this.id(), this.id(), template.defaultBranch, git, this.now);
    this.repos.set(fullName.toLowerCase(), repo);
    return repo;
  }

  /**
   * Sends the App's webhook deliveries to `target` (signed with `secret`) from now on: what the
   * repositories hold now is taken as already reported; each later change is an event.
   */
  async deliverWebhooksTo(target: WebhookTarget, secret: string): Promise<void> {
    this.webhooks.deliverTo(target, secret);
    for (const repo of this.repos.values()) await this.events.baseline(repo);
  }

  /**
   * Reports the changes a test made to `repo` directly (not through the API) as webhook events,
   * as done by `sender` (default octocat), and waits until they were delivered.
   */
  async changed(repo: DoubleRepo, sender = { login: "octocat", id: 583231 }): Promise<void> {
    await this.events.observe(repo, sender);
    await this.webhooks.settled();
  }

  /** Every repository of the double. */
  allRepos(): DoubleRepo[] {
    return [...this.repos.values()];
  }

  repo(owner: string, name: string): DoubleRepo | undefined {
    return this.repos.get(`${owner}/${name}`.toLowerCase());
  }

  /** Queues a fault for the next request(s) of an operation. */
  inject(fault: Fault): void {
    this.faults.inject(fault);
  }

  /** Faults queued and not yet answered (each test expects none left). */
  unusedFaults(): Fault[] {
    return this.faults.unused();
  }

  /** The requests made of one operation. */
  calls(operationId: string): SeenRequest[] {
    return this.requests.filter((r) => r.operationId === operationId);
  }

  /** Issues an installation access token (POST /app/installations/{id}/access_tokens). */
  issueInstallationToken(installationId = 0): string {
    return this.credentials.issueInstallationToken(installationId);
  }

  /** The installation an installation token was issued for; undefined for any other credential. */
  installationOf(token: string): number | undefined {
    return this.credentials.installationTokens.get(token);
  }

  /** The `fetch` to give the adapter. */
  fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = (init.method ?? "GET").toUpperCase();
    const text = typeof init.body === "string" ? init.body : undefined;
    const body = text === undefined || text === "" ? undefined : JSON.parse(text);
    const headers = new Headers(init.headers);
    const authorization = headers.get("authorization") ?? "";
    const installation = this.credentials.installationTokens.get(authorization.split(" ")[1] ?? "") ?? null;
    if (url.pathname.startsWith(ACTIONS_LOG_PATH)) return serveJobLog(this, url, headers.get("authorization"));
    if (url.pathname === "/graphql" && method === "POST")
      return answerResponse(await this.graphqlRequest(body, authorization, installation), url);

    const matched = GithubOpenApi.load().match(method, url.pathname);
    const seen: SeenRequest = {
      method,
      path: url.pathname,
      operationId: matched?.operation.operationId ?? null,
      query: Object.fromEntries(url.searchParams),
      body,
    };
    this.requests.push(seen);
    if (!matched) {
      this.problems.push(`${method} ${url.pathname}: no such operation in GitHub's OpenAPI description`);
      return answerResponse(
        { status: 404, body: { message: "Not Found", documentation_url: "https://docs.github.com/rest" } },
        url,
      );
    }
    const { operation, pathParams } = matched;
    const api = GithubOpenApi.load();
    this.problems.push(...api.checkRequest(operation, pathParams, url.searchParams, body));

    const route = operation.operationId;
    const denied = this.credentials.authorize(route, authorization, this.problems);
    const refused =
      denied === null && installation !== null
        ? this.traffic.admit(installation, "core", route, isContentCreating(method))
        : null;
    let answer =
      denied ??
      refused ??
      this.faults.take(route) ??
      (await answerOperation(this, route, pathParams, url.searchParams, body, authorization));
    this.problems.push(...api.checkResponse(operation, answer.status, answer.body));
    // Conditional requests: a GET answer carries its ETag; the same ETag in If-None-Match is a 304.
    if (method === "GET" && answer.status === 200 && answer.body !== undefined) {
      const etag = etagOf(answer.body);
      answer = matchesEtag(headers.get("if-none-match"), etag)
        ? { status: 304, headers: { etag } }
        : { ...answer, headers: { ...answer.headers, etag } };
    }
    this.traffic.record(installation, "core", route, answer.status, refused !== null);
    if (installation !== null)
      answer = { ...answer, headers: { ...this.traffic.headers(installation, "core"), ...answer.headers } };
    const repo = pathParams.owner && pathParams.repo ? this.repo(pathParams.owner, pathParams.repo) : undefined;
    if (repo && (method !== "GET" || this.pendingUpdates.size > 0)) await this.events.observe(repo);
    return answerResponse(answer, url);
  };

  /** A GraphQL request: counted per operation name, limited as GitHub's GraphQL resource (double-graphql.ts answers it). */
  private async graphqlRequest(
    body: { query?: string; variables?: Record<string, unknown> } | undefined,
    authorization: string,
    installation: number | null,
  ): Promise<Answer> {
    const query = String(body?.query ?? "");
    const [, kind = "query", name = "anonymous"] = /^\s*(query|mutation)\s*(\w*)/.exec(query) ?? [];
    const route = `graphql ${name || "anonymous"}`;
    this.requests.push({ method: "POST", path: "/graphql", operationId: route, query: {}, body });
    const refused =
      installation !== null ? this.traffic.admit(installation, "graphql", route, kind === "mutation") : null;
    let answer =
      refused ??
      this.faults.take(route) ??
      (await answerDraftMutation(this, body, authorization)) ??
      (await answerGraphql(this, body, authorization));
    this.traffic.record(installation, "graphql", route, answer.status, refused !== null);
    if (installation !== null)
      answer = { ...answer, headers: { ...this.traffic.headers(installation, "graphql"), ...answer.headers } };
    if (kind === "mutation") for (const repo of this.repos.values()) await this.events.observe(repo);
    return answer;
  }

  /** Whether `token` is an installation access token the double issued. */
  isInstallationToken(token: string): boolean {
    return this.credentials.installationTokens.has(token);
  }
}

/**
 * Runs one double for a test file: started before the tests, stopped after, and after each test
 * it asserts that every request the adapter made conformed to GitHub's OpenAPI description and
 * that every fault the test injected was used.
 */
export function useGithubDouble(receive: (double: GithubDouble) => void): void {
  let double: GithubDouble;
  beforeAll(async () => {
    double = await GithubDouble.start();
    receive(double);
  });
  afterAll(async () => {
    await double.stop();
  });
  afterEach(() => {
    expect(double.problems.splice(0)).toEqual([]);
    expect(double.unusedFaults()).toEqual([]);
  });
}
