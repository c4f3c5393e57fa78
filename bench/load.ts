/**
 * `npm run bench:load` (docs/reliability.md "Load"): does read load
 * starve the merge queue? A real server process on the embedded defaults (embedded PostgreSQL,
 * embedded ClickHouse, local forge) works a queue of 100 pull requests (a CI check that sleeps on
 * the queue's drafts), and in one run the merge rate is measured over windows:
 *   unloaded;  50 connections on `merge-queue/status`;  50 on filtered `/logs` (several filter
 *   sets);  both at once (50 + 50).
 * Printed: requests/s, p50/p99 latency, and the merge rate under load as a share of the unloaded
 * one, each against its target (status >= 1,500 requests/s, filtered /logs >= 300 requests/s,
 * p99 <= 250 ms, merge rate >= 85% of unloaded).
 *
 * Options: --seconds N (per window, default 30), --pulls N (default 100), --ci-seconds N (the
 * check's sleep, default 3), --connections N (per reader, default 50), --warmup N (seconds after
 * the first merge before the first window, default 10), --phases a,b (the windows, in order;
 * default unloaded,status,unloaded,logs,unloaded,both,unloaded: a loaded window is compared with
 * the mean of the unloaded windows next to it), --generator-nice N (below), --cpu-prof DIR (the
 * server writes a V8 CPU profile there when it exits). Also printed per window: the machine's, the
 * server's and the generator's CPU (cores) and the server's event loop delay
 * (bench/load/loop-probe.ts, preloaded into it).
 *
 * The load generator (autocannon) runs in this process on the same 2-core machine as the server:
 * they compete for the cores, and the figures are what the server does with what the generator
 * leaves it. The generator runs at nice 10 (--generator-nice N; 0 for equal priority), so that it
 * takes the cycles the server, its databases and the queue's git and CI processes leave, as clients
 * on other machines would; the table shows the CPU each used.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { forgeClient, mergeTimes, openAndQueue, writeSourceRepository } from "./load/fixture.js";
import { startFeeder } from "./load/feeder.js";
import { logPaths, readLoad, statusPath } from "./load/readers.js";
import { machineCpu } from "./load/machine-cpu.js";
import { startBenchServer } from "./load/server.js";
import { printReport, type Window } from "./load/report.js";

const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    pulls: { type: "string", default: "100" },
    "ci-seconds": { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    "cpu-prof": { type: "string" },
    phases: { type: "string", default: "unloaded,status,unloaded,logs,unloaded,both,unloaded" },
    warmup: { type: "string", default: "10" },
    "generator-nice": { type: "string", default: "10" },
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
// Started after the server (which keeps priority 0): clients on other machines would take none of
// the server's cores; niced, the generator takes the cycles the server and the runner leave.
os.setPriority(0, Number(opts["generator-nice"]));
try {
  console.log(
    `server ${server.url} (embedded PostgreSQL and ClickHouse, local forge); ${os.cpus().length} cores, shared by the server and the load generator (nice ${opts["generator-nice"]})`,
  );
  const phases = opts.phases.split(",");
  // Branches for the queue and for what merges meanwhile (at most 1.5 merges a second).
  const branches = PULLS + Math.ceil(1.5 * (Number(opts.warmup) + 60 + phases.length * SECONDS));
  await writeSourceRepository(path.join(work, "src"), branches, Number(opts["ci-seconds"]));
  const forge = forgeClient(server.url, server.adminKey);
  await forge.createRepository({ ...repo, fromPath: path.join(work, "src"), defaultBranch: "main" });
  const numbers = await openAndQueue(forge, repo, 1, PULLS);
  const queuedAt = Date.now();
  const feeder = startFeeder({
    forge,
    repo,
    gitDir: path.join(server.dataDir, "repos", repo.owner, `${repo.repository}.git`),
    numbers,
    branches,
    depth: PULLS,
  });
  while ((await mergeTimes(forge, repo, numbers)).length === 0) {
    if (Date.now() - queuedAt > 180_000) throw new Error(`no pull request merged within 180 s:\n${server.output()}`);
    await sleep(1000);
  }
  console.log(
    `${PULLS} pull requests queued; first merge ${((Date.now() - queuedAt) / 1000).toFixed(0)} s later; then ${opts.warmup} s of warm-up`,
  );
  await sleep(Number(opts.warmup) * 1000);
  const body = await (
    await fetch(server.url + statusPath(full), { headers: { authorization: `Bearer ${server.adminKey}` } })
  ).text();
  console.log(
    `windows of ${SECONDS} s, ${CONNECTIONS} connections per reader; the status answer is ${(body.length / 1024).toFixed(1)} KiB now`,
  );

  const logs = logPaths(full, numbers);
  const windows: Window[] = [];
  const phase = async (name: string, readers: Record<string, string[]>) => {
    await server.probe();
    const machine = await machineCpu();
    const cpu = process.cpuUsage();
    const from = Date.now();
    const entries = Object.entries(readers);
    const figures =
      entries.length === 0
        ? []
        : await Promise.all(
            entries.map(([, paths]) => readLoad(server.url, server.adminKey, paths, CONNECTIONS, SECONDS)),
          );
    if (entries.length === 0) await sleep(SECONDS * 1000);
    const to = Date.now();
    const used = process.cpuUsage(cpu);
    const generatorCpu = (used.user + used.system) / 1000 / (to - from);
    const machineBusy = (await machineCpu()).busySince(machine);
    windows.push({
      name,
      from,
      to,
      readers: Object.fromEntries(entries.map(([k], i) => [k, figures[i]])),
      loop: await server.probe(),
      generatorCpu,
      machineBusy,
    });
  };
  const PHASES: Record<string, Record<string, string[]>> = {
    unloaded: {},
    status: { status: [statusPath(full)] },
    logs: { logs },
    both: { status: [statusPath(full)], logs },
  };
  for (const name of phases) {
    if (!PHASES[name])
      throw new Error(`--phases: unknown window "${name}"; windows: ${Object.keys(PHASES).join(", ")}`);
    await phase(name, PHASES[name]);
  }

  await feeder.stop();
  printReport(windows, await mergeTimes(forge, repo, feeder.numbers), feeder.numbers.length, (line) =>
    console.log(line),
  );
} finally {
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
