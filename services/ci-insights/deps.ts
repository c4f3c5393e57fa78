/**
 * What CI Insights needs from the process (services/main wires it; docs/architecture.md "shared
 * dependencies are passed in a small deps object").
 */
import type { Logger } from "pino";
import type { ClickHouseClient } from "../activity-log/index.js";
import type { Pool } from "../store/index.js";
import type { KeptHealth } from "./kept-health.js";

/** A pull request as `mergify tests show` prints it. */
export interface PullSummary {
  id: number;
  number: number;
  title: string;
  user: { id: number; login: string };
}

/** The test outcomes of an upload, for `/metrics` (docs/observability.md). */
export interface CiInsightsFigures {
  /** Test case executions stored, by outcome. */
  testRunsStored(outcomes: Record<string, number>): void;
}

/** The dependencies of every CI Insights operation. */
export interface CiInsightsDeps {
  db: Pool;
  clickhouse: ClickHouseClient;
  logger: Logger;
  /** Wakes the outbox relay after events were written. */
  eventsWritten: () => void;
  /** Clock, UTC (default the system clock). */
  now?: () => Date;
  /** The repository's default branch (health's default branch); null when unknown (then "main"). */
  defaultBranch?: (repository: string) => Promise<string | null>;
  /** A pull request's title and author, for first_failure_pull; null when unknown. */
  describePull?: (repository: string, number: number) => Promise<PullSummary | null>;
  figures?: CiInsightsFigures;
  /**
   * The list of tests kept between reads (kept-health.ts; docs/ci-insights.md "How fresh the list
   * is"), told of every ingest; without it (a deps object built for one call) the list is
   * computed at each read.
   */
  keptHealth?: KeptHealth;
}

/** The clock of `deps`. */
export const nowOf = (deps: CiInsightsDeps): Date => (deps.now ? deps.now() : new Date());

/** The branch health defaults to: the repository's default branch, else "main". */
export async function defaultBranchOf(deps: CiInsightsDeps, repository: string): Promise<string> {
  return (await deps.defaultBranch?.(repository).catch(() => null)) ?? "main";
}
