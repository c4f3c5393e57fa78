/**
 * Which services a process runs (`yardmaster serve --only`, docs/deployment.md "Split
 * deployment"), and the RPC service each name stands for.
 */
import type { DescService } from "@bufbuild/protobuf";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { SERVICE_NAMES, SettingsError, type ServiceName, type Settings } from "./settings.js";

/** The service each name of `--only` stands for. */
export const SERVICES: Record<ServiceName, DescService> = {
  queue: QueueService,
  simulator: SimulatorService,
  "activity-log": ActivityLogService,
};

/**
 * Which services run here, and which are reached at a URL (docs/deployment.md).
 * @throws SettingsError for an unknown name, or when FORGE=local would split the queue from the
 *   simulator (the local forge's repositories live in one process's data directory)
 */
export function servicesToRun(settings: Settings, only?: readonly string[]): ReadonlySet<ServiceName> {
  const names = only === undefined || only.length === 0 ? [...SERVICE_NAMES] : only;
  const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
  if (unknown.length)
    throw new SettingsError(
      `--only: unknown service ${unknown.map((n) => `"${n}"`).join(", ")}; services: ${SERVICE_NAMES.join(", ")}`,
    );
  const set = new Set(names as ServiceName[]);
  if (settings.forge === "local" && set.has("queue") !== set.has("simulator")) {
    throw new SettingsError(
      "--only: with FORGE=local the queue and the simulator run in the same process (the local forge keeps its repositories in that process's data directory)",
    );
  }
  return set;
}
