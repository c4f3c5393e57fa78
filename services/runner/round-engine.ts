/**
 * The engine as one round drives it (docs/merge-queue.md "Runner", item 3): the state after the
 * events applied so far, and what they decided (forge effects, log events, rule actions and merge
 * protections reports) for round-persist.ts to write in the round's transaction. The one owner of
 * those: the round's steps add to them through its methods only.
 */
import {
  apply,
  EngineInputError,
  type EngineEffect,
  type EngineEventInput,
  type EngineState,
  type LogEffect,
} from "../engine/index.js";
import type { ProtectionsReportEffect } from "./merge-protections/effect.js";
import type { RuleActionEffect } from "./rule-actions/effect.js";

/** What a round decided, as round-persist.ts writes it. */
export interface RoundDecisions {
  readonly state: EngineState;
  readonly effects: readonly EngineEffect[];
  readonly logs: readonly LogEffect[];
  readonly ruleEffects: readonly (RuleActionEffect | ProtectionsReportEffect)[];
}

/** The engine of one round, applying events at the round's time. */
export class RoundEngine implements RoundDecisions {
  private current: EngineState;
  private readonly decided = {
    effects: [] as EngineEffect[],
    logs: [] as LogEffect[],
    ruleEffects: [] as (RuleActionEffect | ProtectionsReportEffect)[],
  };
  /** Checks created by the events applied, to evaluate once (their CI may have reported already). */
  private readonly created: string[] = [];

  /**
   * @param state the state the round starts from
   * @param at the round's time (epoch ms UTC) every event is applied at
   * @param refused told of each event the engine refuses (EngineInputError); may rethrow it
   */
  constructor(
    state: EngineState,
    private readonly at: number,
    private readonly refused: (event: EngineEventInput, error: EngineInputError) => void,
  ) {
    this.current = state;
  }

  get state(): EngineState {
    return this.current;
  }
  get effects(): readonly EngineEffect[] {
    return this.decided.effects;
  }
  get logs(): readonly LogEffect[] {
    return this.decided.logs;
  }
  get ruleEffects(): readonly (RuleActionEffect | ProtectionsReportEffect)[] {
    return this.decided.ruleEffects;
  }

  /**
   * Applies `event` now (engine/apply.ts). Returns false when the engine refused it.
   * @throws what `refused` throws; any error of the engine other than EngineInputError
   */
  emit(event: EngineEventInput): boolean {
    try {
      const r = apply(this.current, event, this.at);
      this.current = r.state;
      for (const e of r.effects) (e.kind === "log" ? this.decided.logs : this.decided.effects).push(e);
      if (event.type === "speculative_check_created") this.created.push(event.checkId);
      return true;
    } catch (e) {
      if (!(e instanceof EngineInputError)) throw e;
      this.refused(event, e);
      return false;
    }
  }

  /** A forge effect of the runner itself (a reply). */
  effect(effect: EngineEffect): void {
    this.decided.effects.push(effect);
  }

  /** An action of a pull request rule, or a merge protections report, to perform after the commit. */
  ruleEffect(effect: RuleActionEffect | ProtectionsReportEffect): void {
    this.decided.ruleEffects.push(effect);
  }

  /** A log event of the runner itself (command.*, action.refresh). */
  log(effect: LogEffect): void {
    this.decided.logs.push(effect);
  }

  /** The next check created since the last call, or undefined. */
  nextCreatedCheck(): string | undefined {
    return this.created.shift();
  }
}
