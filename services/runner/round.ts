/**
 * The transactional round (docs/merge-queue.md "Runner", item 3): in one transaction, load the
 * repository's engine state, take up to {@link MAX_INPUTS_PER_ROUND} inbox inputs (or apply one API
 * request alone), translate each into engine events (ingress.ts) and apply them, then persist the
 * new state, the log events, the timers and the forge effects (round-persist.ts) and delete the
 * inputs taken. Nothing is performed on the forge here: effects are performed after the commit
 * (effects-round.ts).
 */
import type pg from "pg";
import { compileFreeze } from "../config/index.js";
import {
  apply,
  createState,
  EngineInputError,
  tunedConfiguration,
  type EngineEffect,
  type EngineState,
  type LogEffect,
} from "../engine/index.js";
import type { ForgeEvent } from "../forge/index.js";
import { deleteInbox, listFreezes, loadQueueState, productStates, takeInbox } from "../store/index.js";
import { checkResults } from "./check-evaluation.js";
import { onScopesSent } from "./ci-scopes.js";
import { onFreezesChanged } from "./freeze-input.js";
import { enqueue, translateForgeEvent, type EnqueueResult, type IngressEnv } from "./ingress.js";
import { isTransientFailure } from "./input-failures.js";
import type { RunnerInput } from "./inputs.js";
import { pauseCorrection } from "./pause-agreement.js";
import { ProtectionCache } from "./protection-cache.js";
import { engineConfigurationInput, repositoryConfig, type RepositoryConfig } from "./repository-config.js";
import { roundFigures, type CommittedRound } from "./round-figures.js";
import { outcomeLines } from "./round-log.js";
import { roundReads } from "./round-reads.js";
import { persistRound } from "./round-persist.js";
import type { ProtectionsReportEffect } from "./merge-protections/effect.js";
import { runProtections, runProtectionsOn, runProtectionsOnAll } from "./merge-protections/trigger.js";
import { onProductSwitched } from "./product-switches.js";
import type { RuleActionEffect } from "./rule-actions/effect.js";
import { runPullRules, runPullRulesOnTime } from "./rule-actions/trigger.js";
import type { RunnerContext, RunnerRequest } from "./runner-context.js";
import { retuned } from "./traffic-tuning.js";

/** Inputs taken from the inbox in one round at most. */
export const MAX_INPUTS_PER_ROUND = 50;

/** What a round did: whether it applied anything, and the answer to the request it applied. */
export interface RoundOutcome {
  applied: boolean;
  result?: EnqueueResult | void;
}

/**
 * One transaction on `client` (which holds the repository's lock): the request `extra` alone when
 * given, else up to MAX_INPUTS_PER_ROUND inbox inputs. When applying an inbox input fails for a
 * reason that is not transient, `blame` is told its id before the error is rethrown
 * (input-failures.ts).
 * @throws EngineInputError when the engine refuses the request `extra`; whatever failed otherwise
 *   (the transaction is rolled back)
 */
export async function applyRound(
  ctx: RunnerContext,
  client: pg.ClientBase,
  repository: string,
  blame: (inputId: string) => void,
  extra?: RunnerRequest,
): Promise<RoundOutcome> {
  let applying: string | null = null;
  await client.query("BEGIN");
  try {
    const loaded = await loadQueueState<EngineState>(client, repository);
    let config: RepositoryConfig = await repositoryConfig(
      { forge: ctx.forge, db: client as never },
      repository,
      loaded === null,
    );
    // docs/self-tuning.md: self-tuned rules run with the settings the observed traffic chooses.
    const traffic = ctx.tuning?.traffic(repository) ?? null;
    const state =
      loaded ?? createState(repository, tunedConfiguration(engineConfigurationInput(config.config), traffic));
    // A request is applied in a round of its own: an input that cannot be applied fails the
    // sweep's rounds, not the API call of someone steering the queue.
    const inbox = extra ? [] : await takeInbox<RunnerInput>(client, repository, MAX_INPUTS_PER_ROUND);
    // docs/pause.md "The engine's pause": with the inbox worked off (every processing ends with
    // such a round, and the sweep kicks a repository whose pauses differ), the API's pause wins.
    const correction = inbox.length === 0 && !extra ? await pauseCorrection(client, repository, state) : null;
    const retune = loaded && !extra ? retuned(state, engineConfigurationInput(config.config), traffic) : null;
    if (inbox.length === 0 && !extra && correction === null && retune === null) {
      await client.query("COMMIT");
      return { applied: false };
    }
    const at = ctx.now();
    const effects: EngineEffect[] = [];
    const logs: LogEffect[] = [];
    const ruleEffects: (RuleActionEffect | ProtectionsReportEffect)[] = [];
    let current: EngineState = state;
    const evaluateAfter: string[] = [];
    const freezes = (await listFreezes(client, repository)).map(compileFreeze);
    // Each pull request read once in the round (round-reads.ts).
    const forge = roundReads(ctx.forge);
    const env: IngressEnv = {
      repository,
      forge,
      client,
      config,
      protections: new ProtectionCache(forge, repository),
      now: new Date(at),
      freezes,
      logger: ctx.log,
      traffic,
      testResults: ctx.testResults,
      products: await productStates(client, repository),
      state: () => current,
      emit: (event) => {
        try {
          const r = apply(current, event, at);
          current = r.state;
          for (const e of r.effects) (e.kind === "log" ? logs : effects).push(e);
          if (event.type === "speculative_check_created") evaluateAfter.push(event.checkId);
          return true;
        } catch (e) {
          if (!(e instanceof EngineInputError)) throw e;
          ctx.log.warn({ repository, event: event.type, err: e.message }, "the engine refused an event");
          if (extra?.kind === "engine" && extra.event === event) throw e;
          return false;
        }
      },
      effect: (e) => effects.push(e),
      ruleEffect: (e) => ruleEffects.push(e),
      log: (e) => logs.push(e),
      refreshConfig: () => repositoryConfig({ forge, db: client as never }, repository, true),
      setConfig: (c) => {
        config = c;
        env.config = c;
      },
    };
    let result: EnqueueResult | undefined;
    if (correction) {
      const engine = state.pause ? "paused" : "not paused";
      ctx.log.warn(
        { repository, engine, correction: correction.type },
        "the engine's pause differed from the API's with no pause input waiting; applied the API's",
      );
      if (!env.emit(correction)) {
        await client.query("COMMIT");
        return { applied: false };
      }
    }
    if (retune) {
      ctx.log.info({ repository, traffic }, "self-tuned settings follow the observed traffic");
      env.emit({ type: "configuration_changed", config: retune });
    }
    if (extra?.kind === "engine") env.emit(extra.event);
    if (extra?.kind === "enqueue") result = await enqueue(env, extra.number, extra.queueRule, extra.trigger, false);
    const evaluatePending = async () => {
      for (let id = evaluateAfter.shift(); id !== undefined; id = evaluateAfter.shift()) await checkResults(env, id);
    };
    for (const row of inbox) {
      applying = row.id;
      const input = row.input;
      if (input.kind === "engine") env.emit(input.event);
      else if (input.kind === "evaluate_check") await checkResults(env, input.checkId);
      else if (input.kind === "freezes_changed") {
        await onFreezesChanged(env);
        await runProtectionsOnAll(env);
      } else if (input.kind === "evaluate_pull_rules") await runPullRulesOnTime(env, input.number);
      else if (input.kind === "evaluate_protections") await runProtectionsOn(env, input.number);
      else if (input.kind === "products_changed") await onProductSwitched(env, input.product, input.enabled);
      else if (input.kind === "scopes_changed") await onScopesSent(env, input.number);
      else if (!isLabelEcho(ctx, env, repository, input.event)) {
        await translateForgeEvent(env, input.event);
        await runPullRules(env, input.event);
        await runProtections(env, input.event);
      }
      await evaluatePending();
    }
    applying = null;
    await evaluatePending();
    await persistRound(ctx, client, repository, { state: current, effects, logs, ruleEffects, at });
    await deleteInbox(
      client,
      inbox.map((r) => r.id),
    );
    await client.query("COMMIT");
    if (logs.length) ctx.eventsWritten();
    observe(ctx, { repository, before: state, after: current, effects, logs, at });
    return { applied: true, result };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    if (applying !== null && !isTransientFailure(e)) blame(applying);
    throw e;
  }
}

/**
 * Whether `event` reports the queue's own status-label change (label-echoes.ts): nothing to read,
 * unless a queue rule or pull request rule names that label (then it is read as any event).
 */
function isLabelEcho(ctx: RunnerContext, env: IngressEnv, repository: string, event: ForgeEvent): boolean {
  if (event.kind !== "pull_request_labeled" || !event.label) return false;
  const { queue_rules, pull_request_rules } = env.config.config;
  const named = JSON.stringify([queue_rules, pull_request_rules]).toLowerCase();
  if (named.includes(event.label.name.toLowerCase())) return false;
  return ctx.labelEchoes.take(repository, event.number, event.label);
}

/**
 * Tells the log (one `info` line per merge, dequeue and failed batch: round-log.ts) and the
 * metrics what a committed round did; a failure there is logged, never the round's.
 */
function observe(ctx: RunnerContext, round: CommittedRound): void {
  for (const line of outcomeLines(round.repository, round.logs)) ctx.log.info(line.fields, line.msg);
  if (!ctx.observeRound) return;
  try {
    ctx.observeRound(roundFigures(round));
  } catch (e) {
    ctx.log.warn({ err: e, repository: round.repository }, "the queue metrics could not be updated");
  }
}
