/**
 * `npm run bench:load` (issue 21, points 5 and 7; docs/reliability.md "Load"): does read load
 * starve the merge queue? A real server process on the embedded defaults (embedded PostgreSQL,
 * embedded ClickHouse, local forge) works a queue of 100 pull requests (a CI check that sleeps on
 * the queue's drafts), and in one run the merge rate is measured over windows:
 *   unloaded;  50 connections on `merge-queue/status`;  50 on filtered `/logs` (several filter
 *   sets);  both at once (50 + 50).
 * Printed: requests/s, p50/p99 latency, and the merge rate under load as a share of the unloaded
 * one, each against its target (status >= 1,500 requests/s, filtered /logs >= 300 requests/s,
 * p99 <= 250 ms, merge rate >= 80% of unloaded).
 *
 * Options: --seconds N (per window, default 30), --pulls N (default 100), --ci-seconds N (the
 * check's sleep, default 3), --connections N (default 50), --phases a,b (the windows to run, in
 * order, default unloaded,status,logs,both; the first is the baseline), --cpu-prof DIR (the
 * server writes a V8 CPU profile there on exit). The load generator (autocannon) runs in this process on the same
 * machine as the server: on 2 cores they compete, and the figures are what the server does with
 * what the generator leaves it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { forgeClient, mergeTimes, openPullRequests, queueAll, writeSourceRepository } from "./load/fixture.js";
import { logPaths, readLoad, statusPath, type ReaderFigures } from "./load/readers.js";
import { startBenchServer, type LoopProbe } from "./load/server.js";
import { LOGS_RPS, mergeVerdict, readerVerdicts, STATUS_RPS } from "./load/targets.js";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    pulls: { type: "string", default: "100" },
    "ci-seconds": { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    "cpu-prof": { type: "string" },
    phases: { type: "string", default: "unloaded,status,logs,both" },
  },
});
const SECONDS = Number(opts.seconds);
const PULLS = Number(opts.pulls);
const CONNECTIONS = Number(opts.connections);
const repo = { owner: "bench", repository: "load" };
const full = `${repo.owner}/${repo.repository}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const work = await mkdtemp(path.join(os.tmpdir(), "ym-bench-load-src-"));
const profile = opts["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(opts["cpu-prof"])}`] : [];
const server = await startBenchServer(profile);
try {
  console.log(`server ${server.url} (embedded PostgreSQL and ClickHouse, local forge); ${os.cpus().length} cores, shared by the server and the load generator`);
  await writeSourceRepository(path.join(work, "src"), PULLS, Number(opts["ci-seconds"]));
  const forge = forgeClient(server.url, server.adminKey);
  const numbers = await openPullRequests(forge, repo, path.join(work, "src"), PULLS);
  await queueAll(forge, repo, numbers);
  const queuedAt = Date.now();
  while ((await mergeTimes(forge, repo, numbers)).length === 0) {
    if (Date.now() - queuedAt > 180_000) throw new Error(`no pull request merged within 180 s:\n${server.output()}`);
    await sleep(1000);
  }
  console.log(`${PULLS} pull requests queued; first merge ${((Date.now() - queuedAt) / 1000).toFixed(0)} s later; windows of ${SECONDS} s, ${CONNECTIONS} connections per reader`);

  const logs = logPaths(full, numbers);
  const windows: { name: string; from: number; to: number; readers: Record<string, ReaderFigures>; loop: LoopProbe }[] = [];
  const phase = async (name: string, readers: Record<string, string[]>) => {
    await server.probe();
    const from = Date.now();
    const entries = Object.entries(readers);
    const figures = entries.length === 0 ? [] : await Promise.all(entries.map(([, paths]) => readLoad(server.url, server.adminKey, paths, CONNECTIONS, SECONDS)));
    if (entries.length === 0) await sleep(SECONDS * 1000);
    const to = Date.now();
    windows.push({ name, from, to, readers: Object.fromEntries(entries.map(([k], i) => [k, figures[i]])), loop: await server.probe() });
  };
  const PHASES: Record<string, Record<string, string[]>> = { unloaded: {}, status: { status: [statusPath(full)] }, logs: { logs }, both: { status: [statusPath(full)], logs } };
  for (const name of opts.phases.split(",")) {
    if (!PHASES[name]) throw new Error(`--phases: unknown window "${name}"; windows: ${Object.keys(PHASES).join(", ")}`);
    await phase(name, PHASES[name]);
  }

  const merged = await mergeTimes(forge, repo, numbers);
  const lastMerge = Math.max(...merged);
  const rate = (w: { from: number; to: number }) =>
    merged.length === PULLS && lastMerge < w.to ? null : (merged.filter((t) => t >= w.from && t < w.to).length * 60_000) / (w.to - w.from);
  console.log("window     merges/min  server CPU  loop delay p99/max ms  reader  requests/s  p50 ms  p99 ms  failed");
  for (const w of windows) {
    const r = rate(w);
    const loop = `${w.loop.cpu.toFixed(2).padStart(10)}  ${`${w.loop.p99}/${w.loop.max}`.padStart(21)}`;
    const head = `${w.name.padEnd(10)} ${(r === null ? "dry" : r.toFixed(1)).padStart(10)}  ${loop}`;
    const rows = Object.entries(w.readers);
    if (rows.length === 0) console.log(head);
    for (const [name, f] of rows) {
      console.log(`${head}  ${name.padEnd(6)} ${f.requestsPerSecond.toFixed(0).padStart(10)} ${f.p50.toFixed(0).padStart(7)} ${f.p99.toFixed(0).padStart(7)} ${String(f.non2xx + f.errors).padStart(7)}`);
    }
  }
  console.log(`${merged.length} of ${PULLS} merged by the end`);
  console.log("targets (load generator on the same 2 cores as the server):");
  const unloaded = windows[0].name === "unloaded" ? rate(windows[0]) : null;
  for (const w of windows.slice(1)) {
    if (w.readers.status) for (const l of readerVerdicts(`status (${w.name})`, w.readers.status, STATUS_RPS)) console.log(l);
    if (w.readers.logs) for (const l of readerVerdicts(`filtered /logs (${w.name})`, w.readers.logs, LOGS_RPS)) console.log(l);
    console.log(mergeVerdict(`under ${w.name}`, rate(w), unloaded));
  }
} finally {
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
