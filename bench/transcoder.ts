/**
 * `npm run bench` (issue: foundation, "Benchmark"): requests per second of a GET through the REST
 * transcoder against a plain Fastify route returning the same JSON, both served by one server
 * process (compiled JavaScript, as in production), measured in the same run with autocannon in
 * interleaved rounds. Prints each round and the median ratio; target ratio >= 0.7.
 * The machine is shared and noisy: compare ratios, not absolute numbers.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const here = path.dirname(fileURLToPath(import.meta.url));

const server = spawn(process.execPath, [path.join(here, "transcoder-server.js")], {
  stdio: ["ignore", "pipe", "inherit"],
});
const port = await new Promise<number>((resolve, reject) => {
  let out = "";
  server.stdout!.on("data", (d) => {
    out += d;
    const m = /port (\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  server.once("exit", (c) => reject(new Error(`benchmark server exited with ${c}`)));
});

async function rps(urlPath: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${urlPath}`,
    connections: 50,
    duration: SECONDS,
    headers,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${urlPath}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios: number[] = [];
const auth = { authorization: "Bearer yma_benchmark_key_0123456789" };
await rps("/plain/status");
await rps("/v1/repos/acme/widgets/merge-queue/status", auth);
console.log(`REST transcoder vs plain Fastify route, same JSON, ${ROUNDS} rounds x ${SECONDS}s, 50 connections`);
for (let i = 0; i < ROUNDS; i++) {
  const plain = await rps("/plain/status");
  const rest = await rps("/v1/repos/acme/widgets/merge-queue/status", auth);
  ratios.push(rest / plain);
  console.log(
    `round ${i + 1}: plain ${plain.toFixed(0)} req/s, transcoded ${rest.toFixed(0)} req/s, ratio ${(rest / plain).toFixed(2)}`,
  );
}
const r = median(ratios);
console.log(`median ratio ${r.toFixed(2)} (target >= 0.70): ${r >= 0.7 ? "PASS" : "FAIL"}`);
server.kill();
