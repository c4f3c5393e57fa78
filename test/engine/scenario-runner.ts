/**
 * Runs a random scenario (scenario-generators.ts) on the virtual forge, then unpauses and drains
 * it; `runScenario` returns every problem found: broken invariants after each step, double or
 * lost merges, merges the logs do not tell, breaking pull requests reaching the base.
 */
import type { ConfigurationInput } from "../../services/engine/index.js";
import { Simulation, constantMinutes, type SimulationStep } from "../../services/simulation/index.js";
import {
  batchLinkProblems,
  impactProblems,
  logProblems,
  pairingProblems,
  seenInLogs,
  stateProblems,
} from "./invariants.js";
import { configuration, queueRule } from "./scenario-builders.js";
import type { Scenario } from "./scenario-generators.js";

function configOf(
  s: Scenario,
  parallel: number,
  ruleName: string,
  mode: Scenario["mode"] = s.mode,
): ConfigurationInput {
  return configuration({
    rules: [
      queueRule({
        name: ruleName,
        batch_size: { min: s.batchMin, max: s.batchMin + s.batchExtra },
        batch_max_wait_time: s.waitSeconds,
        max_checks_retries: s.retries,
        batch_max_failure_resolution_attempts: s.attempts,
        checks_timeout: s.timeoutMinutes === null ? null : s.timeoutMinutes * 60,
        merge_method: s.fastForward && mode === "serial" ? "fast-forward" : "merge",
        risk_aware_batching: s.riskAware,
      }),
    ],
    mergeQueue: {
      max_parallel_checks: parallel,
      mode,
      skip_intermediate_results: s.skip,
      reset_on_external_merge: s.reset,
    },
  });
}

/** What a run found, and counters to check that scenarios exercise the engine. */
export interface ScenarioOutcome {
  problems: string[];
  merged: number;
  left: number;
  untestedMerges: number;
  badMerged: number;
  /** Dequeue and abort codes seen, and log event types seen (coverage of the generator). */
  seen: Set<string>;
}

/** Runs a scenario to the end (unpaused, drained) with every invariant checked. */
export function runScenario(s: Scenario, options: { checkImpact?: boolean } = {}): ScenarioOutcome {
  const problems: string[] = [];
  let ruleName = "default";
  let mode = s.mode;
  const observe = (step: SimulationStep) => {
    for (const e of step.effects) if (e.kind === "log") problems.push(...logProblems(e));
    problems.push(...stateProblems(step.after).map((p) => `after ${step.event.type}: ${p}`));
    if (options.checkImpact !== false) problems.push(...impactProblems(step));
  };
  const sim = new Simulation({
    seed: s.seed,
    config: configOf(s, s.parallel, ruleName),
    ciDuration: constantMinutes(s.ciMinutes),
    ciSlots: s.ciSlots,
    flakeRate: s.flake,
    tests: s.tests ?? undefined,
    observe,
  });
  const numbers: number[] = [];
  for (const a of s.actions) {
    if (problems.length) break;
    const pick = (k: number) => numbers[k % Math.max(1, numbers.length)];
    switch (a.kind) {
      case "arrive": {
        const previous = numbers.at(-1);
        const scopes = mode === "serial" ? [] : [["api"], ["web"], ["api", "web"]][a.scope]!;
        numbers.push(
          sim.arrive({
            bad: a.bad && sim.rng.chance(0.5),
            priority: a.high ? 3000 : 2000,
            allowChecksInterruption: a.interrupt,
            scopes,
            dependsOn: a.stacked && previous ? [previous] : [],
          }),
        );
        break;
      }
      case "wait":
        sim.drain(a.minutes * 60_000);
        break;
      case "dequeue": {
        const n = pick(a.pick);
        if (n !== undefined) sim.dequeue(n);
        break;
      }
      case "push": {
        const n = pick(a.pick);
        if (n !== undefined && sim.state.pulls[String(n)]) sim.push(n);
        break;
      }
      case "pause":
        sim.pause();
        break;
      case "unpause":
        sim.unpause();
        break;
      case "external":
        sim.externalMerge();
        break;
      case "retarget": {
        const n = pick(a.pick);
        if (n !== undefined) sim.send({ type: "pull_request_base_changed", number: n, baseRef: "release" });
        break;
      }
      case "editDraft": {
        const drafts = sim.state.trains
          .flatMap((t) => t.batches)
          .map((c) => c.check)
          .filter((c) => c?.mode === "draft" && c.phase === "running");
        const check = drafts[a.pick % Math.max(1, drafts.length)];
        if (check) sim.send({ type: "speculative_check_edited", checkId: check.id, headSha: "f0".repeat(20) });
        break;
      }
      case "deleteBase":
        sim.send({ type: "base_branch_deleted", branch: sim.branch });
        break;
      case "closeWindow":
        sim.closeMergeWindow(a.minutes * 60_000, a.modulus);
        break;
      case "freeze":
        sim.freeze(a.minutes * 60_000, a.modulus);
        break;
      case "reconfigure":
        if (a.dropRule) ruleName = ruleName === "default" ? "renamed" : "default";
        if (a.switchMode && mode !== "serial") mode = mode === "parallel" ? "isolated" : "parallel";
        sim.configure(configOf(s, a.parallel, ruleName, mode));
        break;
    }
  }
  if (sim.state.pause) sim.unpause();
  sim.drain(14 * 24 * 3_600_000);
  const stats = sim.stats();
  if (Object.keys(sim.state.pulls).length)
    problems.push(`not drained: still queued ${Object.keys(sim.state.pulls).join(",")}`);
  if (stats.doubleMerges) problems.push(`${stats.doubleMerges} pull requests merged twice`);
  if (stats.exactnessViolations) problems.push(`${stats.exactnessViolations} merges called exact were not`);
  if (stats.frozenMerges) problems.push(`${stats.frozenMerges} merges took a pull request an active freeze holds`);
  const strict = s.mode === "serial" && s.reset === "always";
  if (strict && stats.untestedMerges) problems.push(`${stats.untestedMerges} merges put an untested tree on the base`);
  const mergedByForge = new Set(sim.forge.mergedPulls);
  const mergedByLog = new Set(
    sim.logs.filter((l) => l.type === "action.queue.leave" && l.metadata.merged === true).map((l) => l.pullRequest!),
  );
  for (const n of mergedByForge)
    if (!mergedByLog.has(n)) problems.push(`#${n} is in the base but no leave says merged`);
  for (const n of mergedByLog) if (!mergedByForge.has(n)) problems.push(`#${n} left as merged but is not in the base`);
  for (const [n, fate] of sim.fates)
    if (fate.code === null && !sim.state.pulls[String(n)]) problems.push(`#${n} was lost: no leave and not queued`);
  problems.push(...pairingProblems(sim.logs, sim.state), ...batchLinkProblems(sim.logs));
  const badMerged = [...mergedByForge].filter((n) => sim.forge.bad.has(n)).length;
  if (strict && badMerged) problems.push(`${badMerged} breaking pull requests reached the base`);
  const seen = seenInLogs(sim.logs);
  return {
    problems,
    merged: mergedByForge.size,
    left: [...sim.fates.values()].filter((f) => f.code !== null).length,
    untestedMerges: stats.untestedMerges,
    badMerged,
    seen,
  };
}
