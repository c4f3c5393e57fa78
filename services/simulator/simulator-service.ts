/**
 * The SimulatorService (docs/api.md "Simulation", #9-#11; docs/domain.md §5):
 * - SimulateConfiguration validates a configuration text: `message`, `deprecations`, and
 *   `unused_sections` (sections of products not enabled on the repository);
 * - SimulateRepository validates it for the repository: title "The configuration is valid",
 *   summary "", deprecations;
 * - SimulatePullRequest evaluates every pull request rule and queue rule against the pull
 *   request's current attributes from the forge: which rules match, which actions would run,
 *   which queue it would enter with which priority, each rule's conditions as a checklist, and
 *   the scheduled freezes that hold or will hold its merge (freeze-notes.ts), its scopes and its
 *   merge protections' verdict (protection-notes.ts).
 * A text that does not validate is INVALID_ARGUMENT (422) listing its errors (the first 100, then
 * one counting the rest), each as a field violation of `service_yml` (or `mergify_yml`, the name
 * Mergify's CLI sends: configuration-text.ts) naming the configuration
 * path, line and column; the text missing or over 1 MiB is 422 too (FieldRule of the requests,
 * then the loader's limits: docs/configuration.md "Limits"). A large text is loaded off the event
 * loop (services/offload). `extends` reads only a repository the caller's credential reaches: any
 * other is PERMISSION_DENIED (403) with one message, whether it exists or not (docs/auth.md).
 * A pull request that does not exist is 404.
 * - SimulateTraffic simulates the repository's recorded traffic under the running configuration and
 *   under the text (traffic-simulation.ts, docs/what-if.md).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { DeprecationSchema, SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { DomainError, InvalidArgumentError } from "../contracts/index.js";
import { isForgeError, type PullRequestSnapshot } from "../forge/index.js";
import { simulatePullRequestBounded, WorkLimitError } from "../offload/index.js";
import { listFreezes, productStates } from "../store/index.js";
import { callerOf, validate, type SimulatorDeps } from "./caller-configuration.js";
import { configurationText, type ConfigurationText } from "./configuration-text.js";
import { freezeNotes } from "./freeze-notes.js";
import { protectionNotes, scopeNotes } from "./protection-notes.js";
import { simulateTraffic } from "./traffic-simulation.js";
import {
  attributesOf,
  simulateRepositorySummary,
  unusedSections,
  type Configuration,
  type DeprecationFinding,
  type EvaluationContext,
  type Product,
  type SimulationSummary,
} from "../config/index.js";

function deprecation(d: DeprecationFinding): MessageInitShape<typeof DeprecationSchema> {
  return {
    message: d.message,
    deadline: d.deadline,
    pathToField: {
      values: d.path.map((p) =>
        typeof p === "number"
          ? { kind: { case: "numberValue" as const, value: p } }
          : { kind: { case: "stringValue" as const, value: p } },
      ),
    },
  };
}

/**
 * The pull request simulation, in a worker thread (services/offload): a condition's regular
 * expression that backtracks past the time limit is the text's problem, 422 naming `service_yml`.
 */
async function simulateBounded(
  config: Configuration,
  context: EvaluationContext,
  field: ConfigurationText["field"],
  pull: PullRequestSnapshot,
  caller: string,
): Promise<SimulationSummary> {
  try {
    return await simulatePullRequestBounded(config, context, pull, caller);
  } catch (e) {
    if (!(e instanceof WorkLimitError)) throw e;
    throw new InvalidArgumentError([
      {
        field,
        description: `evaluating the rules ${e.message}: a regular expression of a condition may backtrack without end, e.g. (a+)+, or a template of an action take too long`,
      },
    ]);
  }
}

/** Builds the SimulatorService implementation. */
export function createSimulatorService(deps: SimulatorDeps): ServiceImpl<typeof SimulatorService> {
  const now = deps.now ?? Date.now;
  // A forge failure (reading the pull request, an extended configuration) is answered with its own
  // kind by the gateway (contracts/domain-error.ts): 429, 503, 404.
  return {
    async simulateConfiguration(req, ctx) {
      const { config, deprecations } = await validate(deps, ctx, req.owner, req.repository, configurationText(req));
      const products = await productStates(deps.db, `${req.owner}/${req.repository}`);
      const enabled = (Object.keys(products) as Product[]).filter((p) => products[p as keyof typeof products]);
      return {
        message: "The configuration is valid",
        deprecations: deprecations.map(deprecation),
        unusedSections: unusedSections(config.present_sections, enabled).map((u) => ({
          section: u.section,
          product: u.product,
          productName: u.product_name,
          productUrl: u.product_url,
        })),
      };
    },
    async simulateRepository(req, ctx) {
      const { deprecations } = await validate(deps, ctx, req.owner, req.repository, configurationText(req));
      const summary = simulateRepositorySummary();
      return { title: summary.title, summary: summary.summary, deprecations: deprecations.map(deprecation) };
    },
    async simulatePullRequest(req, ctx) {
      const text = configurationText(req);
      const { config, deprecations } = await validate(deps, ctx, req.owner, req.repository, text);
      const repo = `${req.owner}/${req.repository}`;
      const notFound = () => new DomainError("not_found", `pull request ${req.number} was not found in ${repo}`);
      if (req.number > BigInt(Number.MAX_SAFE_INTEGER)) throw notFound();
      let pr;
      try {
        pr = await deps.forge.getPullRequest(repo, Number(req.number));
      } catch (e) {
        throw isForgeError(e, "not_found") ? notFound() : e;
      }
      const at = new Date(now());
      const summary = await simulateBounded(
        config,
        { attributes: attributesOf(pr), now: at },
        text.field,
        pr,
        callerOf(ctx),
      );
      const freezes = await listFreezes(deps.db, repo);
      const notes =
        freezeNotes(freezes, pr, at) +
        (await scopeNotes(deps.db, repo, config, pr)) +
        (await protectionNotes(deps, repo, config, pr, freezes, at, callerOf(ctx)));
      return { title: summary.title, summary: summary.summary + notes, deprecations: deprecations.map(deprecation) };
    },
    simulateTraffic: (req, ctx) => simulateTraffic(deps, req, ctx),
  };
}
