/**
 * Every QueueService call about a repository the forge does not know answers NOT_FOUND (404), so
 * that a typo cannot pause, read or steer a queue that will never exist (docs/api.md "Decisions":
 * an unknown repository). The forge is asked for the repository's default branch; a repository it
 * knows is remembered for {@link KNOWN_FOR_MS} (a read per request would cost GitHub one API call
 * each), one it does not know is asked again at the next call (it may be created meanwhile).
 */
import { DomainError } from "../contracts/index.js";
import { isForgeError, type ForgePort } from "../forge/index.js";
import { fullName, type RepoRequest } from "./caller.js";

/** How long a repository the forge knows is not asked about again, ms. */
export const KNOWN_FOR_MS = 5 * 60_000;
/** Repositories remembered at most (least recently confirmed dropped first). */
const MAX_REMEMBERED = 10_000;

/**
 * The check itself: resolves when the forge knows `owner/name` (at once for a request without an owner).
 * @throws DomainError not_found when the forge answers not_found; the forge's other errors as they are
 */
export function knownRepositories(
  forge: Pick<ForgePort, "getDefaultBranch">,
  now: () => number,
): (req: RepoRequest) => Promise<void> {
  const confirmed = new Map<string, number>();
  return async (req) => {
    // A request naming no repository (ListRepositories) answers only what the caller reaches.
    if (!req.owner) return;
    const repo = fullName(req);
    const key = repo.toLowerCase();
    const at = confirmed.get(key);
    if (at !== undefined && now() - at < KNOWN_FOR_MS) return;
    try {
      await forge.getDefaultBranch(repo);
    } catch (e) {
      if (isForgeError(e, "not_found"))
        throw new DomainError("not_found", `repository ${repo} is not known to the forge`);
      throw e;
    }
    confirmed.delete(key);
    confirmed.set(key, now());
    if (confirmed.size > MAX_REMEMBERED) confirmed.delete(confirmed.keys().next().value!);
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a handler of any RPC of the service; only its first argument is read
type Handler = (req: any, ...rest: any[]) => any;

/**
 * `impl` with every handler checking its request's repository first; the server-streaming ones
 * named in `streaming` check before their first message.
 */
export function requireKnownRepository<T extends Record<string, Handler | undefined>>(
  impl: T,
  known: (req: RepoRequest) => Promise<void>,
  streaming: readonly string[],
): T {
  const out: Record<string, Handler> = {};
  for (const [name, handler] of Object.entries(impl)) {
    if (handler === undefined) continue;
    out[name] = streaming.includes(name)
      ? async function* (req: RepoRequest, ...rest: unknown[]) {
          await known(req);
          yield* handler(req, ...rest);
        }
      : async (req: RepoRequest, ...rest: unknown[]) => {
          await known(req);
          return handler(req, ...rest);
        };
  }
  return out as T;
}
