/**
 * `POST /v1/repos/{owner}/{repository}/pulls/{number}/scopes` (SendPullRequestScopes; docs/api.md
 * "Scopes", docs/merge-queue.md "Scopes from CI"): the scopes CI computed for a pull request, as
 * Mergify's CLI sends them (`mergify ci scopes-send`: `{scopes}`, with `all_scopes` for a
 * barrier). They replace those sent before, and the queue runner is told in the same transaction
 * (its inbox), so a queued pull request moves to its new lane.
 */
import type { ForgePort } from "../forge/index.js";
import { isForgeError } from "../forge/index.js";
import { DomainError } from "../contracts/index.js";
import { putPullRequestScopes, withTransaction, type Pool, type PoolClient } from "../store/index.js";
import { fullName, type RepoRequest } from "./caller.js";

/** What the handler needs: the pool, the forge (the pull request must exist), and the runner's hooks. */
export interface ScopeDeps {
  db: Pool;
  forge: ForgePort;
  /** Records the change for the queue runner in the same transaction (its inbox). */
  scopesChanged?: (client: PoolClient, repository: string, number: number) => Promise<void>;
  /** Called after the commit (wakes the runner). */
  scopesCommitted?: (repository: string) => void;
}

/** The QueueService method of the scopes route. */
export function scopeHandlers(deps: ScopeDeps) {
  return {
    async sendPullRequestScopes(req: RepoRequest & { number: bigint; scopes: string[]; allScopes?: boolean }) {
      const repo = fullName(req);
      const notFound = () => new DomainError("not_found", `pull request ${req.number} was not found in ${repo}`);
      if (req.number < 1n || req.number > BigInt(Number.MAX_SAFE_INTEGER)) throw notFound();
      const number = Number(req.number);
      try {
        await deps.forge.getPullRequest(repo, number);
      } catch (e) {
        throw isForgeError(e, "not_found") ? notFound() : e;
      }
      const sent = { scopes: [...new Set(req.scopes)].sort(), allScopes: req.allScopes === true };
      await withTransaction(deps.db, async (client) => {
        await putPullRequestScopes(client, repo, number, sent);
        await deps.scopesChanged?.(client as PoolClient, repo, number);
      });
      deps.scopesCommitted?.(repo);
      return {};
    },
  };
}
