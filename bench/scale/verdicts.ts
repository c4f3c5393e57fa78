/**
 * The sizing rule `npm run bench:scale` implies, and its PASS/FAIL lines (docs/benchmarks.md
 * "Capacity of one process"):
 * - nothing lost: every webhook of every step reached its effect;
 * - no pull request merged twice;
 * - one process carries the 1,000 repositories at {@link TARGET_WEBHOOKS_PER_SECOND} webhooks per
 *   second or more with p99 from webhook to effect within {@link P99_TARGET_MS};
 * - two replicas spread the repositories: each works at least a quarter of the active ones.
 */
import { EVENT_KINDS } from "./lifecycles.js";
import { ratedStep, stepFigures, type PassResult } from "./report.js";

/** The latency a step must keep, p99 from webhook to effect, ms. */
export const P99_TARGET_MS = 5000;
/** The webhook rate one process must carry with that latency (one pull request lifecycle a second). */
export const TARGET_WEBHOOKS_PER_SECOND = 3;

/** Prints the sizing rule and the verdicts. */
export function printVerdicts(passes: PassResult[], mergedTwice: string[], log: (line: string) => void): void {
  const verdict = (ok: boolean, text: string) => log(`${ok ? "PASS" : "FAIL"}  ${text}`);
  log("");
  const one = passes.find((p) => p.replicas === 1);
  const two = passes.find((p) => p.replicas === 2);
  for (const p of passes) {
    const rated = ratedStep(p, P99_TARGET_MS);
    if (!rated) {
      log(`${p.replicas} replica(s): no step kept p99 within ${P99_TARGET_MS} ms`);
      continue;
    }
    const x = stepFigures(rated);
    const upTo = p.steps.slice(0, p.steps.indexOf(rated) + 1).map((s) => stepFigures(s, p.idleCores).cpuMsPerEvent);
    const cpuMs = upTo.sort((a, b) => a - b)[Math.floor(upTo.length / 2)];
    const pullsPerHour = rated.rate * 3600;
    log(
      `${p.replicas} replica(s): rated ${x.offered.toFixed(1)} webhooks/s (p99 ${x.p99.toFixed(0)} ms), ${pullsPerHour.toFixed(0)} pull requests/hour at ${EVENT_KINDS.length} webhooks each, over ${p.active} active of 1,000 repositories; ${cpuMs.toFixed(1)} ms of replica CPU per webhook (${(1000 / cpuMs).toFixed(0)} webhooks/s per core)`,
    );
  }
  if (one) {
    const rated = ratedStep(one, P99_TARGET_MS);
    const perRepo = (one.rss[1] - one.rss[0]) / Math.max(1, one.active);
    if (rated) {
      const webhooks = stepFigures(rated).offered;
      log(
        `sizing rule: one process per 1,000 active repositories at ${((rated.rate * 3600) / 1000).toFixed(1)} pull requests/hour each (${EVENT_KINDS.length} webhooks per pull request; at W webhooks per pull request, ${((webhooks * 3600) / 1000).toFixed(0)}/W), ${(perRepo / 1024).toFixed(0)} KB of memory per active repository`,
      );
    }
  }
  if (one) {
    const writes = one.writes / Math.max(1, one.active);
    log(
      `with GITHUB_SPACE_WRITES=true (the default: one write a second per process, all installations together) a process makes at most 3,600 writes an hour: ${(3600 / writes).toFixed(0)} pull requests/hour at ${writes.toFixed(1)} writes each, whatever its CPU`,
    );
  }
  if (one && two) {
    const r1 = ratedStep(one, P99_TARGET_MS);
    const r2 = ratedStep(two, P99_TARGET_MS);
    if (r1 && r2)
      log(
        `two replicas / one: ${(stepFigures(r2).offered / stepFigures(r1).offered).toFixed(2)}x the rated webhook rate`,
      );
  }
  const lost = passes.flatMap((p) =>
    p.steps.map((s) => {
      const x = stepFigures(s);
      return x.lost + x.unsent;
    }),
  );
  verdict(
    lost.every((n) => n === 0),
    `no webhook lost: every webhook reached its effect (${lost.reduce((a, b) => a + b, 0)} did not)`,
  );
  verdict(mergedTwice.length === 0, `no pull request merged twice (${mergedTwice.length} were)`);
  if (one) {
    const rated = ratedStep(one, P99_TARGET_MS);
    const rate = rated ? stepFigures(rated).offered : 0;
    verdict(
      rate >= TARGET_WEBHOOKS_PER_SECOND,
      `one process carries >= ${TARGET_WEBHOOKS_PER_SECOND} webhooks/s over 1,000 repositories with p99 <= ${P99_TARGET_MS} ms (rated ${rate.toFixed(1)})`,
    );
  }
  if (two) {
    const total = two.worked.reduce((a, b) => a + b, 0);
    const share = total ? Math.min(...two.worked) / total : 0;
    verdict(
      share >= 0.25,
      `two replicas spread the repositories: each works >= 25% (${two.worked.join(" and ")} of ${total})`,
    );
  }
}
