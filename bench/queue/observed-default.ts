/**
 * The self-tuned default as production would choose it (docs/benchmarks.md "Rules and targets"):
 * never from the benchmark's true λ, D and p, but from the estimates the runner makes from an
 * observed window of the simulated traffic. A simulated repository starts on the static defaults
 * (docs/self-tuning.md: batches of 1, 30 s wait, 5 parallel checks) for one day; every event the
 * engine logs is stored, at its virtual instant, in an embedded ClickHouse through production's
 * event rows and relay sink (activity-log `internalEventRow`, `createEventSink`); the runner's
 * reader (activity-log `readTrafficSample`) reads the day, and the engine's estimate
 * (`observedTraffic`) and choice (`tunedQueueSettings`) give the settings the queue runs for the
 * next seven days; the settings that week chooses (the runner's 7-day window, `TUNING_WINDOW_MS`)
 * are the default measured. Two reads stand for the runner's reads every 15 minutes: a read
 * follows the traffic the previous settings produced, and the second one is the settled choice.
 * The day and the week are two draws of the same traffic (seeds `seed` and `seed` + 500), logged
 * one after the other in time. The simulations run on worker threads (window-worker.ts); storing
 * and reading run in this thread (chdb binds one data directory per process).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  createClickHouseClient,
  createEventSink,
  internalEventRow,
  migrateClickHouse,
  readTrafficSample,
  type ClickHouseClient,
} from "../../services/activity-log/index.js";
import {
  observedTraffic,
  tunedQueueSettings,
  type LogEffect,
  type ObservedTraffic,
  type QueueKnobs,
  type TrafficCounts,
} from "../../services/engine/index.js";
import type { TestWorkload } from "../../services/simulation/index.js";
import { runOnWorkers } from "./parallel.js";
import { simulateWindow, type LoggedEvent, type WindowJob } from "./traffic-window.js";

const H = 3_600_000;
/** The configuration's static defaults (docs/configuration.md), which a queue runs with until its traffic is known. */
export const STATIC_DEFAULTS: QueueKnobs = {
  batchSize: { min: 1, max: 1 },
  batchMaxWaitSeconds: 30,
  maxParallelChecks: 5,
};
/** Hours on the static defaults before the first read, then hours of the window the default is chosen from (7 days). */
export const FIRST_READ_HOURS = 24;
export const WINDOW_HOURS = 168;
/** Where the observed windows begin (epoch ms, UTC). */
export const WINDOWS_START = Date.UTC(2026, 0, 5);

/** The traffic a window is drawn from: the benchmark's model at `lambda` per hour, on `seed`. */
export interface WindowSpec {
  lambda: number;
  seed: number;
  /** The tests workload's failures (bench/queue/tests-workload.ts), when it is the one observed. */
  tests?: TestWorkload;
  /** Repository name the window is logged under ("owner/name"); one per spec. */
  repository: string;
}

/** What the observation gave: the settings measured as the default, and what they came from. */
export interface ObservedDefault {
  knobs: QueueKnobs;
  /** The estimate of the 7-day window (null: too little traffic, the static defaults stay). */
  estimate: ObservedTraffic | null;
  /** The counts the reader gave for that window. */
  counts: TrafficCounts;
  /** The settings the first day chose (run during the week). */
  firstKnobs: QueueKnobs;
}

/** Reads the counts of `repository` over `[from, to)` (UTC): production's reader on the stored events. */
export type CountsReader = (repository: string, from: Date, to: Date) => Promise<TrafficCounts>;

/** Stores a window's logged events of `repository`. */
export type EventStore = (repository: string, logged: readonly LoggedEvent[]) => Promise<void>;

/** Runs window simulations (on worker threads or in this thread); results in order. */
export type WindowRunner = (jobs: WindowJob[]) => Promise<LoggedEvent[][]>;

/**
 * Stores logged events of `repository` in ClickHouse as production's relay does (the engine's
 * events validated into outbox rows, received at their virtual instant), 10,000 per insert,
 * numbered from `firstId` (ids are unique per store).
 * @throws Error when an event does not validate against its schema (a bug in the engine's events)
 */
export async function storeEvents(
  client: ClickHouseClient,
  repository: string,
  logged: readonly LoggedEvent[],
  firstId: number,
): Promise<void> {
  const sink = createEventSink(client);
  for (let i = 0; i < logged.length; i += 10_000) {
    const rows = logged.slice(i, i + 10_000).map(({ at, log }, j) => ({
      ...internalEventRow({ ...(log as LogEffect), repository, receivedAt: new Date(at) }),
      id: String(firstId + i + j),
      receivedAt: new Date(at),
    }));
    await sink.insertEvents(rows, { mayExist: false });
  }
}

/** The settings a read chooses: the estimate's, or the static defaults when it holds too little. */
async function choose(read: CountsReader, repository: string, fromMs: number, toMs: number) {
  const counts = await read(repository, new Date(fromMs), new Date(toMs));
  const estimate = observedTraffic(counts);
  return { counts, estimate, knobs: estimate ? tunedQueueSettings(estimate) : STATIC_DEFAULTS };
}

/**
 * Observes a window of each spec's traffic and returns the self-tuned default production would
 * run (module header), in order. `run` simulates the windows, `store` stores what they logged,
 * `read` reads the counts back.
 */
export async function observedDefaults(
  specs: WindowSpec[],
  run: WindowRunner,
  store: EventStore,
  read: CountsReader,
): Promise<ObservedDefault[]> {
  const dayEnd = WINDOWS_START + FIRST_READ_HOURS * H;
  const weekEnd = dayEnd + WINDOW_HOURS * H;
  const window = (s: WindowSpec, knobs: QueueKnobs, seed: number, fromMs: number, toMs: number): WindowJob => ({
    lambda: s.lambda,
    seed,
    tests: s.tests,
    knobs,
    fromMs,
    toMs,
  });
  const days = await run(specs.map((s) => window(s, STATIC_DEFAULTS, s.seed, WINDOWS_START, dayEnd)));
  const first: Awaited<ReturnType<typeof choose>>[] = [];
  for (const [i, s] of specs.entries()) {
    await store(s.repository, days[i]!);
    first.push(await choose(read, s.repository, WINDOWS_START, dayEnd));
  }
  const weeks = await run(specs.map((s, i) => window(s, first[i]!.knobs, s.seed + 500, dayEnd, weekEnd)));
  const out: ObservedDefault[] = [];
  for (const [i, s] of specs.entries()) {
    await store(s.repository, weeks[i]!);
    const last = await choose(read, s.repository, dayEnd, weekEnd);
    out.push({ knobs: last.knobs, estimate: last.estimate, counts: last.counts, firstKnobs: first[i]!.knobs });
  }
  return out;
}

/**
 * Production's store and reader on a ClickHouse client: events stored by {@link storeEvents}
 * (numbered in order across windows), counts read by activity-log `readTrafficSample`.
 */
export function clickHouseTuning(client: ClickHouseClient): { store: EventStore; read: CountsReader } {
  let nextId = 1;
  return {
    store: async (repository, logged) => {
      await storeEvents(client, repository, logged, nextId);
      nextId += logged.length;
    },
    read: (repository, from, to) => readTrafficSample(client, repository, from, to),
  };
}

/**
 * {@link observedDefaults} with the windows on `workers` threads, stored in and read from a fresh
 * embedded ClickHouse (chdb) in a temporary directory, removed afterwards. Call it once per
 * process (chdb binds one data directory per process).
 */
export async function observedDefaultsEmbedded(specs: WindowSpec[], workers: number): Promise<ObservedDefault[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-bench-tuning-"));
  const client = createClickHouseClient({ embeddedPath: dir });
  try {
    await migrateClickHouse(client);
    const { store, read } = clickHouseTuning(client);
    const run: WindowRunner = (jobs) =>
      runOnWorkers(jobs, workers, new URL("./window-worker.js", import.meta.url), simulateWindow);
    return await observedDefaults(specs, run, store, read);
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** "λ 7.86/h, D 30.0 min, p 0.052" (the estimate), or that the window held too little. */
export function estimateLabel(e: ObservedTraffic | null): string {
  return e === null
    ? "too little traffic: static defaults"
    : `λ ${e.arrivalsPerHour.toFixed(2)}/h, D ${(e.ciSeconds / 60).toFixed(1)} min, p ${e.failureRate.toFixed(3)}`;
}
