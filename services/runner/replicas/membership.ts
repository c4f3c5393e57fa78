/**
 * This process among the queue runner's replicas (docs/deployment.md "Several replicas").
 * {@link BEATS_PER_LEASE} times a lease the replica writes its heartbeat (its row of
 * `runner_replicas`, on a connection of its own), expires the replicas that are gone, and reads the
 * live set; the repositories it works are those rendezvous hashing gives it among the live set
 * (rendezvous.ts). The per-repository advisory lock stays what makes two replicas never work a
 * repository at once (lock-session.ts); the membership only spreads the repositories and moves
 * them when a replica goes.
 *
 * How a replica that went is found, and its locks released (a session advisory lock lives as long
 * as its PostgreSQL session):
 * - **Its process ended** (`kill -9`, a crash, a stop): its operating system closed its connections,
 *   so PostgreSQL ended its sessions and released its locks at once; the next heartbeat of any
 *   other replica finds no session named after it and deletes its row (within a heartbeat period).
 * - **It stalled or lost the network** (a frozen process, a host that died without closing its
 *   connections, a partition): its sessions linger, and its locks with them, until TCP keepalives
 *   end them (hours by default; never for a frozen process, whose kernel still answers). Once its
 *   heartbeat is older than the lease, another replica deletes its row and ends every session named
 *   after it (`pg_terminate_backend`), which releases its locks. If it comes back, each of its
 *   connections fails, its lock sessions fail their proof before any forge call (lock-session.ts),
 *   and its next heartbeat joins again.
 * A replica expires others only after one lease of heartbeats without a gap of its own: one that was
 * itself frozen, or cut from the database (every heartbeat then looks old), first waits a lease.
 * Every time compared is the database's (`now()`), except that continuity, measured on `now`.
 */
import type { Logger } from "pino";
import { FailureStreak } from "../../outage/index.js";
import {
  announceReplica,
  expireReplicas,
  endReplicaSessions,
  heartbeatReplica,
  leaveReplicas,
  listReplicas,
  notifyWork,
  replicaApplicationName,
  REPLICAS_CHANNEL,
  sessionApplicationName,
  WORK_CHANNEL,
  type ChangeFeed,
  type ExpiredReplica,
  type Pool,
  type ReplicaRow,
} from "../../store/index.js";
import type { RepositoryOwnership } from "./ownership.js";
import { ownerOf } from "./rendezvous.js";

/**
 * Heartbeats per lease: a replica is expired after missing this many in a row (so one late beat,
 * a slow query or a pause of the event loop, costs it nothing), and one whose process ended is
 * found gone within a lease / this (500 ms with the default lease of 3 s).
 */
export const BEATS_PER_LEASE = 6;

/** What the membership needs. */
export interface MembershipDeps {
  /** This replica: a unique id (its sessions are named after it) and the name shown in logs and metrics. */
  replica: ReplicaRow;
  /** A pool of its own for the heartbeats (one connection), named after the replica, so they never wait for the runner's work. */
  heartbeats: Pool;
  /** The runner's pool (work notifications). */
  db: Pool;
  /** Where work and membership notifications arrive (store/change-feed.ts). */
  feed: Pick<ChangeFeed, "subscribe">;
  /** How long a replica's heartbeat may be missing before others expire it, ms (YARDMASTER_REPLICA_LEASE_SECONDS). */
  leaseMs: number;
  log: Logger;
  /** A monotonic clock, ms (default `performance.now`): the continuity of this replica's own heartbeats. */
  now?: () => number;
}

/** The membership of the file header; also the runner's {@link RepositoryOwnership}. */
export class ReplicaMembership implements RepositoryOwnership {
  private live: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly owners = new Map<string, boolean>();
  private readonly listeners: ((repository: string | null) => void)[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  private readonly failures = new FailureStreak();
  private readonly log: Logger;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | null = null;
  private beatAgain = false;
  private joined = false;
  private stopped = false;
  private lastBeatAt: number | null = null;
  private continuousSince = 0;

  constructor(private readonly deps: MembershipDeps) {
    this.log = deps.log.child({ component: "replicas", replica: deps.replica.name });
    this.now = deps.now ?? (() => performance.now());
  }

  /** This replica's name (YARDMASTER_REPLICA_NAME). */
  get name(): string {
    return this.deps.replica.name;
  }

  /** The live replicas' names, this one included, as of the latest heartbeat. */
  replicas(): string[] {
    return this.live.map((id) => this.names.get(id) ?? id);
  }

  /**
   * Joins: checks that the sessions carry the replica's name, writes the first heartbeat, reads the
   * live set, tells the others, and beats {@link BEATS_PER_LEASE} times a lease from then on.
   * @throws Error when DATABASE_URL overrides `application_name` (the others could not tell this
   *   replica's sessions from theirs); the database's error when the first heartbeat fails
   */
  async start(): Promise<void> {
    const expected = replicaApplicationName(this.deps.replica.id);
    const actual = await sessionApplicationName(this.deps.heartbeats);
    if (actual !== expected) {
      throw new Error(
        `the database sessions are named "${actual}" instead of "${expected}": remove application_name from DATABASE_URL (replicas name their sessions to find each other's, docs/deployment.md "Several replicas")`,
      );
    }
    this.unsubscribe.push(
      this.deps.feed.subscribe(WORK_CHANNEL, (repository) => {
        if (repository === null) this.emit(null);
        else if (this.owns(repository)) this.emit(repository);
      }),
      this.deps.feed.subscribe(REPLICAS_CHANNEL, (id) => {
        if (id !== this.deps.replica.id) this.beatSoon();
      }),
    );
    await this.beat();
    await announceReplica(this.deps.db, this.deps.replica.id);
    this.timer = setInterval(() => this.beatSoon(), Math.max(100, Math.floor(this.deps.leaseMs / BEATS_PER_LEASE)));
    this.timer.unref();
  }

  /** Stops beating and leaves: the row is deleted and the others told, so they take its repositories at once. Never throws. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const u of this.unsubscribe.splice(0)) u();
    await this.beating;
    await leaveReplicas(this.deps.heartbeats, this.deps.replica.id).catch((e: Error) =>
      this.log.warn({ err: e.message }, "could not leave the replicas; the others expire this one after its lease"),
    );
  }

  owns(repository: string): boolean {
    let mine = this.owners.get(repository);
    if (mine === undefined) {
      mine = ownerOf(repository, this.live) === this.deps.replica.id;
      this.owners.set(repository, mine);
    }
    return mine;
  }

  handOver(repository: string): void {
    notifyWork(this.deps.db, repository).catch((e: Error) =>
      this.log.debug({ repository, err: e.message }, "could not hand work over; its replica's sweep finds it"),
    );
  }

  onWork(fn: (repository: string | null) => void): void {
    this.listeners.push(fn);
  }

  private emit(repository: string | null): void {
    for (const fn of this.listeners) fn(repository);
  }

  /** Runs a heartbeat now, or again right after the one under way. */
  private beatSoon(): void {
    if (this.stopped) return;
    if (this.beating) {
      this.beatAgain = true;
      return;
    }
    this.beating = this.beat()
      .then(() => {
        const ended = this.failures.succeed();
        if (ended > 0) this.log.info({ failures: ended }, "replica heartbeats work again");
      })
      .catch((e: Error) => {
        const { count, log } = this.failures.fail();
        if (log) this.log.warn({ err: e.message, failures: count }, "replica heartbeat failed");
      })
      .finally(() => {
        this.beating = null;
        if (this.beatAgain) {
          this.beatAgain = false;
          this.beatSoon();
        }
      });
  }

  /** One heartbeat: the row, the expiry of replicas that went, the live set. @throws the database's error */
  private async beat(): Promise<void> {
    const { heartbeats, replica, leaseMs } = this.deps;
    const at = this.now();
    const { inserted } = await heartbeatReplica(heartbeats, replica);
    if (inserted && this.joined) {
      this.log.warn("this replica's lease had expired (the others ended its sessions): it joins again");
      await announceReplica(this.deps.db, replica.id);
    }
    this.joined = true;
    if (this.lastBeatAt === null || at - this.lastBeatAt > leaseMs) this.continuousSince = at;
    this.lastBeatAt = at;
    const staleAfter = at - this.continuousSince >= leaseMs ? leaseMs / 1000 : null;
    for (const gone of await expireReplicas(heartbeats, replica.id, staleAfter)) await this.expired(gone);
    this.setLive(await listReplicas(heartbeats));
  }

  /** Ends the sessions of a replica whose lease expired (releasing its locks), and says so. */
  private async expired(gone: ExpiredReplica): Promise<void> {
    const fields = { gone: gone.name, goneId: gone.id, reason: gone.reason };
    if (gone.reason === "sessions") {
      this.log.info(fields, "a replica ended (no session left): its repositories move to the others");
      return;
    }
    try {
      const { found, ended } = await endReplicaSessions(this.deps.heartbeats, gone.id);
      this.log.warn(
        { ...fields, sessions: found, ended, leaseMs: this.deps.leaseMs },
        "a replica missed its heartbeats for a lease: its sessions were ended (its locks released), its repositories move to the others",
      );
    } catch (e) {
      this.log.error(
        { ...fields, err: (e as Error).message },
        "a replica missed its heartbeats, but its sessions could not be ended: its locks stay until PostgreSQL ends them (grant pg_signal_backend, docs/deployment.md)",
      );
    }
  }

  private setLive(rows: ReplicaRow[]): void {
    const ids = rows.map((r) => r.id);
    for (const r of rows) this.names.set(r.id, r.name);
    if (ids.length === this.live.length && ids.every((id, i) => id === this.live[i])) return;
    this.live = ids;
    this.owners.clear();
    for (const id of [...this.names.keys()]) if (!ids.includes(id)) this.names.delete(id);
    this.log.info({ replicas: this.replicas() }, "the live replicas changed");
    this.emit(null);
  }
}
