/**
 * What other folders report to the metrics (plain data, no prom-client types): a round of the
 * queue runner (runner/round-figures.ts), one answered request (gateway), and the outbox's state.
 */

/** What one committed runner round changed, per base branch (docs/observability.md "Merge queue"). */
export interface QueueFigures {
  /** "owner/name". */
  repository: string;
  /** Every branch whose figures the round knows, with its counts after the round (0 when emptied). */
  branches: { branch: string; waiting: number; checking: number }[];
  /** Speculative or in-place checks started (one per create_speculative_check / start_in_place_check effect). */
  ciRunsStarted: { branch: string }[];
  /** Pull requests merged by the queue (action.queue.merged). */
  merges: { branch: string }[];
  /** Pull requests that left the queue without being merged, with their dequeue code (action.queue.leave). */
  dequeues: { branch: string; code: string }[];
  /** Seconds from entering the queue to leaving it (merged or not), per pull request that left. */
  queueTimes: { branch: string; seconds: number }[];
  /** Bisections started (a failed batch split to find its culprit; nested splits not counted again). */
  bisections: { branch: string }[];
}

/** The protocols requests are counted by. */
export type Protocol = "rest" | "connect" | "grpc" | "grpc-web";

/** One answered RPC request. */
export interface RequestFigures {
  protocol: Protocol;
  /** "yardmaster.v1.QueueService/GetMergeQueueStatus", or "unmatched" for a REST path no route serves. */
  rpc: string;
  /** REST: the HTTP status ("200", "404"); Connect, gRPC and gRPC-Web: the code name ("ok", "not_found"). */
  status: string;
  seconds: number;
}

/** The outbox (PostgreSQL) at a scrape: events waiting for ClickHouse and the oldest one's age, seconds. */
export interface OutboxFigures {
  waiting: number;
  oldestAgeSeconds: number;
}

/**
 * This process among the queue runner's replicas, read at each scrape (docs/observability.md
 * "Replicas"; docs/deployment.md "Several replicas").
 */
export interface ReplicaFigures {
  /** This replica's name (YARDMASTER_REPLICA_NAME). */
  replica: string;
  /** Live replicas in this one's view, itself included (0 before it joined). */
  replicas: number;
  /** The repositories ("owner/name") this replica works: it processed them and they are still its own. */
  repositories: string[];
}
