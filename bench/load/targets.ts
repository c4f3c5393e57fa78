/**
 * The targets of `npm run bench:load` (docs/reliability.md "Load") and
 * the verdict lines printed against them.
 */
import type { ReaderFigures } from "./readers.js";

/** Status reads per second under 50 connections. */
export const STATUS_RPS = 1500;
/** Filtered `/logs` reads per second under 50 connections, on the embedded ClickHouse. */
export const LOGS_RPS = 300;
/** p99 latency of either read, ms. */
export const P99_MS = 250;
/** Merge rate under load as a share of the unloaded one (85%: raised from 80% once 80% was met). */
export const MERGE_RATIO = 0.85;

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

/** The verdict lines of one reader: requests/s against `rps`, p99 against {@link P99_MS}, no errors. */
export function readerVerdicts(name: string, f: ReaderFigures, rps: number): string[] {
  const failed = f.non2xx + f.errors;
  return [
    `  ${name}: ${f.requestsPerSecond.toFixed(0)} requests/s >= ${rps}: ${verdict(f.requestsPerSecond >= rps)}`,
    `  ${name}: p99 ${f.p99.toFixed(0)} ms <= ${P99_MS} ms: ${verdict(f.p99 <= P99_MS)}`,
    `  ${name}: ${failed} failed of ${f.requests} (non-2xx ${f.non2xx}, errors ${f.errors}): ${verdict(failed === 0)}`,
  ];
}

/** The verdict line of a merge rate under load against the unloaded one (null: not measurable). */
export function mergeVerdict(name: string, loaded: number | null, unloaded: number | null): string {
  if (loaded === null || unloaded === null || unloaded === 0)
    return `  merge rate ${name}: not measured (the queue ran dry, or no unloaded window): FAIL`;
  const ratio = loaded / unloaded;
  return `  merge rate ${name}: ${loaded.toFixed(1)}/min = ${(100 * ratio).toFixed(0)}% of unloaded >= ${100 * MERGE_RATIO}%: ${verdict(ratio >= MERGE_RATIO)}`;
}
