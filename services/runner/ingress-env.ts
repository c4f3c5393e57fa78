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
import type { FlakyTestFilesReader } from "./risk-signals.js";
import type { ConfigProofs } from "./config-proofs.js";

/**
 * What translating needs: the transaction, the forge, the configuration and the engine. Built once
 * per round (round.ts); nothing outside it writes its members: the engine's state changes through
 * `emit`, the configuration through `reloadConfig`.
 */
export interface IngressEnv {
  readonly repository: string;
  readonly forge: ForgePort;
  readonly client: pg.ClientBase;
  /** The configuration in use (the one read again after a push to the default branch, once read). */
  readonly config: RepositoryConfig;
  readonly protections: ProtectionCache;
  readonly now: Date;
  /** The repository's scheduled freezes, read at the start of the round (config/rules/freeze-hold.ts). */
  readonly freezes: readonly CompiledFreeze[];
  readonly logger: Logger;
  /** The repository's observed traffic for its self-tuned rules (null: static defaults; docs/self-tuning.md). */
  readonly traffic: ObservedTraffic | null;
  /** CI Insights' facts about failed checks (null: the queue is blind to tests; test-facts.ts). */
  readonly testResults: TestResultsReader | null;
  /** The files of the tests known flaky on a base branch (null: none read; risk-signals.ts). */
  readonly flakyTests: FlakyTestFilesReader | null;
  /** The configurations this runner carries over pushes proven not to change them (config-proofs.ts). */
  readonly configProofs: ConfigProofs;
  /** Which products are enabled on the repository, read at the start of the round (docs/configuration.md "Products and unused sections"). */
  readonly products: Readonly<Record<ProductName, boolean>>;
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
  /** Reads the configuration file from the forge again and uses it from now on; returns it. */
  reloadConfig(): Promise<RepositoryConfig>;
}
