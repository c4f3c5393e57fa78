/**
 * What translating forge facts into engine events needs during one round (docs/merge-queue.md
 * "Runner", item 3): the transaction, the forge, the configuration, the freezes and the engine.
 */
import type { Logger } from "pino";
import type pg from "pg";
import type { CompiledFreeze } from "../config/index.js";
import type { EngineEffect, LogEffect } from "../engine/index.js";
import type { EngineEventInput } from "../engine/index.js";
import type { EngineState, ObservedTraffic } from "../engine/index.js";
import type { ForgePort } from "../forge/index.js";
import type { ProtectionCache } from "./protection-cache.js";
import type { RepositoryConfig } from "./repository-config.js";
import type { ProductName } from "../store/index.js";
import type { ProtectionsReportEffect } from "./merge-protections/effect.js";
import type { RuleActionEffect } from "./rule-actions/effect.js";
import type { TestResultsReader } from "./test-facts.js";

/** What translating needs: the transaction, the forge, the configuration and the engine. */
export interface IngressEnv {
  repository: string;
  forge: ForgePort;
  client: pg.ClientBase;
  config: RepositoryConfig;
  protections: ProtectionCache;
  now: Date;
  /** The repository's scheduled freezes, read at the start of the round (config/rules/freeze-hold.ts). */
  freezes: readonly CompiledFreeze[];
  logger: Logger;
  /** The repository's observed traffic for its self-tuned rules (null: static defaults; docs/self-tuning.md). */
  traffic: ObservedTraffic | null;
  /** CI Insights' facts about failed checks (null: the queue is blind to tests; test-facts.ts). */
  testResults: TestResultsReader | null;
  /** Which products are enabled on the repository, read at the start of the round (docs/configuration.md "Products and unused sections"). */
  products: Record<ProductName, boolean>;
  /** The engine state as of now (after the events emitted so far). */
  state(): EngineState;
  /** Applies an engine event now. Returns false when the engine refused it (logged). */
  emit(event: EngineEventInput): boolean;
  /** A forge effect of the runner itself (a reply). */
  effect(effect: EngineEffect): void;
  /** An action of a pull request rule, or a merge protections report, to perform after the commit. */
  ruleEffect(effect: RuleActionEffect | ProtectionsReportEffect): void;
  /** A log event of the runner itself (command.*, action.refresh). */
  log(effect: LogEffect): void;
  /** Reads the configuration file again; returns the new configuration. */
  refreshConfig(): Promise<RepositoryConfig>;
  setConfig(config: RepositoryConfig): void;
}
