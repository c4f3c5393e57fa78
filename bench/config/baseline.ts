/**
 * The baseline of `npm run bench:config`: the `yaml` library called the way the loader called it
 * before the limits (`parseDocument` with `uniqueKeys`, then `toJS` with at most 10,000 alias
 * expansions), on the event loop. Run in a throwaway worker thread, stopped at `capMs`, so that
 * a text that takes minutes does not hold the benchmark: its time is then reported as "> cap".
 * A lower bound of the old cost: the old loader also located every error in the text, pairwise.
 */
import { Worker } from "node:worker_threads";
import { createRequire } from "node:module";

const YAML = createRequire(import.meta.url).resolve("yaml");

const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { parseDocument } = require(workerData.yaml);
const started = performance.now();
const doc = parseDocument(workerData.text, { merge: true, uniqueKeys: true, prettyErrors: false });
let errors = doc.errors.length;
if (errors === 0) { try { doc.toJS({ maxAliasCount: 10000 }); } catch { errors = 1; } }
parentPort.postMessage({ ms: performance.now() - started, errors });
`;

/** Milliseconds the old way of parsing took, or null past `capMs`. */
export function baselineParseMs(text: string, capMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { yaml: YAML, text } });
    const timer = setTimeout(() => void worker.terminate().then(() => resolve(null)), capMs);
    worker.once("message", (m: { ms: number }) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m.ms);
    });
    worker.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
