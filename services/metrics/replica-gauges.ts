/**
 * The replica gauges (docs/observability.md "Replicas"): which replica works which repositories,
 * read from the runner at each scrape, so a repository that moved to another replica leaves this
 * one's series at once. At most {@link MAX_REPOSITORY_SERIES} repositories are labelled by name; the
 * count covers them all.
 */
import { Gauge, type Registry } from "prom-client";
import type { ReplicaFigures } from "./figures.js";

/** Most repositories labelled by name in `yardmaster_runner_repository_worked` per scrape (sorted by name). */
export const MAX_REPOSITORY_SERIES = 1000;

/** Registers the three replica gauges, each filled from `read()` at scrape time. */
export function registerReplicaGauges(registry: Registry, read: () => ReplicaFigures): void {
  new Gauge({
    name: "yardmaster_runner_replicas",
    help: "Queue runner replicas alive in this replica's view, itself included.",
    labelNames: ["replica"],
    registers: [registry],
    collect() {
      const f = read();
      this.reset();
      this.set({ replica: f.replica }, f.replicas);
    },
  });
  new Gauge({
    name: "yardmaster_runner_repositories_worked",
    help: "Repositories this replica works (processed, and still its own among the replicas).",
    labelNames: ["replica"],
    registers: [registry],
    collect() {
      const f = read();
      this.reset();
      this.set({ replica: f.replica }, f.repositories.length);
    },
  });
  new Gauge({
    name: "yardmaster_runner_repository_worked",
    help: "1 for each repository this replica works (at most 1,000 named).",
    labelNames: ["replica", "repository"],
    registers: [registry],
    collect() {
      const f = read();
      this.reset();
      for (const repository of f.repositories.slice(0, MAX_REPOSITORY_SERIES))
        this.set({ replica: f.replica, repository }, 1);
    },
  });
}
