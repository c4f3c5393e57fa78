/**
 * Who calls and about which repository, as every QueueService write needs it: the repository of
 * a request (`owner`, `repository`: docs/api.md "Path parameters") and the
 * caller's Actor, put on the handler context by the gateway's authentication (docs/auth.md).
 */
import type { HandlerContext } from "@connectrpc/connect";
import { principalKey, type ActorInfo } from "../auth/index.js";

/** The repository a request names. */
export interface RepoRequest {
  owner: string;
  repository: string;
}

/** "owner/name" of a request's repository. */
export const fullName = (r: RepoRequest): string => `${r.owner}/${r.repository}`;

/**
 * The caller's Actor (the token or key that made the call).
 * @throws Error (answered INTERNAL) when the call was not authenticated (a wiring mistake, never a user's)
 */
export function actorOf(ctx: HandlerContext): ActorInfo {
  const p = ctx.values.get(principalKey);
  if (!p) throw new Error("no principal on an authenticated call");
  return p.actor;
}
