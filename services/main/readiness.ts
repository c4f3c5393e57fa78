/**
 * `GET /readyz` (docs/reliability.md; docs/activity-log.md "The log's lag"): whether the databases
 * this process needs answer, and how far the activity log lags. Each probe runs under its own
 * deadline ({@link PROBE_TIMEOUT_MS}), all at once, so the answer comes within 2 s whatever the
 * databases do (stopped, frozen, unreachable); a probe that fails or runs out of time names its
 * database with the reason. The outbox lag (events waiting for the relay and the age of the
 * oldest, seconds) is reported where the activity log runs; it does not make the process unready
 * (the relay catches up by itself, and readiness that flapped with the lag would take a healthy
 * process out of service).
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import { withDeadline, type DatabaseName } from "../outage/index.js";
import { outboxLag, type Pool } from "../store/index.js";

/** The deadline of one readiness probe, ms: with every probe run at once, /readyz answers within 2 s. */
export const PROBE_TIMEOUT_MS = 1500;

/** A probe: resolves when its database answers, throws otherwise; heeds `signal` when it can. */
type Probe = (signal: AbortSignal) => Promise<void>;

/** The probes of the databases a process uses, and what /readyz adds to its body. */
export interface Readiness {
  /** Name (`postgresql`, `clickhouse`) -> null when it answers, else the reason. */
  checks(): Promise<Record<string, string | null>>;
  /** `{outbox: {events_waiting, oldest_age_seconds}}` where the activity log runs (empty when unknown). */
  details(): Promise<Record<string, unknown>>;
}

/** Runs one probe under its deadline; the reason when it fails, null when it answers. */
async function run(database: DatabaseName, probe: Probe): Promise<string | null> {
  try {
    await withDeadline(database, PROBE_TIMEOUT_MS, probe);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The readiness of a process: PostgreSQL always; ClickHouse and the outbox lag when `clickhouse`
 * is given (the process runs the activity log).
 */
export function createReadiness(db: Pool, clickhouse?: ClickHouseClient): Readiness {
  const probes: Record<string, [DatabaseName, Probe]> = {
    postgresql: ["PostgreSQL", async () => void (await db.query("SELECT 1"))],
  };
  if (clickhouse) {
    probes.clickhouse = [
      "ClickHouse",
      async (signal) => {
        const r = await clickhouse.ping({ select: false, abort_signal: signal });
        if (!r.success) throw (r as { error?: Error }).error ?? new Error("no answer");
      },
    ];
  }
  return {
    checks: async () => {
      const names = Object.keys(probes);
      const results = await Promise.all(names.map((name) => run(...probes[name])));
      return Object.fromEntries(names.map((name, i) => [name, results[i]]));
    },
    details: async () => {
      if (!clickhouse) return {};
      try {
        const lag = await withDeadline("PostgreSQL", PROBE_TIMEOUT_MS, () => outboxLag(db));
        const oldestAgeSeconds = Math.round(lag.oldestAgeSeconds * 10) / 10;
        return { outbox: { events_waiting: lag.waiting, oldest_age_seconds: oldestAgeSeconds } };
      } catch {
        return {}; // the postgresql check says why
      }
    },
  };
}
