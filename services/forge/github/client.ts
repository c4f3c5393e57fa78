/**
 * Octokit for Yardmaster as a GitHub App (docs/github.md "Authentication" and "Errors and rate limits").
 * - One app-level client signs requests with a JWT (app id + private key, `@octokit/auth-app`).
 * - Each repository is served by its installation: `GET /repos/{owner}/{repo}/installation`
 *   gives the installation id (cached one hour), and one client per installation uses
 *   installation access tokens (created, cached and renewed by `@octokit/auth-app`).
 * - `@octokit/plugin-retry` retries network failures and 5xx answers (3 times, 1 s, 4 s, 9 s);
 *   `@octokit/plugin-throttling` retries once after a secondary rate limit whose `retry-after` is
 *   at most a minute; otherwise (and for a primary limit, which lasts until the hourly reset) the
 *   error reaches errors.ts and becomes `rate_limited` with the wait.
 * - Each installation's reads are conditional requests (conditional-requests.ts: a 304 does not
 *   count against the primary limit), and its content-creating requests are paced under GitHub's
 *   secondary limit (content-pacing.ts); the rate-limit headers of its answers are kept
 *   (rate-budget.ts) for reconciliation (docs/github.md "Request budget").
 */
import { createAppAuth } from "@octokit/auth-app";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import { ForgeError, type RepoName } from "../types.js";
import { ConditionalCache, useConditionalRequests } from "./conditional-requests.js";
import { ContentPacer, createsContent, GITHUB_CONTENT_LIMITS, type ContentLimits } from "./content-pacing.js";
import { toForgeError } from "./errors.js";
import { RateBudget, type RateFigures } from "./rate-budget.js";
import { repoParams } from "./repo-name.js";
import { TtlCache } from "./ttl-cache.js";

/** Octokit REST with the retry and throttling plugins. */
export const GithubOctokit = Octokit.plugin(retry, throttling);
/** A client made with {@link GithubOctokit} (app, installation or user token). */
export type GithubOctokit = InstanceType<typeof GithubOctokit>;

/** A pino-compatible logger (only these methods are used). */
export interface GithubLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** How the HTTP client behaves; every field has a production default. */
export interface GithubHttpOptions {
  /** API root; default `https://api.github.com` (GitHub Enterprise Server: `https://HOST/api/v3`). */
  baseUrl?: string;
  /** The `fetch` used for every request (tests: a double of GitHub); default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Length of one second of the plugins' retry waits, in ms; default 1000 (tests: 0, so a retry does not wait). */
  secondMs?: number;
  /** Retries of a request hit by a secondary rate limit inside one call; default 1 (a primary limit is never waited for). */
  rateLimitRetries?: number;
  /** Longest rate-limit wait accepted inside a call, in seconds; longer waits end the call with `rate_limited`. Default 60. */
  maxRateLimitWaitSeconds?: number;
  /**
   * Pace content-creating requests under GitHub's secondary limit (content-pacing.ts); default true.
   * Tests against a double turn it off.
   */
  spaceWrites?: boolean;
  /** The pacing's limits; default GitHub's (1 s apart, 80 a minute, 500 an hour). */
  contentLimits?: Partial<ContentLimits>;
  /** Send reads as conditional requests, with their answers cached by ETag; default true. */
  conditionalRequests?: boolean;
  /** The clock, epoch milliseconds (rate-limit reset times, caches); default `Date.now`. */
  now?: () => number;
  log?: GithubLogger;
}

/** A limiter group that lets every job through at once (used when `spaceWrites` is false). */
const UNSPACED = { key: () => ({ schedule: (_opts: unknown, job: () => Promise<unknown>) => job() }) };

const SILENT: GithubLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** The Octokit constructor options shared by app, installation and user-token clients. */
export function octokitOptions(http: GithubHttpOptions, throttleId: string): Record<string, unknown> {
  const log = http.log ?? SILENT;
  const secondMs = http.secondMs ?? 1000;
  const retries = http.rateLimitRetries ?? 1;
  const maxWait = http.maxRateLimitWaitSeconds ?? 60;
  // A secondary limit asks for a short pause (retry-after, seconds): retried in the call. A primary
  // limit lasts until the hourly reset: the call ends with rate_limited and the reset time, so the
  // caller schedules the retry (a durable job) instead of holding a request open.
  const onLimit =
    (kind: "primary" | "secondary") =>
    (retryAfter: number, options: { method: string; url: string }, _kit: unknown, retryCount: number) => {
      const again = kind === "secondary" && retryCount < retries && retryAfter <= maxWait;
      log.warn(
        { method: options.method, url: options.url, retryAfterSeconds: retryAfter, retryCount, retrying: again },
        `GitHub ${kind} rate limit`,
      );
      return again;
    };
  return {
    baseUrl: http.baseUrl ?? "https://api.github.com",
    userAgent: "yardmaster",
    request: http.fetch ? { fetch: http.fetch } : {},
    log: {
      debug: (msg: string) => log.debug({ octokit: msg }),
      info: (msg: string) => log.info({ octokit: msg }),
      warn: (msg: string) => log.warn({ octokit: msg }),
      error: (msg: string) => log.error({ octokit: msg }),
    },
    // 405/409/422 are answers about the request (conflicts, validation), not failures to retry;
    // 403/429 rate limits belong to the throttling plugin.
    retry: { doNotRetry: [400, 401, 403, 404, 405, 409, 410, 422, 429, 451], retryAfterBaseValue: secondMs },
    // Content-creating requests are paced by content-pacing.ts (sliding windows), not by the
    // plugin's write groups.
    throttle: {
      id: throttleId,
      retryAfterBaseValue: secondMs,
      onRateLimit: onLimit("primary"),
      onSecondaryRateLimit: onLimit("secondary"),
      write: UNSPACED,
      notifications: UNSPACED,
    },
  };
}

/** What the adapter needs to reach GitHub as an App. */
export interface GithubAppOptions extends GithubHttpOptions {
  /** The App's id (GITHUB_APP_ID). */
  appId: number | string;
  /** The App's private key, PEM (PKCS#1 as GitHub issues it, or PKCS#8); `\n` escapes are accepted (GITHUB_PRIVATE_KEY). */
  privateKey: string;
}

/** Installation-scoped clients, one per installation, found by repository. */
export interface GithubAppClient {
  appId: number;
  /**
   * The client acting in `repo` as the App's installation there.
   * @throws ForgeError not_found when the App is not installed on the repository; invalid for a bad name
   */
  forRepo(repo: RepoName): Promise<GithubOctokit>;
  /**
   * The login GitHub gives the App's own actions in `repo` (`<app slug>[bot]`: the `merged_by`
   * of its merges, the author of its comments), from the installation.
   * @throws ForgeError as {@link forRepo}
   */
  botLogin(repo: RepoName): Promise<string>;
  /**
   * The App's slug as the installation on `repo` reports it (classic branch protection names
   * apps by slug).
   * @throws ForgeError as {@link forRepo}
   */
  appSlug(repo: RepoName): Promise<string>;
  /**
   * Every installation of the App (`GET /app/installations`, all pages, with the App's JWT): its
   * account and the permissions and events it granted.
   */
  installations(): Promise<{ id: number; account: string; permissions: Record<string, string>; events: string[] }[]>;
  /** Forgets the installation of `repo` (after GitHub said the App lost access). */
  forget(repo: RepoName): void;
  now(): number;
  /**
   * What is left of the REST rate limit of `repo`'s installation, as its last answer said; null
   * before any answer or when the installation is not known yet. Makes no request.
   */
  rateFigures(repo: RepoName): RateFigures | null;
  /** The client acting as the App itself (JWT): the App's own endpoints, such as its webhook deliveries. */
  readonly app: GithubOctokit;
  /** The conditional-request cache (its figures are the benchmark's). */
  readonly conditional: ConditionalCache;
}

/** Normalises a PEM given through an environment variable (literal `\n` sequences). */
export function normalizePrivateKey(pem: string): string {
  return pem.includes("\\n") ? pem.replace(/\\n/g, "\n") : pem;
}

/**
 * Creates the App client.
 * @throws ForgeError invalid when the app id is not a positive integer or the key is not a PEM
 */
export function createGithubAppClient(opts: GithubAppOptions): GithubAppClient {
  const appId = Number(opts.appId);
  if (!Number.isSafeInteger(appId) || appId <= 0)
    throw new ForgeError("invalid", `GITHUB_APP_ID: "${opts.appId}" is not a positive integer`);
  const privateKey = normalizePrivateKey(opts.privateKey);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
    throw new ForgeError(
      "invalid",
      "GITHUB_PRIVATE_KEY: not a PEM private key (expected -----BEGIN ... PRIVATE KEY-----)",
    );
  }
  const now = opts.now ?? Date.now;
  const common = octokitOptions(opts, `yardmaster-app-${appId}`);
  const app = new GithubOctokit({ ...common, authStrategy: createAppAuth, auth: { appId, privateKey } });
  const installations = new TtlCache<string, { id: number; slug: string }>(60 * 60_000, 10_000, now);
  const clients = new Map<number, GithubOctokit>();
  const conditional = new ConditionalCache();
  const budget = new RateBudget();
  const limits: ContentLimits = { ...GITHUB_CONTENT_LIMITS, ...opts.contentLimits };
  const secondMs = opts.secondMs ?? 1000;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, (ms * secondMs) / 1000));

  /** Adds the installation's hooks: conditional reads and rate figures, then pacing of content-creating requests. */
  function instrument(client: GithubOctokit, installationId: number): void {
    if (opts.conditionalRequests !== false) useConditionalRequests(client, conditional, budget, String(installationId));
    if (opts.spaceWrites === false) return;
    const pacer = new ContentPacer(limits, now, sleep);
    client.hook.before("request", async (options) => {
      if (createsContent(String(options.method), String(options.url), options)) await pacer.slot();
    });
  }

  async function installationOf(repo: RepoName): Promise<{ id: number; slug: string }> {
    const params = repoParams(repo);
    const key = repo.toLowerCase();
    let installation = installations.get(key);
    if (installation === undefined) {
      try {
        const { data } = await app.request("GET /repos/{owner}/{repo}/installation", params);
        installation = { id: data.id, slug: data.app_slug };
      } catch (e) {
        const err = toForgeError(e, `finding the GitHub App installation of ${repo}`, now());
        if (err.kind !== "not_found") throw err;
        const message = `the GitHub App is not installed on ${repo} (or the repository does not exist)`;
        throw new ForgeError("not_found", message, undefined, { cause: e });
      }
      installations.set(key, installation);
    }
    return installation;
  }

  return {
    appId,
    now,
    app,
    conditional,
    rateFigures(repo) {
      const installation = installations.get(repo.toLowerCase());
      return installation ? budget.get(String(installation.id)) : null;
    },
    forget(repo) {
      installations.delete(repo.toLowerCase());
    },
    async botLogin(repo) {
      return `${(await installationOf(repo)).slug}[bot]`;
    },
    async installations() {
      const list = await app.paginate("GET /app/installations", { per_page: 100 });
      return list.map((i) => ({
        id: i.id,
        account: ((i.account as { login?: string; name?: string } | null)?.login ??
          (i.account as { name?: string } | null)?.name ??
          String(i.id)) as string,
        permissions: i.permissions as Record<string, string>,
        events: i.events,
      }));
    },
    async appSlug(repo) {
      return (await installationOf(repo)).slug;
    },
    async forRepo(repo) {
      const installationId = (await installationOf(repo)).id;
      let client = clients.get(installationId);
      if (!client) {
        client = (await app.auth({
          type: "installation",
          installationId,
          factory: (auth: Record<string, unknown>) =>
            new GithubOctokit({ ...common, authStrategy: createAppAuth, auth }),
        })) as GithubOctokit;
        instrument(client, installationId);
        clients.set(installationId, client);
      }
      return client;
    },
  };
}
