/**
 * `npm run bench:live` (docs/api.md "Streams"): the live streams under a
 * busy repository. A real server process on the embedded defaults (bench/load/server.ts); a feeder
 * appends 20 activity log events a second to one repository and pauses / unpauses its queue every
 * second (bench/live/busy-repository.ts). In one run:
 *   1. baseline: the feeder alone for --seconds; the server's CPU (cores) and RSS;
 *   2. loaded: the same with --watchers watchers of that repository (half WatchLogs, half
 *      WatchMergeQueue, Connect over one HTTP/2 connection, as a dashboard's tabs would);
 * Printed: event-to-watcher latency p50/p95/max (an event's `received_at`, the time of its
 * committing transaction, to its arrival at each WatchLogs watcher; a queue change's commit (its
 * answer) to the next changed status at each WatchMergeQueue watcher), the server's CPU and RSS in
 * each phase and their difference, against the targets: p95 <= 1 s, the watchers' cost <= 1 core
 * and <= 200 MiB. The load generator runs in this process on the same machine.
 *
 * Options: --seconds N (per phase, default 20), --watchers N (default 200), --rate N (events/s, default 20).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ActivityLogService } from "../gen/yardmaster/v1/activity_log_pb.js";
import { QueueService } from "../gen/yardmaster/v1/queue_pb.js";
import { startFeeder } from "./live/busy-repository.js";
import { forgeClient, writeSourceRepository } from "./load/fixture.js";
import { startBenchServer } from "./load/server.js";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "20" },
    watchers: { type: "string", default: "200" },
    rate: { type: "string", default: "20" },
  },
});
const SECONDS = Number(opts.seconds);
const WATCHERS = Number(opts.watchers);
const repo = { owner: "bench", repository: "live" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's resident set size, MiB (Linux /proc). */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Samples the server's RSS every second while `phase` runs; returns CPU (cores) over it and peak RSS. */
async function measure(server: Awaited<ReturnType<typeof startBenchServer>>, seconds: number) {
  await server.probe();
  let peak = 0;
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    peak = Math.max(peak, await rssMiB(server.child.pid!));
  }
  return { cpu: (await server.probe()).cpu, rss: peak };
}

const server = await startBenchServer();
// The busy repository exists in the local forge, so that the queue keeps a state for it.
const work = await mkdtemp(path.join(os.tmpdir(), "ym-bench-live-src-"));
await writeSourceRepository(path.join(work, "src"), 1, 1);
await forgeClient(server.url, server.adminKey).createRepository({
  ...repo,
  fromPath: path.join(work, "src"),
  defaultBranch: "main",
});
const feeder = startFeeder(server.url, server.adminKey, repo.owner, repo.repository, Number(opts.rate));
try {
  await sleep(5000);
  const baseline = await measure(server, SECONDS);

  const transport = createConnectTransport({
    baseUrl: server.url,
    httpVersion: "2",
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", `Bearer ${server.adminKey}`);
        return next(req);
      },
    ],
  });
  const logs = createClient(ActivityLogService, transport);
  const queue = createClient(QueueService, transport);
  const ac = new AbortController();
  const logLatency: number[] = [];
  const statusLatency: number[] = [];
  let measuring = false;
  let failures = 0;
  const watchers: Promise<void>[] = [];
  for (let i = 0; i < WATCHERS; i++) {
    const run =
      i % 2 === 0
        ? (async () => {
            for await (const m of logs.watchLogs(repo, { signal: ac.signal }))
              if (measuring) logLatency.push(Date.now() - timestampMs(m.event!.receivedAt!));
          })()
        : (async () => {
            for await (const m of queue.watchMergeQueue(repo, { signal: ac.signal })) {
              if (!measuring || !m.changed || m.sequence === 1n) continue;
              const at = Date.now();
              const committed = feeder.stateChanges.filter((t) => t <= at).at(-1);
              if (committed !== undefined) statusLatency.push(at - committed);
            }
          })();
    watchers.push(run.catch((e: Error) => void (ac.signal.aborted || failures++ || console.error(e.message))));
  }
  await sleep(5000);
  measuring = true;
  const loaded = await measure(server, SECONDS);
  measuring = false;
  ac.abort();
  await Promise.all(watchers);

  const all = [...logLatency, ...statusLatency];
  const p95 = percentile(all, 95);
  const cpuCost = loaded.cpu - baseline.cpu;
  const rssCost = loaded.rss - baseline.rss;
  const row = (name: string, value: string, target: string, ok: boolean) =>
    console.log(`${name.padEnd(44)} ${value.padStart(14)}   target ${target.padEnd(10)} ${ok ? "PASS" : "FAIL"}`);
  console.log(
    `\nbench:live — ${WATCHERS} watchers of ${repo.owner}/${repo.repository}, ${opts.rate} events/s + 1 queue change/s, ${SECONDS} s per phase`,
  );
  console.log(
    `events appended ${feeder.appended}; deliveries measured: ${logLatency.length} log, ${statusLatency.length} status; watcher failures ${failures}`,
  );
  console.log(
    `latency ms (log)    p50 ${percentile(logLatency, 50)}  p95 ${percentile(logLatency, 95)}  max ${Math.max(...logLatency)}`,
  );
  console.log(
    `latency ms (status) p50 ${percentile(statusLatency, 50)}  p95 ${percentile(statusLatency, 95)}  max ${Math.max(...statusLatency)}`,
  );
  console.log(`server CPU cores: baseline ${baseline.cpu.toFixed(2)}, with watchers ${loaded.cpu.toFixed(2)}`);
  console.log(`server RSS MiB (peak): baseline ${baseline.rss.toFixed(0)}, with watchers ${loaded.rss.toFixed(0)}`);
  row("event committed -> watcher, p95 (ms)", p95.toFixed(0), "<= 1000", p95 <= 1000);
  row("watchers' CPU cost (cores)", cpuCost.toFixed(2), "<= 1", cpuCost <= 1);
  row("watchers' memory cost (MiB RSS)", rssCost.toFixed(0), "<= 200", rssCost <= 200);
  row("watchers that failed", String(failures), "0", failures === 0);
  process.exitCode = p95 <= 1000 && cpuCost <= 1 && rssCost <= 200 && failures === 0 ? 0 : 1;
} finally {
  await feeder.stop().catch(() => {});
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
