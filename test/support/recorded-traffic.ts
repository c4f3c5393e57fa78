/**
 * A week of recorded merge-queue traffic for a repository, appended to a server's activity log
 * with AppendEvents (admin key), for tests of the self-tuning default (docs/self-tuning.md "What is
 * measured"): 16 pull requests queued per hour over the last 7 days, 38 merged and 2 failed
 * (failure rate 0.05), 9 concluded checks with a median of 30 minutes. Under the rule of
 * docs/self-tuning.md "The choice" this is λ·D = 8: batches {2, 4}, a 10-minute wait, 6 checks.
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { checksEndMetadata, enterMetadata, leaveMetadata } from "../activity-log/event-samples-queue.js";
import { speculativeCheck } from "../activity-log/event-samples-shared.js";
import { eventually } from "./eventually.js";
import { grpcClient, grpcUnary } from "./grpc-client.js";
import type { ServerProcess } from "./server-process.js";

const H = 3_600_000;
/** What the week's traffic is, in the units the API shows it (docs/self-tuning.md "Where it shows"). */
export const RECORDED = { arrivalsPerHour: 16, ciSeconds: 1800, failureRate: 0.05 } as const;
const CI_MINUTES = [20, 25, 28, 30, 30, 30, 32, 35, 40];

interface EventInit {
  type: string;
  repository: string;
  pullRequest: bigint;
  baseRef: string;
  trigger: string;
  receivedAt: ReturnType<typeof timestampFromMs>;
  metadata: Record<string, unknown>;
}

/** The week's events of `repository` ending one hour before `now` (ms, UTC). */
export function recordedTraffic(repository: string, now: number): EventInit[] {
  const start = now - 7 * 24 * H + H;
  const arrivals = RECORDED.arrivalsPerHour * 168;
  const event = (i: number, type: string, at: number, metadata: Record<string, unknown>): EventInit => ({
    type,
    repository,
    pullRequest: BigInt(10_000 + i),
    baseRef: "main",
    trigger: "Rule: recorded traffic",
    receivedAt: timestampFromMs(Math.round(at)),
    metadata,
  });
  const step = (6 * 24 * H) / arrivals;
  const events = Array.from({ length: arrivals }, (_, i) =>
    event(i, "action.queue.enter", start + i * step, enterMetadata()),
  );
  for (let i = 0; i < 40; i++) {
    const failed = i < 2;
    const metadata = failed
      ? leaveMetadata({ reason: "checks failed", merged: false, dequeue_code: "CHECKS_FAILED" })
      : leaveMetadata();
    events.push(event(i, "action.queue.leave", start + i * H, metadata));
  }
  CI_MINUTES.forEach((minutes, i) => {
    const at = start + i * H;
    const check = speculativeCheck({
      checks_started_at: new Date(at).toISOString(),
      checks_ended_at: new Date(at + minutes * 60_000).toISOString(),
    });
    events.push(
      event(
        i,
        "action.queue.checks_end",
        at + minutes * 60_000,
        checksEndMetadata({ speculative_check_pull_request: check }),
      ),
    );
  });
  return events;
}

/**
 * Appends {@link recordedTraffic} of `repository` to `server`'s activity log, 1,000 events per
 * request, and waits until the log holds all of them (the relay copies them to ClickHouse).
 */
export async function appendRecordedTraffic(server: ServerProcess, repository: string): Promise<void> {
  const events = recordedTraffic(repository, Date.now());
  const log = grpcClient(ActivityLogService, `127.0.0.1:${server.port}`);
  const [owner, name] = repository.split("/");
  try {
    for (let i = 0; i < events.length; i += 1000) {
      const chunk = events.slice(i, i + 1000);
      await grpcUnary(
        log,
        "appendEvents",
        { idempotencyKey: `${repository} traffic ${i}`, events: chunk },
        server.adminKey,
      );
    }
    const from = timestampFromMs(Date.now() - 8 * 24 * H);
    await eventually(async () => {
      const agg = await grpcUnary(
        log,
        "aggregateLogs",
        { owner, repository: name, receivedFrom: from },
        server.adminKey,
      );
      if (agg.total !== BigInt(events.length)) throw new Error(`${agg.total} of ${events.length} events in the log`);
    }, 60_000);
  } finally {
    log.close();
  }
}
