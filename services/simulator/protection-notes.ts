/**
 * What the pull request simulation adds about merge protections and scopes
 * (docs/merge-protections.md "The queue", docs/merge-queue.md "Scopes from CI"): the protections'
 * verdict under the simulated configuration (the check's title and summary, the built-ins' facts
 * read through the forge as the runner reads them), and the pull request's scopes (from its files,
 * or as CI sent them). Markdown sections appended to the summary.
 */
import {
  compileFreeze,
  evaluateProtections,
  formatConfigError,
  scopesOf,
  type Configuration,
} from "../config/index.js";
import { protectionFacts, type ForgePort, type PullRequestSnapshot } from "../forge/index.js";
import { loadConfigurationBounded } from "../offload/index.js";
import { productStates, pullRequestScopes, type FreezeRow, type Pool } from "../store/index.js";

/**
 * The "Merge protections" section: the verdict the check would show now; when the product is
 * disabled on the repository, said first (nothing is enforced then). `caller` is the API
 * caller whose share of the worker threads loads the changed configuration file (offload's lanes).
 * @throws ForgeError when the forge cannot be read
 */
export async function protectionNotes(
  deps: { db: Pool; forge: ForgePort },
  repository: string,
  config: Configuration,
  pr: PullRequestSnapshot,
  freezes: readonly FreezeRow[],
  now: Date,
  caller: string,
): Promise<string> {
  const [owner, name] = repository.split("/");
  const loadErrors = async (text: string) => {
    const result = await loadConfigurationBounded(
      text,
      {
        repositoryName: name,
        loadExtended: async (other) => (await deps.forge.readConfigFile(`${owner}/${other}`))?.text ?? null,
      },
      { lane: "api", caller },
    );
    return result.ok ? [] : result.errors.map(formatConfigError);
  };
  const products = await productStates(deps.db, repository);
  const facts = await protectionFacts(deps.forge, repository, pr, loadErrors);
  const verdict = evaluateProtections({
    config,
    pr,
    now,
    dependencies: facts.dependencies,
    configurationChange: facts.configurationChange,
    freezes: freezes.map(compileFreeze),
    mergeQueueEnabled: products.merge_queue,
  });
  const off = products.merge_protections
    ? ""
    : "Merge protections are disabled on this repository: nothing below is enforced until they are enabled.\n\n";
  return `\n\n### Merge protections\n\n${off}**${verdict.title}**\n\n${verdict.summary}`;
}

/** The "Scopes" section: the pull request's scopes as the queue would take them; "" without a scopes source. */
export async function scopeNotes(
  db: Pool,
  repository: string,
  config: Configuration,
  pr: PullRequestSnapshot,
): Promise<string> {
  const source = config.scopes?.source ?? null;
  if (source === null) return "";
  const sent = source.type === "manual" ? await pullRequestScopes(db, repository, pr.number) : null;
  const { scopes, allScopes } =
    source.type === "manual" ? (sent ?? { scopes: [], allScopes: false }) : scopesOf(config, pr.files);
  const from = source.type === "manual" ? (sent ? "sent by CI" : "none sent by CI yet") : "from the files it changes";
  const list = allScopes
    ? "every scope (it is checked alone, as a barrier)"
    : scopes.length === 0
      ? "no scope"
      : scopes.map((s) => `\`${s}\``).join(", ");
  return `\n\n### Scopes\n\nThis pull request touches ${list} (${from}).`;
}
