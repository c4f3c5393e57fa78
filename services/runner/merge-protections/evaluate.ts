/**
 * The merge protections' verdict on a pull request in a round (docs/merge-protections.md "How it
 * runs"): the facts read through the forge (forge/protection-facts.ts: the `Depends-On:` pull
 * requests, the configuration file a pull request edits, loaded off the event loop when large),
 * then config/'s verdict with the repository's configuration, freezes and products. A pull
 * request is evaluated once per round and state of its facts, however many times it is asked for.
 */
import {
  evaluateProtections,
  formatConfigError,
  type ProtectionsVerdict,
  type PullRequestSnapshot,
} from "../../config/index.js";
import { protectionFacts, type ProtectionFacts } from "../../forge/index.js";
import { loadConfigurationBounded } from "../../offload/index.js";
import type { IngressEnv } from "../ingress-env.js";

/** A verdict with the facts it was made of. */
export interface Evaluated {
  verdict: ProtectionsVerdict;
  facts: ProtectionFacts;
}

const memo = new WeakMap<IngressEnv, Map<string, Promise<Evaluated>>>();

/**
 * The verdict on `pr` now, in the round of `env`.
 * @throws ForgeError when the forge cannot be read (the round's input is retried)
 */
export function protectionsOf(env: IngressEnv, pr: PullRequestSnapshot): Promise<Evaluated> {
  let round = memo.get(env);
  if (!round) memo.set(env, (round = new Map()));
  const key = [pr.number, pr.headSha, pr.updatedAt.getTime(), pr.state, pr.body, pr.title].join("\u0000");
  let found = round.get(key);
  if (!found) {
    found = evaluate(env, pr);
    round.set(key, found);
    found.catch(() => round.delete(key));
  }
  return found;
}

async function evaluate(env: IngressEnv, pr: PullRequestSnapshot): Promise<Evaluated> {
  const [owner, name] = env.repository.split("/");
  const loadErrors = async (text: string): Promise<string[]> => {
    const result = await loadConfigurationBounded(
      text,
      {
        repositoryName: name,
        loadExtended: async (other) => (await env.forge.readConfigFile(`${owner}/${other}`))?.text ?? null,
      },
      { lane: "runner", repository: env.repository },
    );
    return result.ok ? [] : result.errors.map(formatConfigError);
  };
  const facts = await protectionFacts(env.forge, env.repository, pr, loadErrors);
  const verdict = evaluateProtections({
    config: env.config.config,
    pr,
    now: env.now,
    dependencies: facts.dependencies,
    configurationChange: facts.configurationChange,
    freezes: env.freezes,
    mergeQueueEnabled: env.products.merge_queue,
  });
  return { verdict, facts };
}

/**
 * Why the verdict holds a queued pull request (the check's title and the protections that fail or
 * wait), or null when it does not (docs/merge-protections.md "The queue").
 */
export function holdOf(verdict: ProtectionsVerdict): string | null {
  if (verdict.conclusion === "success") return null;
  const names = verdict.rules.filter((r) => r.decides && r.state !== "success").map((r) => r.name);
  return `${verdict.title}: ${names.join(", ")}`.slice(0, 1000);
}
