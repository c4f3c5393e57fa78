/**
 * `npm run bench:ab -- DIR` (docs/rest-json.md "The answer's path"): a change of the transcoder
 * measured against the build it starts from, on a shared machine. Two benchmark servers
 * (bench/transcoder-server.ts) run side by side, one from this build (`dist/`) and one from the
 * build in DIR (a copy of `dist/` made before the change, kept inside the checkout so that it
 * finds `node_modules`); autocannon (50 connections) drives their plain route and their
 * transcoder in short alternating steps (`AB_STEPS` rounds of `AB_SECONDS` seconds per step, the
 * order reversed every other round), so that the neighbours' load, which moves the figures of
 * runs minutes apart by more than most changes, weighs on both builds alike.
 * Prints, per build, the median server CPU per request (µs, the server's own `process.cpuUsage`)
 * and requests/s of each route, the CPU ratio plain / transcoder, and the median per-round ratio
 * of the transcoder's CPU per request after / before (below 1: the change saves CPU).
 */
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const STEPS = Number(process.env.AB_STEPS ?? 12);
const SECONDS = Number(process.env.AB_SECONDS ?? 1);
const here = path.dirname(fileURLToPath(import.meta.url));
const beforeDir = process.argv[2];
if (!beforeDir) throw new Error("usage: npm run bench:ab -- DIR (a copy of dist/ built before the change)");
const auth = { authorization: "Bearer yma_benchmark_key_0123456789" };
const STATUS = "/v1/repos/acme/widgets/merge-queue/status";

async function start(script: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.indexOf("\n");
      if (line >= 0) resolve((JSON.parse(out.slice(0, line)) as { ports: { full: number } }).ports.full);
    });
    child.once("exit", (c) => reject(new Error(`${script} exited with ${c}`)));
  });
  return { child, port };
}

const servers = {
  before: await start(path.resolve(beforeDir, "bench/transcoder-server.js")),
  after: await start(path.join(here, "transcoder-server.js")),
};
const cpuMicros = async (port: number) =>
  ((await (await fetch(`http://127.0.0.1:${port}/cpu`)).json()) as { micros: number }).micros;

/** One step: µs of server CPU per request and requests/s. */
async function step(port: number, urlPath: string, seconds: number) {
  const before = await cpuMicros(port);
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${urlPath}`,
    connections: 50,
    duration: seconds,
    headers: auth,
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${urlPath}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { cpu: ((await cpuMicros(port)) - before) / r.requests.total, rps: r.requests.total / (r.duration || 1) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const cases = (["before", "after"] as const).flatMap((build) => [
  { name: `plain@${build}`, port: servers[build].port, path: "/plain/status" },
  { name: `transcoder@${build}`, port: servers[build].port, path: STATUS },
]);
const results: Record<string, { cpu: number; rps: number }[]> = {};
try {
  for (const c of cases) await step(c.port, c.path, 1);
  console.log(`${STEPS} rounds x ${SECONDS} s per step, 50 connections; load average ${load()}`);
  for (let i = 0; i < STEPS; i++)
    for (const c of i % 2 ? [...cases].reverse() : cases)
      (results[c.name] ??= []).push(await step(c.port, c.path, SECONDS));
  for (const [name, rs] of Object.entries(results))
    console.log(
      `  ${name.padEnd(18)} ${median(rs.map((r) => r.cpu)).toFixed(1)} µs per request, ${median(rs.map((r) => r.rps)).toFixed(0)} requests/s`,
    );
  for (const build of ["before", "after"]) {
    const plain = results[`plain@${build}`];
    const full = results[`transcoder@${build}`];
    console.log(
      `  ${build}: CPU ratio plain/transcoder ${median(plain.map((p, i) => p.cpu / full[i].cpu)).toFixed(3)}, requests/s ratio transcoder/plain ${median(plain.map((p, i) => full[i].rps / p.rps)).toFixed(3)}`,
    );
  }
  const perRound = results["transcoder@after"].map((a, i) => a.cpu / results["transcoder@before"][i].cpu);
  console.log(`transcoder CPU per request after/before (median of rounds): ${median(perRound).toFixed(3)}`);
  console.log(`load average ${load()}`);
} finally {
  for (const s of Object.values(servers)) s.child.kill("SIGINT");
}
