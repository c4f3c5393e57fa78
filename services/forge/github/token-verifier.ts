/**
 * GitHub tokens as REST/RPC credentials (services/auth/authorizer.ts `PlatformTokenVerifier`;
 * docs/auth.md; docs/github.md "GitHub tokens as API credentials"). A bearer that looks like a GitHub token is
 * accepted for a repository when GitHub says its holder can read it:
 * - recognised prefixes: `ghp_` (classic personal), `github_pat_` (fine-grained), `gho_` (OAuth),
 *   `ghu_` (App user-to-server), `ghs_` (App installation, e.g. Actions' `GITHUB_TOKEN`);
 * - identify: `GET /user` (the user's id and login); for an installation token, which has no user,
 *   `GET /installation/repositories` proves the token valid and the actor is the installation;
 * - canRead: `GET /repos/{owner}/{repo}` answers 200 and, when it reports `permissions`, `pull` is
 *   true.
 * Verdicts are cached for {@link TOKEN_CACHE_TTL_MS} (keyed by the token's SHA-256, never the
 * token) in a bounded cache. A GitHub failure (5xx, network, rate limit) denies without caching:
 * authentication fails closed.
 */
import { createHash } from "node:crypto";
import type { ActorInfo, PlatformTokenVerifier } from "../../auth/index.js";
import { GithubOctokit, octokitOptions, type GithubHttpOptions } from "./client.js";
import { githubStatus, rateLimitWaitMs } from "./errors.js";
import { repoParams } from "./repo-name.js";
import { TtlCache } from "./ttl-cache.js";

/** How long a verdict is reused, in milliseconds. */
export const TOKEN_CACHE_TTL_MS = 60_000;
/** The most verdicts kept. */
export const TOKEN_CACHE_ENTRIES = 10_000;

const TOKEN = /^(ghp_|gho_|ghu_|ghs_)[A-Za-z0-9]{20,255}$|^github_pat_[A-Za-z0-9_]{20,255}$/;

/** Whether `bearer` has the form of a GitHub token. */
export function looksLikeGithubToken(bearer: string): boolean {
  return TOKEN.test(bearer);
}

const digest = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Builds the verifier. `http` points it at GitHub (or GitHub Enterprise Server, or a test double). */
export function createGithubTokenVerifier(http: GithubHttpOptions = {}): PlatformTokenVerifier {
  const now = http.now ?? Date.now;
  const actors = new TtlCache<string, ActorInfo | null>(TOKEN_CACHE_TTL_MS, TOKEN_CACHE_ENTRIES, now);
  const reads = new TtlCache<string, boolean>(TOKEN_CACHE_TTL_MS, TOKEN_CACHE_ENTRIES, now);
  const common = octokitOptions({ ...http, rateLimitRetries: 0 }, "yardmaster-user-tokens");
  const clientFor = (token: string) => new GithubOctokit({ ...common, auth: token });
  const log = http.log;

  /** A definite answer of GitHub (cached), or undefined for a failure to ask (not cached). */
  async function ask<T>(
    what: string,
    fn: () => Promise<T>,
    refused: (status: number) => T | undefined,
  ): Promise<T | undefined> {
    try {
      return await fn();
    } catch (e) {
      const status = githubStatus(e);
      const limited = rateLimitWaitMs(e, now()) !== null;
      const verdict = status !== null && status < 500 && !limited ? refused(status) : undefined;
      if (verdict === undefined) log?.warn({ err: e, status }, `GitHub could not ${what}; denying this request`);
      return verdict;
    }
  }

  async function identifyUncached(token: string): Promise<ActorInfo | null | undefined> {
    const gh = clientFor(token);
    const user = await ask<ActorInfo | null | "no-user">(
      "identify a token",
      async () => {
        const { data } = await gh.rest.users.getAuthenticated();
        return { type: "user", id: data.id, name: data.login };
      },
      (status) =>
        status === 401
          ? null
          : status === 403 && token.startsWith("ghs_")
            ? "no-user"
            : status === 403 || status === 404
              ? null
              : undefined,
    );
    if (user !== "no-user") return user;
    return ask(
      "identify an installation token",
      async () => {
        await gh.rest.apps.listReposAccessibleToInstallation({ per_page: 1 });
        return {
          type: "application",
          id: `github-installation-token:${digest(token).slice(0, 12)}`,
          name: "GitHub App installation token",
        } as ActorInfo;
      },
      (status) => (status === 401 || status === 403 ? null : undefined),
    );
  }

  return {
    recognizes: looksLikeGithubToken,

    async identify(bearer) {
      if (!looksLikeGithubToken(bearer)) return null;
      const key = digest(bearer);
      const cached = actors.get(key);
      if (cached !== undefined) return cached;
      const actor = await identifyUncached(bearer);
      if (actor === undefined) return null;
      actors.set(key, actor);
      return actor;
    },

    async canRead(bearer, repository) {
      if (!looksLikeGithubToken(bearer)) return false;
      let params;
      try {
        params = repoParams(repository);
      } catch {
        return false;
      }
      const key = `${digest(bearer)} ${repository.toLowerCase()}`;
      const cached = reads.get(key);
      if (cached !== undefined) return cached;
      const verdict = await ask(
        "check repository access",
        async () => {
          const { data } = await clientFor(bearer).rest.repos.get(params);
          return data.permissions ? data.permissions.pull === true : true;
        },
        (status) => (status === 401 || status === 403 || status === 404 ? false : undefined),
      );
      if (verdict === undefined) return false;
      reads.set(key, verdict);
      return verdict;
    },
  };
}
