/**
 * `npm run bench:github` (docs/benchmarks.md "GitHub requests"; docs/github.md "Request budget"):
 * the GitHub App's requests per merged pull request, against the GitHub double, with 10, 100 and
 * 300 open pull requests and pull request rules (bench/github/run.ts). Printed per point: requests
 * per merge (every request, a 304 included), those charged against the primary rate limit, GraphQL
 * queries, content-creating requests, the limits' refusals, and the busiest routes; then PASS/FAIL
 * against the targets: at 300 open pull requests at most 30 requests per merge, and no answer of
 * the secondary rate limit during any run. The exit code does not depend on the targets.
 *
 * Options: --open 10,100,300   --merges 10   --batch 1 (the queue rule's batch_size)   --ci-seconds 120
 *   --label-every 30 (virtual seconds between two labels)   --reconcile-seconds 60
 *   --scale 10 (virtual seconds per real second).
 */
import { parseArgs } from "node:util";
import { runOnce, type RunFigures } from "./github/run.js";

const { values } = parseArgs({
  options: {
    open: { type: "string", default: "10,100,300" },
    merges: { type: "string", default: "10" },
    batch: { type: "string", default: "1" },
    "ci-seconds": { type: "string", default: "120" },
    "label-every": { type: "string", default: "30" },
    "reconcile-seconds": { type: "string", default: "60" },
    scale: { type: "string", default: "10" },
  },
});
const points = values.open.split(",").map(Number);
const TARGET_PER_MERGE = 30;
const fmt = (x: number) => x.toFixed(1);

console.log(
  `GitHub requests per merge: ${values.merges} merges per point, batch_size ${values.batch}, CI ${values["ci-seconds"]} s, a label every ${values["label-every"]} s, reconciliation every ${values["reconcile-seconds"]} s (virtual time, ${values.scale}x)`,
);
const results: RunFigures[] = [];
for (const open of points) {
  const f = await runOnce({
    open,
    merges: Number(values.merges),
    batchSize: Number(values.batch),
    ciSeconds: Number(values["ci-seconds"]),
    labelEverySeconds: Number(values["label-every"]),
    reconcileSeconds: Number(values["reconcile-seconds"]),
    scale: Number(values.scale),
    log: process.env.BENCH_VERBOSE ? (line) => console.error(line) : undefined,
  });
  results.push(f);
  const per = (x: number) => fmt(x / f.merges);
  console.log(
    `\n${open} open pull requests: ${per(f.requests)} requests per merge (${f.requests} in ${fmt(f.virtualSeconds / 60)} min), ${per(f.charged)} charged against the primary limit, ${per(f.notModified)} answered 304, ${per(f.graphql)} GraphQL, ${per(f.contentCreating)} content-creating, ${per(f.reconciliation)} reconciliation; refused: ${f.primaryRefused} primary, ${f.secondaryRefused} secondary`,
  );
  for (const r of f.routes.slice(0, process.env.BENCH_ALL_ROUTES ? 100 : 12))
    console.log(`  ${r.route.padEnd(48)} ${per(r.requests).padStart(6)} per merge  (${r.notModified} × 304)`);
}

console.log("");
const at300 = results.find((r) => r.open === 300) ?? results.at(-1)!;
const perMerge = at300.requests / at300.merges;
console.log(
  `${perMerge <= TARGET_PER_MERGE ? "PASS" : "FAIL"} at ${at300.open} open pull requests: ${fmt(perMerge)} requests per merge (target <= ${TARGET_PER_MERGE}; ${fmt(at300.charged / at300.merges)} charged against the primary limit)`,
);
const secondary = results.reduce((s, r) => s + r.secondaryRefused, 0);
console.log(
  `${secondary === 0 ? "PASS" : "FAIL"} secondary rate limit answers during the runs: ${secondary} (target 0)`,
);
process.exit(0);
