/**
 * The transactional round (docs/merge-queue.md "Runner", item 3): in one transaction, load the
 * repository's engine state, take up to {@link MAX_INPUTS_PER_ROUND} inbox inputs (or apply one API
 * request alone), turn each into engine events and apply them, then persist the new state, the log
 * events, the timers and the forge effects (round-persist.ts) and delete the inputs taken. Nothing
 * is performed on the forge here: effects are performed after the commit (effects-round.ts).
 *
 * The round is a pipeline of named steps (round-steps.ts): pause correction, retuning, the
 * request, each inbox input (forge events, freezes, rule actions, merge protections...), and check
 * evaluation. The engine's state and what it decided live in the round's engine (round-engine.ts).
 */
import type pg from "pg";
import { compileFreeze } from "../config/index.js";
import { createState, tunedConfiguration, type EngineState, type ObservedTraffic } from "../engine/index.js";
import {
  deleteInbox,
  listFreezes,
  loadQueueState,
  productStates,
  takeInbox,
  withTransaction,
  type InboxRow,
} from "../store/index.js";
import type { EnqueueResult, IngressEnv } from "./ingress.js";
import { isTransientFailure } from "./input-failures.js";
import type { RunnerInput } from "./inputs.js";
import type { LabelEchoes } from "./label-echoes.js";
import { pauseCorrection } from "./pause-agreement.js";
import { ProtectionCache } from "./protection-cache.js";
import { engineConfigurationInput, repositoryConfig, type RepositoryConfig } from "./repository-config.js";
import { RoundEngine } from "./round-engine.js";
import { roundFigures, type CommittedRound } from "./round-figures.js";
import { outcomeLines } from "./round-log.js";
import { persistRound } from "./round-persist.js";
import { roundReads } from "./round-reads.js";
import { applyInput, applyRequest, correctPause, evaluateCreatedChecks, retune } from "./round-steps.js";
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
  const round = await withTransaction(client, async (tx) => {
    const start = await startRound(ctx, tx, repository, extra);
    const { state, config, traffic, inbox } = start;
    // docs/pause.md "The engine's pause": with the inbox worked off (every processing ends with
    // such a round, and the sweep kicks a repository whose pauses differ), the API's pause wins.
    const correction = inbox.length === 0 && !extra ? await pauseCorrection(tx, repository, state) : null;
    const retuning = start.loaded && !extra ? retuned(state, engineConfigurationInput(config.config), traffic) : null;
    if (inbox.length === 0 && !extra && correction === null && retuning === null) return null;
    const at = ctx.now();
    const engine = new RoundEngine(state, at, (event, e) => {
      ctx.log.warn({ repository, event: event.type, err: e.message }, "the engine refused an event");
      if (extra?.kind === "engine" && extra.event === event) throw e;
    });
    const env = await ingressEnv({ ctx, client: tx, repository, engine, config, traffic, at });
    const log = { logger: ctx.log, repository };
    if (correction && !correctPause(engine, correction, log)) return null;
    if (retuning) retune(engine, retuning, traffic, log);
    const result = extra ? await applyRequest(env, extra) : undefined;
    await applyInbox(env, engine, inbox, { echoes: ctx.labelEchoes, blame });
    await evaluateCreatedChecks(env, engine);
    const decided = { state: engine.state, effects: engine.effects, logs: engine.logs, at };
    await persistRound(ctx, tx, repository, { ...decided, ruleEffects: engine.ruleEffects });
    await deleteInbox(
      tx,
      inbox.map((r) => r.id),
    );
    return { result, committed: { repository, before: state, after: decided.state, ...decided } };
  });
  if (round === null) return { applied: false };
  if (round.committed.logs.length) ctx.eventsWritten();
  observe(ctx, round.committed);
  return { applied: true, result: round.result };
}

/** What a round starts from: the stored state (or a new one), the configuration, the traffic and the inputs. */
interface RoundStart {
  /** Whether the state was stored (false: the repository's first round). */
  loaded: boolean;
  state: EngineState;
  config: RepositoryConfig;
  traffic: ObservedTraffic | null;
  inbox: InboxRow<RunnerInput>[];
}

/** Reads what a round starts from, in its transaction `tx`. */
async function startRound(
  ctx: RunnerContext,
  tx: pg.ClientBase,
  repository: string,
  extra: RunnerRequest | undefined,
): Promise<RoundStart> {
  const loaded = await loadQueueState<EngineState>(tx, repository);
  const config = await repositoryConfig({ forge: ctx.forge, db: tx }, repository, loaded === null);
  // docs/self-tuning.md: self-tuned rules run with the settings the observed traffic chooses.
  const traffic = ctx.tuning?.traffic(repository) ?? null;
  const state = loaded ?? createState(repository, tunedConfiguration(engineConfigurationInput(config.config), traffic));
  // A request is applied in a round of its own: an input that cannot be applied fails the
  // sweep's rounds, not the API call of someone steering the queue.
  const inbox = extra ? [] : await takeInbox<RunnerInput>(tx, repository, MAX_INPUTS_PER_ROUND);
  return { loaded: loaded !== null, state, config, traffic, inbox };
}

/**
 * The ingress environment of a round (ingress-env.ts) over the round's engine: the forge as the
 * round reads it (each pull request once: round-reads.ts), the freezes and products read now.
 */
async function ingressEnv(opts: {
  ctx: RunnerContext;
  client: pg.ClientBase;
  repository: string;
  engine: RoundEngine;
  config: RepositoryConfig;
  traffic: ObservedTraffic | null;
  /** The round's time, epoch ms UTC. */
  at: number;
}): Promise<IngressEnv> {
  const { ctx, client, repository, engine } = opts;
  const forge = roundReads(ctx.forge);
  const freezes = (await listFreezes(client, repository)).map(compileFreeze);
  const products = await productStates(client, repository);
  let config = opts.config;
  return {
    repository,
    forge,
    client,
    get config() {
      return config;
    },
    protections: new ProtectionCache(forge, repository),
    now: new Date(opts.at),
    freezes,
    logger: ctx.log,
    traffic: opts.traffic,
    testResults: ctx.testResults,
    flakyTests: ctx.flakyTests,
    configProofs: ctx.configProofs,
    products,
    state: () => engine.state,
    emit: (event) => engine.emit(event),
    effect: (e) => engine.effect(e),
    ruleEffect: (e) => engine.ruleEffect(e),
    log: (e) => engine.log(e),
    reloadConfig: async () => (config = await repositoryConfig({ forge, db: client }, repository, true)),
  };
}

/**
 * Applies the inbox inputs in order, each followed by the evaluation of the checks it created.
 * An input that fails for a reason that is not transient is blamed (input-failures.ts) before the
 * error is rethrown.
 */
async function applyInbox(
  env: IngressEnv,
  engine: RoundEngine,
  inbox: readonly InboxRow<RunnerInput>[],
  on: { echoes: LabelEchoes; blame: (inputId: string) => void },
): Promise<void> {
  for (const row of inbox) {
    try {
      await applyInput(env, row.input, on.echoes);
      await evaluateCreatedChecks(env, engine);
    } catch (e) {
      if (!isTransientFailure(e)) on.blame(row.id);
      throw e;
    }
  }
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
