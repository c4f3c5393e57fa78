/**
 * `npm run bench` (docs/rest-json.md "Cost of the transcoder"): the REST transcoder against a
 * plain Fastify route returning the same JSON, both served by one server process (compiled
 * JavaScript, as in production: bench/transcoder-server.ts), in interleaved rounds of autocannon
 * (50 connections, a fixed time per step). Each round measures, per step,
 * requests/s and the server's CPU per request (µs of user + system time, from the server's own
 * `process.cpuUsage`: far less moved by the neighbours' load than requests/s): the plain route,
 * the transcoder as in production (`full`), and the transcoder with one layer turned off
 * (authentication, request turns, request metrics, JSON encoding), so that each layer's cost is
 * the difference with `full` in the same round. Routing, request building and validation are
 * timed in the server process (µs of CPU per call).
 * Prints every round, the medians, and PASS/FAIL: requests/s ratio (target >= 0.80) and CPU per
 * request ratio (plain / transcoded, same target).
 * BENCH_ROUNDS (default 5) and BENCH_SECONDS (per step, default 4) shorten a run.
 * The machine is shared and noisy: compare ratios and CPU per request, not absolute rates.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** The requests/s ratio asked of the transcoder (docs/rest-json.md "Cost of the transcoder"). */
const TARGET = 0.8;
const here = path.dirname(fileURLToPath(import.meta.url));

const server = spawn(process.execPath, [path.join(here, "transcoder-server.js")], {
  stdio: ["ignore", "pipe", "inherit"],
});
const started = await new Promise<{ ports: Record<string, number>; inProcess: Record<string, number> }>(
  (resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (d) => {
      out += d;
      const line = out.indexOf("\n");
      if (line >= 0) resolve(JSON.parse(out.slice(0, line)));
    });
    server.once("exit", (c) => reject(new Error(`benchmark server exited with ${c}`)));
  },
);
const { ports, inProcess } = started;
const auth = { authorization: "Bearer yma_benchmark_key_0123456789" };
const STATUS = "/v1/repos/acme/widgets/merge-queue/status";
/** The steps of a round: the plain route, then the transcoder as in production and without each layer. */
const STEPS: { name: string; port: number; path: string }[] = [
  { name: "plain", port: ports.full, path: "/plain/status" },
  ...Object.entries(ports).map(([name, port]) => ({ name, port, path: STATUS })),
];

async function serverCpuMicros(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${ports.full}/cpu`);
  return ((await res.json()) as { micros: number }).micros;
}

/** One step: `seconds` of 50 connections; requests/s and µs of server CPU per request. */
async function step(port: number, urlPath: string, seconds: number): Promise<{ rps: number; cpu: number }> {
  const before = await serverCpuMicros();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${urlPath}`,
    connections: 50,
    duration: seconds,
    headers: auth,
  });
  const used = (await serverCpuMicros()) - before;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${urlPath}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.total / (result.duration || 1), cpu: used / result.requests.total };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

try {
  for (const s of STEPS) await step(s.port, s.path, 1);
  console.log(
    `REST transcoder vs plain Fastify route, same JSON; ${ROUNDS} rounds x ${SECONDS} s per step, 50 connections; load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const rps: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (let i = 0; i < ROUNDS; i++) {
    const parts: string[] = [];
    for (const s of STEPS) {
      const r = await step(s.port, s.path, SECONDS);
      (rps[s.name] ??= []).push(r.rps);
      (cpu[s.name] ??= []).push(r.cpu);
      parts.push(`${s.name} ${r.rps.toFixed(0)}/s ${r.cpu.toFixed(1)} µs`);
    }
    console.log(`round ${i + 1}: ${parts.join(", ")}; ratio ${(rps.full[i] / rps.plain[i]).toFixed(2)}`);
  }
  const perRound = (f: (i: number) => number) => median(Array.from({ length: ROUNDS }, (_, i) => f(i)));
  const ratio = perRound((i) => rps.full[i] / rps.plain[i]);
  const cpuRatio = perRound((i) => cpu.plain[i] / cpu.full[i]);
  console.log(
    "\nserver CPU per request (median of rounds), and the cost of each layer (full minus the step without it, same round):",
  );
  console.log(`  plain route ${median(cpu.plain).toFixed(1)} µs, transcoded ${median(cpu.full).toFixed(1)} µs`);
  for (const s of STEPS.filter((x) => x.name.startsWith("no-")))
    console.log(
      `  ${s.name.slice(3).padEnd(10)} ${perRound((i) => cpu.full[i] - cpu[s.name][i]).toFixed(1)} µs per request (requests/s ${perRound((i) => rps[s.name][i] / rps.full[i]).toFixed(2)}x of full without it)`,
    );
  console.log("timed in the server process (µs of CPU per call):");
  for (const [name, us] of Object.entries(inProcess)) console.log(`  ${name.padEnd(32)} ${us.toFixed(2)} µs`);
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  console.log(`median requests/s ratio ${ratio.toFixed(2)} (target >= ${TARGET}): ${verdict(ratio >= TARGET)}`);
  console.log(
    `median CPU per request ratio plain/transcoded ${cpuRatio.toFixed(2)} (target >= ${TARGET}): ${verdict(cpuRatio >= TARGET)}`,
  );
} finally {
  server.kill("SIGINT");
}
