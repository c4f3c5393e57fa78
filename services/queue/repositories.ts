/**
 * ListRepositories and GetRepository (docs/dashboard.md "Repositories", docs/auth.md
 * "Caller-scoped answers"): the repositories known to the forge (its {@link RepositoryDirectory})
 * or with queue state (store/repository-overview.ts), each with its queued pull requests by base
 * branch, its pause and its scheduled freezes in force. ListRepositories answers only what the
 * caller reaches: the admin key every repository, a repository token the ones it names, a platform
 * token the ones the platform lets its user read (asked at most {@link PLATFORM_CHECKS} at a time).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { RepositorySchema } from "../../gen/yardmaster/v1/queue_pb.js";
import { canReadRepository, principalKey, type Principal } from "../auth/index.js";
import { DomainError } from "../contracts/index.js";
import type { ForgeRepository, RepositoryDirectory } from "../forge/index.js";
import { queueOverviews, repositoriesWithQueueState, type Pool, type QueueOverview } from "../store/index.js";
import { fullName, type RepoRequest } from "./caller.js";
import { flatFreeze } from "./flat-freeze-handlers.js";
import { freezeMessage } from "./freeze-handlers.js";

/** Platform permission checks made at once for one listing. */
export const PLATFORM_CHECKS = 8;

/** What the repository RPCs read: the pool, the forge's directory (none: queue state only) and the clock. */
export interface RepositoryDeps {
  db: Pool;
  directory?: RepositoryDirectory;
  /** Epoch milliseconds, UTC. */
  now: () => number;
}

type RepositoryInit = MessageInitShape<typeof RepositorySchema>;

/** One repository known from the forge, the queue, or both; `name` as the forge spells it when it knows it. */
interface Known {
  name: string;
  forge: ForgeRepository | null;
}

/** The repositories known to the forge or with queue state, one per name (case-insensitively), sorted. */
async function knownRepositories(deps: RepositoryDeps): Promise<Known[]> {
  const [onForge, withState] = await Promise.all([deps.directory?.list() ?? [], repositoriesWithQueueState(deps.db)]);
  const byKey = new Map<string, Known>();
  for (const r of onForge) byKey.set(r.fullName.toLowerCase(), { name: r.fullName, forge: r });
  for (const name of withState)
    if (!byKey.has(name.toLowerCase())) byKey.set(name.toLowerCase(), { name, forge: null });
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, k]) => k);
}

/** The entries of `items` for which `keep` holds, in order, with at most `limit` checks at once. */
async function filterLimited<T>(items: T[], limit: number, keep: (t: T) => Promise<boolean>): Promise<T[]> {
  const kept = new Array<boolean>(items.length).fill(false);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      kept[i] = await keep(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return items.filter((_, i) => kept[i]);
}

/** The known repositories `principal` reaches. */
async function reachable(principal: Principal, known: Known[]): Promise<Known[]> {
  if (principal.kind === "admin") return known;
  if (principal.kind === "token") return known.filter((k) => principal.repositories.has(k.name.toLowerCase()));
  return filterLimited(known, PLATFORM_CHECKS, (k) => canReadRepository(principal, k.name).catch(() => false));
}

/** The message of one repository. */
function repositoryMessage(k: Known, overview: QueueOverview, now: number): RepositoryInit {
  const [owner, repository] = k.name.split("/") as [string, string];
  return {
    owner,
    repository,
    onForge: k.forge !== null,
    defaultBranch: k.forge?.defaultBranch ?? "",
    branches: overview.branches.map((b) => ({ name: b.name, queued: b.queued, inBatches: b.inBatches })),
    queueDepth: overview.queueDepth,
    pause: overview.pause
      ? { reason: overview.pause.reason, pausedAt: timestampFromDate(overview.pause.pausedAt) }
      : undefined,
    activeFreezes: overview.freezes
      .filter((f) => f.start.getTime() <= now)
      .map((f) => flatFreeze(freezeMessage(f, now))),
    upcomingFreezes: overview.freezes.length,
  };
}

/** The two handlers of QueueService. */
export function repositoryHandlers(deps: RepositoryDeps) {
  return {
    /**
     * The repositories the caller reaches, sorted by name.
     * @throws ForgeError (answered with its kind) when the forge's directory cannot be read
     */
    async listRepositories(_req: unknown, ctx: HandlerContext): Promise<{ repositories: RepositoryInit[] }> {
      const principal = ctx.values.get(principalKey);
      if (!principal) throw new Error("no principal on an authenticated call");
      const known = await reachable(principal, await knownRepositories(deps));
      const now = deps.now();
      const overviews = await queueOverviews(
        deps.db,
        known.map((k) => k.name),
        new Date(now),
      );
      return { repositories: known.map((k, i) => repositoryMessage(k, overviews[i]!, now)) };
    },
    /**
     * One repository.
     * @throws DomainError not_found when neither the forge nor the queue knows it
     */
    async getRepository(req: RepoRequest): Promise<RepositoryInit> {
      const name = fullName(req);
      const now = deps.now();
      const [forge, [overview], withState] = await Promise.all([
        deps.directory?.find(name) ?? null,
        queueOverviews(deps.db, [name], new Date(now)),
        repositoriesWithQueueState(deps.db),
      ]);
      const stateName = withState.find((n) => n.toLowerCase() === name.toLowerCase());
      if (!forge && !stateName) throw new DomainError("not_found", `repository ${name} is unknown to Yardmaster`);
      return repositoryMessage({ name: forge?.fullName ?? stateName!, forge }, overview!, now);
    },
  };
}
