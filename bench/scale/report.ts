/**
 * The figures of `npm run bench:scale`: per step the webhooks offered and effected per second, the
 * latency from webhook to effect, what was lost, the CPU of the replicas, of this process (the
 * GitHub double, its git and the webhook sender) and of the machine; per pass the memory per active
 * repository and the spread over the replicas; then the sizing rule they imply and the verdicts.
 */
import { EVENT_KINDS, type EventLatency } from "./lifecycles.js";

/** One step: lifecycles started at `rate` per second for its duration, and what they did. */
export interface StepResult {
  rate: number;
  lifecycles: number;
  events: EventLatency[];
  /** Epoch ms: the step's start, its last lifecycle's start, and when its last lifecycle ended. */
  from: number;
  issuedUntil: number;
  to: number;
  /** CPU the replicas used over the step, ms (all replicas together). */
  replicaCpuMs: number;
  /** CPU this process used (double, its git commands, sender), cores. */
  benchCores: number;
  /** Time the GitHub double took to answer the replicas' requests, ms, all together. */
  githubMs: number;
  /** The whole machine, cores busy. */
  machineCores: number;
}

/** One pass: the replicas it ran, its steps, memory and spread. */
export interface PassResult {
  replicas: number;
  steps: StepResult[];
  /** Repositories that had a lifecycle in the pass. */
  active: number;
  /** CPU the replicas used doing nothing (heartbeats, sweeps) before the first step, cores. */
  idleCores: number;
  /** Resident memory and V8 heap of all replicas together, bytes, before the first step and after the last. */
  rss: [number, number];
  heap: [number, number];
  /** Repositories each replica worked at the end (its /metrics). */
  worked: number[];
  /** GitHub requests the replicas made in the pass, and the writes among them. */
  requests: number;
  writes: number;
}

/** The latency below which `q` of the sorted values lie, ms. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A step's headline figures; `idleCores` (the replicas' CPU when idle) is not counted in the CPU per webhook. */
export function stepFigures(s: StepResult, idleCores = 0) {
  const seconds = (s.to - s.from) / 1000;
  const window = (s.issuedUntil - s.from) / 1000 + 1 / s.rate;
  const done = s.events.filter((e) => e.ms !== null);
  // Effected per second while lifecycles were being started: the throughput in the steady state.
  const inWindow = done.filter((e) => e.sentAt + e.ms! <= s.from + window * 1000).length;
  const ms = done.map((e) => e.ms!).sort((a, b) => a - b);
  const offered = (s.lifecycles * EVENT_KINDS.length) / window;
  return {
    offered,
    effected: inWindow / window,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    lost: s.events.length - done.length,
    unsent: s.lifecycles * EVENT_KINDS.length - s.events.length,
    replicaCores: s.replicaCpuMs / 1000 / seconds,
    cpuMsPerEvent: done.length ? (s.replicaCpuMs - idleCores * (s.to - s.from)) / done.length : Number.NaN,
    drainSeconds: (s.to - s.issuedUntil) / 1000,
    githubMsPerLifecycle: s.githubMs / Math.max(1, s.lifecycles),
    perKindP99: Object.fromEntries(
      EVENT_KINDS.map((k) => [
        k,
        quantile(
          s.events
            .filter((e) => e.kind === k && e.ms !== null)
            .map((e) => e.ms!)
            .sort((a, b) => a - b),
          0.99,
        ),
      ]),
    ),
  };
}

const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "-");

/** Prints one pass's table. */
export function printPass(p: PassResult, log: (line: string) => void): void {
  log(`\n${p.replicas} replica${p.replicas > 1 ? "s" : ""}:`);
  log(`idle replicas (heartbeats, sweeps): ${f(p.idleCores, 3)} cores, not counted in the CPU per webhook`);
  log(
    "lifecycles/s  webhooks/s offered  effected/s  p50 ms  p99 ms  p99 opened/comment/check_run ms  lost  drain s  replica CPU  CPU ms/webhook  GitHub ms/lifecycle  bench CPU  machine CPU",
  );
  for (const s of p.steps) {
    const x = stepFigures(s, p.idleCores);
    const kinds = EVENT_KINDS.map((k) => f(x.perKindP99[k], 0)).join("/");
    log(
      `${f(s.rate).padStart(12)}  ${f(x.offered).padStart(18)}  ${f(x.effected).padStart(10)}  ${f(x.p50, 0).padStart(6)}  ${f(x.p99, 0).padStart(6)}  ${kinds.padStart(32)}  ${String(x.lost + x.unsent).padStart(4)}  ${f(x.drainSeconds).padStart(7)}  ${f(x.replicaCores, 2).padStart(11)}  ${f(x.cpuMsPerEvent).padStart(14)}  ${f(x.githubMsPerLifecycle, 0).padStart(19)}  ${f(s.benchCores, 2).padStart(9)}  ${f(s.machineCores, 2).padStart(11)}`,
    );
  }
  const mb = (b: number) => f(b / 2 ** 20, 0);
  const perRepo = (pair: [number, number]) => f((pair[1] - pair[0]) / 1024 / Math.max(1, p.active), 0);
  log(
    `memory (all replicas): resident ${mb(p.rss[0])} -> ${mb(p.rss[1])} MB, heap ${mb(p.heap[0])} -> ${mb(p.heap[1])} MB over ${p.active} active repositories: ${perRepo(p.rss)} KB resident and ${perRepo(p.heap)} KB of heap per active repository`,
  );
  log(
    `GitHub requests per pull request lifecycle: ${f(p.requests / Math.max(1, p.active))}, of which writes ${f(p.writes / Math.max(1, p.active))}`,
  );
  if (p.replicas > 1) log(`repositories worked per replica at the end: ${p.worked.join(", ")}`);
}

/**
 * The last step, rising, up to which every step's webhooks all reached their effect with p99 within
 * `p99Ms` (a step beyond the process's capacity builds a backlog, and its p99 grows with the step's
 * length).
 */
export function ratedStep(p: PassResult, p99Ms: number): StepResult | null {
  let rated: StepResult | null = null;
  for (const s of p.steps) {
    const x = stepFigures(s, p.idleCores);
    if (x.lost + x.unsent > 0 || !(x.p99 <= p99Ms)) break;
    rated = s;
  }
  return rated;
}
