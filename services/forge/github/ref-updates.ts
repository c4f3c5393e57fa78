/**
 * Several refs written in one request: GitHub's GraphQL mutation `updateRefs`
 * (https://docs.github.com/en/graphql/reference/mutations#updaterefs), which creates, moves and
 * deletes refs of one repository atomically ("if one of them is rejected, no other ref will be
 * modified"): an `afterOid` of forty zeros deletes the ref, `force` allows a move that is not a
 * fast-forward. Used where the REST API needs one request per ref: a speculative branch's final
 * move with its temporary branch's deletion, and a batch's two notes refs (docs/github.md "Request
 * budget"). The mutation names the repository by its node id, read once with `GET {r}` and kept
 * (a node id never changes; a renamed repository is another key).
 */
import type { Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";
import { TtlCache } from "./ttl-cache.js";

/** The mutation, exported so the GitHub test double can recognise it. */
export const UPDATE_REFS_MUTATION = `mutation UpdateRefs($repositoryId: ID!, $refUpdates: [RefUpdate!]!) {
  updateRefs(input: { repositoryId: $repositoryId, refUpdates: $refUpdates }) { clientMutationId }
}`;

/** The `afterOid` that deletes a ref. */
export const DELETED_OID = "0000000000000000000000000000000000000000";

/** One ref of an {@link updateRefs} call (GitHub's `RefUpdate` input). */
export interface RefUpdate {
  /** The full ref name, `refs/heads/...` or `refs/notes/...`. */
  name: string;
  afterOid: Sha;
  /** Allow a move that is not a fast-forward (default false: refused, and with it the whole call). */
  force?: boolean;
}

/** How long a repository's node id is kept, ms. */
const NODE_ID_TTL_MS = 24 * 3_600_000;

/** The repositories' node ids (`GET {r}` once per repository and day). */
export class RepositoryNodeIds {
  private readonly ids: TtlCache<string, Promise<string>>;

  /** @param now the clock, epoch milliseconds */
  constructor(now: () => number) {
    this.ids = new TtlCache(NODE_ID_TTL_MS, 10_000, now);
  }

  /**
   * The node id of `params`' repository, from `read` (default `GET /repos/{o}/{r}`; the adapter
   * passes its kept answer of that read, branch-reads.ts: a node id never changes).
   * @throws the Octokit error of the read
   */
  idOf(
    gh: GithubOctokit,
    params: RepoParams,
    read: () => Promise<string> = () => gh.rest.repos.get(params).then((r) => r.data.node_id),
  ): Promise<string> {
    const key = `${params.owner}/${params.repo}`.toLowerCase();
    let id = this.ids.get(key);
    if (id === undefined) {
      id = read();
      this.ids.set(key, id);
      id.catch(() => this.ids.delete(key));
    }
    return id;
  }
}

/** What a ref writer needs: the repository's node id. */
export type RepositoryIdOf = () => Promise<string>;

/**
 * Applies `updates` in one request, all or none.
 * @throws the GraphQL client's error: a GraphQL error answer (`errors`) when GitHub refused an
 *   update (none applied), or the HTTP error
 */
export async function updateRefs(
  gh: GithubOctokit,
  repositoryId: string,
  updates: readonly RefUpdate[],
): Promise<void> {
  await gh.graphql(UPDATE_REFS_MUTATION, {
    repositoryId,
    refUpdates: updates.map((u) => ({ name: u.name, afterOid: u.afterOid, force: u.force ?? false })),
  });
}

/**
 * Whether `e` is GitHub's refusal of the updates in a GraphQL answer (a ref not a fast-forward,
 * absent, or an unknown object), as opposed to a failure of the request (HTTP status, network) or
 * a rate limit, which the caller passes on.
 */
export function isRefusedUpdate(e: unknown): boolean {
  const errors = (e as { errors?: unknown })?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return false;
  return !errors.some((x) => (x as { type?: unknown })?.type === "RATE_LIMITED");
}
