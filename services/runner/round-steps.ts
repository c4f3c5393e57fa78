/**
 * The named steps of a round (round.ts; docs/merge-queue.md "Runner", item 3), in the order the
 * round runs them: the pause correction, the retuning, the request, each inbox input (forge events,
 * freezes, rule actions, merge protections, products, scopes), and the evaluation of the checks
 * created meanwhile. Each takes what it needs, and changes the engine's state only through the
 * round's engine (round-engine.ts, or the ingress environment that wraps it).
 */
import type { Logger } from "pino";
import type { ConfigurationInput, EngineEventInput, ObservedTraffic } from "../engine/index.js";
import type { ForgeEvent } from "../forge/index.js";
import { checkResults } from "./check-evaluation.js";
import { onScopesSent } from "./ci-scopes.js";
import { onFreezesChanged } from "./freeze-input.js";
import { enqueue, translateForgeEvent, type EnqueueResult, type IngressEnv } from "./ingress.js";
import type { RunnerInput } from "./inputs.js";
import type { LabelEchoes } from "./label-echoes.js";
import { runProtections, runProtectionsOn, runProtectionsOnAll } from "./merge-protections/trigger.js";
import { onProductSwitched } from "./product-switches.js";
import type { RoundEngine } from "./round-engine.js";
import { runPullRules, runPullRulesOnTime } from "./rule-actions/trigger.js";
import type { RunnerRequest } from "./runner-context.js";

/** Where a step logs: the logger and the repository its lines name. */
export interface StepLog {
  logger: Logger;
  repository: string;
}

/**
 * Pause correction (pause-agreement.ts): applies the API's pause to the engine, with a warning.
 * @returns false when the engine refused it (the round then ends without applying anything)
 */
export function correctPause(engine: RoundEngine, correction: EngineEventInput, log: StepLog): boolean {
  const engineSays = engine.state.pause ? "paused" : "not paused";
  log.logger.warn(
    { repository: log.repository, engine: engineSays, correction: correction.type },
    "the engine's pause differed from the API's with no pause input waiting; applied the API's",
  );
  return engine.emit(correction);
}

/** Retuning (traffic-tuning.ts, docs/self-tuning.md): the settings the observed traffic chooses. */
export function retune(
  engine: RoundEngine,
  config: ConfigurationInput,
  traffic: ObservedTraffic | null,
  log: StepLog,
): void {
  log.logger.info({ repository: log.repository, traffic }, "self-tuned settings follow the observed traffic");
  engine.emit({ type: "configuration_changed", config });
}

/**
 * An API request, applied in a round of its own.
 * @returns the enqueue's answer (undefined for an engine event)
 * @throws EngineInputError when the engine refuses the request's event (the round's `refused` rethrows it)
 */
export async function applyRequest(env: IngressEnv, request: RunnerRequest): Promise<EnqueueResult | undefined> {
  if (request.kind === "engine") {
    env.emit(request.event);
    return undefined;
  }
  return enqueue(env, request.number, request.queueRule, request.trigger, false);
}

/**
 * One inbox input: engine events are applied; the others are turned into engine events by what
 * they concern (checks, freezes, pull request rules, merge protections, products, scopes, forge
 * events), a label echo of the queue's own excepted.
 */
export async function applyInput(env: IngressEnv, input: RunnerInput, echoes: LabelEchoes): Promise<void> {
  switch (input.kind) {
    case "engine":
      env.emit(input.event);
      return;
    case "evaluate_check":
      return checkResults(env, input.checkId);
    case "freezes_changed":
      await onFreezesChanged(env);
      return runProtectionsOnAll(env);
    case "evaluate_pull_rules":
      return runPullRulesOnTime(env, input.number);
    case "evaluate_protections":
      return runProtectionsOn(env, input.number);
    case "products_changed":
      return onProductSwitched(env, input.product, input.enabled);
    case "scopes_changed":
      return onScopesSent(env, input.number);
    case "forge":
      if (isLabelEcho(env, echoes, input.event)) return;
      await translateForgeEvent(env, input.event);
      await runPullRules(env, input.event);
      return runProtections(env, input.event);
  }
}

/** Check evaluation: each check the round's events created, once (its CI may have reported already). */
export async function evaluateCreatedChecks(env: IngressEnv, engine: RoundEngine): Promise<void> {
  for (let id = engine.nextCreatedCheck(); id !== undefined; id = engine.nextCreatedCheck())
    await checkResults(env, id);
}

/**
 * Whether `event` reports the queue's own status-label change (label-echoes.ts): nothing to read,
 * unless a queue rule or pull request rule names that label (then it is read as any event).
 */
function isLabelEcho(env: Pick<IngressEnv, "config" | "repository">, echoes: LabelEchoes, event: ForgeEvent): boolean {
  if (event.kind !== "pull_request_labeled" || !event.label) return false;
  const { queue_rules, pull_request_rules } = env.config.config;
  const named = JSON.stringify([queue_rules, pull_request_rules]).toLowerCase();
  if (named.includes(event.label.name.toLowerCase())) return false;
  return echoes.take(env.repository, event.number, event.label);
}
