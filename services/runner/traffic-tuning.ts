/**
 * The runner's side of the self-tuning default (docs/self-tuning.md): per repository, the traffic
 * of the last {@link TUNING_WINDOW_MS} of its activity log (read through a {@link TrafficReader},
 * ClickHouse in production), refreshed every {@link TUNING_REFRESH_MS} in the background, and the
 * engine configuration it gives. A round uses the last traffic read (none before the first read
 * ends: the static defaults); when the settings the traffic chooses differ from those
 * the engine runs with, the round applies them first (`configuration_changed`), so the settings
 * follow the traffic as it drifts. A read that fails keeps the last traffic (logged).
 */
import type { Logger } from "pino";
import {
  observedTraffic,
  tunedConfiguration,
  type ConfigurationInput,
  type EngineState,
  type ObservedTraffic,
  type TrafficCounts,
} from "../engine/index.js";

/** Reads a repository's traffic counts between two instants (UTC). */
export type TrafficReader = (repository: string, from: Date, to: Date) => Promise<TrafficCounts>;

/** How far back the traffic is measured: 7 days, ms. */
export const TUNING_WINDOW_MS = 7 * 24 * 3_600_000;
/** How often a repository's traffic is read again: 15 minutes, ms. */
export const TUNING_REFRESH_MS = 15 * 60_000;

/**
 * The traffic of each repository, read at most every {@link TUNING_REFRESH_MS}, in the background:
 * a round never waits for ClickHouse (it holds the repository's lock and a transaction).
 */
export class TrafficTuning {
  private readonly known = new Map<string, { traffic: ObservedTraffic | null; readAt: number }>();
  private readonly reading = new Map<string, Promise<void>>();

  constructor(
    private readonly read: TrafficReader,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /**
   * The repository's last traffic read (null: too little to trust, or not read yet); starts a
   * read when the last one is older than {@link TUNING_REFRESH_MS}.
   */
  traffic(repository: string): ObservedTraffic | null {
    const at = this.now();
    const last = this.known.get(repository);
    if ((!last || at - last.readAt >= TUNING_REFRESH_MS) && !this.reading.has(repository)) {
      const done = this.refresh(repository, at, last?.traffic ?? null).finally(() => this.reading.delete(repository));
      this.reading.set(repository, done);
    }
    return last?.traffic ?? null;
  }

  /** Resolves once the reads started so far have ended (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.reading.values()]);
  }

  private async refresh(repository: string, at: number, previous: ObservedTraffic | null): Promise<void> {
    let traffic = previous;
    try {
      const observed = observedTraffic(await this.read(repository, new Date(at - TUNING_WINDOW_MS), new Date(at)));
      traffic = observed && { ...observed, measuredAt: at };
    } catch (err) {
      this.log.warn({ repository, err }, "reading the traffic for the self-tuning default failed: last settings kept");
    }
    this.known.set(repository, { traffic, readAt: at });
    if (this.known.size > 10_000) this.known.delete(this.known.keys().next().value!);
  }
}

/**
 * The configuration the engine should run with for `input` under `traffic`, or null when `state`
 * already runs with its tuned settings (batch size, wait, parallel checks of the self-tuned rules)
 * chosen from this very read of the traffic (same `measuredAt`): a newer read is recorded even when
 * it chooses the same settings, so the API shows when the settings were last computed.
 */
export function retuned(
  state: EngineState,
  input: ConfigurationInput,
  traffic: ObservedTraffic | null,
): ConfigurationInput | null {
  if (traffic === null) return null;
  const tuned = tunedConfiguration(input, traffic);
  if (tuned === input) return null;
  const same =
    state.config.tunedFrom?.measuredAt === traffic.measuredAt &&
    state.config.maxParallelChecks === tuned.merge_queue.max_parallel_checks &&
    tuned.queue_rules.every((r) => {
      const now = state.config.queueRules.find((q) => q.name === r.name);
      return (
        !r.self_tuned ||
        (now !== undefined &&
          now.batchSize.min === r.batch_size.min &&
          now.batchSize.max === r.batch_size.max &&
          now.batchMaxWaitTime === r.batch_max_wait_time)
      );
    });
  return same ? null : tuned;
}
