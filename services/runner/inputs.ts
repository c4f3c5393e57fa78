/**
 * What the runner's inbox holds (JSON rows of `queue_inbox`): facts reported by the forge, events
 * for the engine produced by the runner itself (results of effects, fired timers), and requests
 * to look at a check, or a pull request's rules, again.
 */
import type { ForgeEvent } from "../forge/index.js";
import type { EngineEventInput } from "../engine/index.js";

/**
 * One inbox input (the JSON of a `queue_inbox` row): a forge event to translate (ingress.ts), an
 * engine event to apply as is, a check or a pull request's rules to evaluate again.
 */
export type RunnerInput =
  | { kind: "forge"; event: ForgeEvent }
  | { kind: "engine"; event: EngineEventInput }
  /** Re-evaluate the merge conditions of a check (after it was created, or on request). */
  | { kind: "evaluate_check"; checkId: string }
  /** The scheduled freezes changed, or one began: look again at every check and at who gave way to a freeze. */
  | { kind: "freezes_changed" }
  /** A time condition changed a pull request rule's verdict: evaluate the rules on that pull request (rule-actions/clock-timer.ts). */
  | { kind: "evaluate_pull_rules"; number: number }
  /** The clock or a dependency changed a pull request's merge protections: evaluate them (merge-protections/). */
  | { kind: "evaluate_protections"; number: number }
  /** CI sent new scopes for a pull request (docs/merge-queue.md "Scopes from CI"). */
  | { kind: "scopes_changed"; number: number }
  /** A product was enabled or disabled on the repository (docs/configuration.md "Products and unused sections"). */
  | { kind: "products_changed"; product: string; enabled: boolean };
