/**
 * Which pull requests the runner evaluates merge protections on (docs/merge-protections.md "How it
 * runs"): those a forge event concerns (the pull request it names; the open pull requests at a
 * commit whose checks changed, or into a branch that moved), as workflow automation does
 * (rule-actions/trigger.ts); the pull requests whose `Depends-On:` names one that just merged or
 * closed, in this repository or another (an input in their repository's inbox, in this round's
 * transaction); one pull request when the clock reaches its timer or a dependency changed; every
 * open pull request when the freezes or the product change.
 */
import type { ForgeEvent } from "../../forge/index.js";
import { addToInbox, protectionDependents } from "../../store/index.js";
import type { IngressEnv } from "../ingress-env.js";
import type { RunnerInput } from "../inputs.js";
import { pullNumbered, pullsOf, runPullRulesOnTime } from "../rule-actions/trigger.js";
import { holdQueued, reportProtections } from "./report.js";

/**
 * Evaluates the protections of the pull requests `e` concerns, and asks the dependents of a pull
 * request that closed to evaluate theirs.
 * @throws ForgeError when the forge cannot be read (the input is retried)
 */
export async function runProtections(env: IngressEnv, e: ForgeEvent): Promise<void> {
  // The dependents may be in a repository with the product enabled, whatever this one's.
  if (e.kind === "pull_request_closed") await wakeDependents(env, e.number);
  if (!env.products.merge_protections) return;
  for (const pr of await pullsOf(env, e)) await reportProtections(env, pr);
}

/**
 * Evaluates the protections of pull request `number` alone (its timer, or a dependency changed),
 * then its pull request rules: a `merge` action waiting for them may go now (rule-actions/decide.ts).
 */
export async function runProtectionsOn(env: IngressEnv, number: number): Promise<void> {
  if (!env.products.merge_protections) return;
  for (const pr of await pullNumbered(env, number)) await reportProtections(env, pr);
  await runPullRulesOnTime(env, number);
}

/** Evaluates the protections of every open pull request (the freezes or the product changed). */
export async function runProtectionsOnAll(env: IngressEnv): Promise<void> {
  if (!env.products.merge_protections) {
    // Disabled: nothing holds the queue any more.
    for (const p of Object.values(env.state().pulls)) holdQueued(env, p.number, null);
    return;
  }
  for (const pr of await env.forge.listOpenPullRequests(env.repository)) await reportProtections(env, pr);
}

/** Puts an `evaluate_protections` input in the inbox of each pull request depending on `number`. */
async function wakeDependents(env: IngressEnv, number: number): Promise<void> {
  for (const d of await protectionDependents(env.client, env.repository, number)) {
    const input: RunnerInput = { kind: "evaluate_protections", number: d.number };
    await addToInbox(env.client, d.repository, [input]);
  }
}
