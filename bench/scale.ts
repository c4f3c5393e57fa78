/**
 * `npm run bench:scale` (docs/benchmarks.md "Capacity of one process"): how many repositories and
 * pull requests one `yardmaster serve` process carries, and two. 1,000 repositories live in the
 * GitHub test double (served over HTTP in this process, real git behind it), each with a pull
 * request and a configuration (a queue requiring check `ci`, a labelling pull request rule). Replica
 * processes (`serve --only queue,simulator`, FORGE=github) on an embedded PostgreSQL work them,
 * driven only through the GitHub webhook route: signed deliveries, sent to the replicas in turn.
 *
 * A pass runs rising steps; in a step, pull request lifecycles start at a fixed rate on repositories
 * not used before (bench/scale/lifecycles.ts: opened → triage label; `@yardmaster queue` → queued
 * label; the CI's check_run on the queue's draft → merged). Printed per step: webhooks offered and
 * effected per second, p50/p99 from webhook to effect, webhooks lost, the replicas' CPU (cores, and
 * ms per webhook), this process's and the machine's; per pass the memory per active repository;
 * then the sizing rule and PASS/FAIL lines. Passes: one replica, then two (a fresh database each).
 *
 * Options: --repositories N (default 1000), --rates a,b,... (lifecycles per second, default
 * 1,2,4,8,10), --seconds N (per step, default 20), --passes a,b (replicas per pass, default 1,2),
 * --timeout N (seconds an effect may take before its webhook counts as lost, default 300),
 * --cpu-prof DIR (each replica writes a V8 CPU profile there when it stops). A step whose p99
 * passes 15 s is past the capacity: its pass goes no higher.
 *
 * This process (the double, its git, the deliveries) shares the machine with the replicas and
 * PostgreSQL: its CPU is printed, and the replicas' CPU per webhook is the figure that carries to
 * another machine.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startEmbeddedPostgres } from "../services/store/index.js";
import type { ReplicaProcess } from "../test/support/replica-processes.js";
import { replicaWorld } from "../test/support/replica-world.js";
import { machineCpu } from "./load/machine-cpu.js";
import { Effects, runLifecycle, SCALE_CONFIG, type PreparedPull } from "./scale/lifecycles.js";
import { cpuMs, metricValue, residentBytes } from "./scale/process-stats.js";
import { printPass, stepFigures, type PassResult, type StepResult } from "./scale/report.js";
import { printVerdicts } from "./scale/verdicts.js";

const { values: opts } = parseArgs({
  options: {
    repositories: { type: "string", default: "1000" },
    rates: { type: "string", default: "1,2,4,8,10" },
    seconds: { type: "string", default: "20" },
    passes: { type: "string", default: "1,2" },
    timeout: { type: "string", default: "300" },
    "cpu-prof": { type: "string" },
  },
});
const REPOSITORIES = Number(opts.repositories);
const RATES = opts.rates.split(",").map(Number);
const SECONDS = Number(opts.seconds);
const PASSES = opts.passes.split(",").map(Number);
const TIMEOUT_MS = Number(opts.timeout) * 1000;
/** A step whose p99 exceeds this (ms) is past the capacity: the pass stops rising. */
const SATURATED_MS = 15_000;
/** How long the replicas' idle CPU is measured before the first step, ms. */
const IDLE_MS = 5000;
const perPass = RATES.reduce((n, r) => n + Math.round(r * SECONDS), 0);
if (perPass * PASSES.length > REPOSITORIES) {
  console.error(
    `--repositories ${REPOSITORIES} is too few: the passes start ${perPass * PASSES.length} lifecycles, one per repository`,
  );
  process.exit(2);
}
const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();

const dir = await mkdtemp(path.join(os.tmpdir(), "ym-bench-scale-"));
await chmod(dir, 0o755);
const postgres = await startEmbeddedPostgres(path.join(dir, "postgres"));
/** A fresh database of the embedded server for one pass. */
async function database(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

const w = await replicaWorld(await database("scale_setup"), {}, SCALE_CONFIG);
const effects = new Effects();
w.watch(effects.observe);
try {
  log(
    `${os.cpus().length} cores; preparing ${REPOSITORIES} repositories in the GitHub double, one pull request each...`,
  );
  const names = Array.from({ length: REPOSITORIES }, (_, i) => `scale/repo-${String(i).padStart(4, "0")}`);
  const pulls: PreparedPull[] = [];
  for (const { repo, numbers } of await w.repositories(names, 1))
    pulls.push({ repo, number: numbers[0], headSha: await repo.headSha(repo.pull(numbers[0])!) });
  log(`prepared in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  const passes: PassResult[] = [];
  let used = 0;
  for (const replicas of PASSES) {
    const url = await database(`scale_${replicas}_replicas`);
    const names = Array.from({ length: replicas }, (_, i) => `scale-${replicas}-${i + 1}`);
    const profile = opts["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(opts["cpu-prof"])}`] : [];
    const procs = await Promise.all(names.map((n) => w.start(n, { DATABASE_URL: url }, profile)));
    await sleep(3000);
    const mem0 = await memory(procs);
    const requests0 = { requests: effects.requests, writes: effects.writes };
    // What the replicas use doing nothing (heartbeats, sweeps), subtracted from each step's CPU per webhook.
    const idle0 = await Promise.all(procs.map((p) => cpuMs(p.child.pid!)));
    await sleep(IDLE_MS);
    const idle1 = await Promise.all(procs.map((p) => cpuMs(p.child.pid!)));
    const idleCores = idle1.reduce((a, b, i) => a + b - idle0[i], 0) / IDLE_MS;
    const steps: StepResult[] = [];
    for (const rate of RATES) {
      const batch = pulls.slice(used, used + Math.round(rate * SECONDS));
      used += batch.length;
      steps.push(await runStep(rate, batch, procs));
      // Past its capacity the backlog (and its drain) grows with every step: no higher step.
      if (stepFigures(steps.at(-1)!).p99 > SATURATED_MS) break;
    }
    const mem1 = await memory(procs);
    const worked = await Promise.all(procs.map((p) => p.worked().then((r) => r.length)));
    const active = steps.reduce((n, s) => n + s.lifecycles, 0);
    const requests = effects.requests - requests0.requests;
    const writes = effects.writes - requests0.writes;
    const pass = { replicas, steps, active, idleCores, ...zip(mem0, mem1), worked, requests, writes };
    passes.push(pass);
    printPass(pass, log);
    for (const p of procs) {
      w.inService.delete(p.name);
      await p.stop();
    }
  }
  printVerdicts(passes, effects.mergedTwice, log);
  log(
    `\nrun time ${((Date.now() - started) / 1000).toFixed(0)} s; the machine is shared: measure again on a quiet one`,
  );
} finally {
  await w.close();
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
}

/** Runs the lifecycles of one step, started at `rate` per second, and measures them. */
async function runStep(rate: number, batch: PreparedPull[], procs: ReplicaProcess[]): Promise<StepResult> {
  const pids = procs.map((p) => p.child.pid!);
  const cpu0 = await Promise.all(pids.map((p) => cpuMs(p)));
  const bench0 = await cpuMs(process.pid, true);
  const github0 = effects.githubMs;
  const machine0 = await machineCpu();
  const from = Date.now();
  const runs = [];
  for (let i = 0; i < batch.length; i++) {
    await sleep(from + (i * 1000) / rate - Date.now());
    runs.push(runLifecycle(w, effects, batch[i], TIMEOUT_MS));
  }
  const issuedUntil = Date.now();
  const events = (await Promise.all(runs)).flat();
  const to = Date.now();
  const cpu1 = await Promise.all(pids.map((p) => cpuMs(p)));
  const bench = (await cpuMs(process.pid, true)) - bench0;
  const seconds = (to - from) / 1000;
  return {
    rate,
    lifecycles: batch.length,
    events,
    from,
    issuedUntil,
    to,
    replicaCpuMs: cpu1.reduce((a, b, i) => a + b - cpu0[i], 0),
    benchCores: bench / 1000 / seconds,
    githubMs: effects.githubMs - github0,
    machineCores: (await machineCpu()).busySince(machine0),
  };
}

/** Resident memory and V8 heap (after a full collection is not forced: as a scrape sees it) of all replicas, bytes. */
async function memory(procs: ReplicaProcess[]): Promise<{ rss: number; heap: number }> {
  let rss = 0;
  let heap = 0;
  for (const p of procs) {
    rss += await residentBytes(p.child.pid!);
    heap += metricValue(await (await fetch(`${p.url}/metrics`)).text(), "nodejs_heap_size_used_bytes");
  }
  return { rss, heap };
}

function zip(a: { rss: number; heap: number }, b: { rss: number; heap: number }) {
  return { rss: [a.rss, b.rss] as [number, number], heap: [a.heap, b.heap] as [number, number] };
}
