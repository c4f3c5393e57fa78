/**
 * How a tested batch lands on GitHub (docs/github.md "Landing a batch"), chosen from the queue
 * rule's merge method and the base branch's landing rules (landing-rules.ts), before anything is
 * written:
 *
 * | method | landing |
 * | --- | --- |
 * | none set | the first of merge, squash, rebase that the repository allows and the branch accepts, then as below |
 * | merge, squash, rebase | each pull request through `PUT .../pulls/{n}/merge`, in order, at its tested head ("pulls") |
 * | the same, when the branch requires branches to be up to date and the batch was checked on a draft | the batch's pull request, whose head is the tested commit, merged with that method ("through-pull") |
 * | merge-batch | the batch's pull request merged with a merge commit ("through-pull") |
 * | fast-forward | the base moved to the tested commit (`PATCH .../git/refs`, "push"), which needs the App to be allowed to push |
 *
 * A plan GitHub would refuse whatever the commits is refused here, with the setting to change:
 * a method the repository or the branch does not accept, a direct move the branch's protection
 * forbids the App, GitHub's own merge queue required.
 */
import { MergeRefusedError, type BatchMergeRequest, type Sha } from "../types.js";
import { acceptedMethods, type LandingRules } from "./landing-rules.js";

/** What a landing answers: the base's new tip and each pull request's merge commit. */
export interface BatchMergeResult {
  newBaseSha: Sha;
  mergeCommits: Record<number, Sha>;
}

/** A landing plan. */
export type LandingPlan =
  | { path: "pulls"; method: "merge" | "squash" | "rebase" }
  | { path: "through-pull"; method: "merge" | "squash" | "rebase" }
  | { path: "push" };

const refuse = (base: string, why: string) =>
  new MergeRefusedError("protection", `GitHub would refuse to land the batch on ${base}: ${why}`, null);

const SETTING: Record<"merge" | "squash" | "rebase", string> = {
  merge: '"Allow merge commits"',
  squash: '"Allow squash merging"',
  rebase: '"Allow rebase merging"',
};

/**
 * Chooses the landing of `input` on a branch with `rules`.
 * @throws MergeRefusedError protection when GitHub would refuse any landing of the batch
 */
export function planLanding(input: BatchMergeRequest, rules: LandingRules): LandingPlan {
  const base = input.base;
  if (rules.githubMergeQueue)
    throw refuse(base, "the branch requires GitHub's merge queue; add the App to the ruleset's bypass list");
  const accepted = acceptedMethods(rules);
  const pick = (method: "merge" | "squash" | "rebase"): LandingPlan => {
    if (!accepted.includes(method)) {
      const why = !rules.allowed[method]
        ? `the repository does not allow ${method} (Settings, ${SETTING[method]})`
        : "the branch requires a linear history, which a merge commit breaks";
      throw refuse(base, `merge_method ${method}: ${why}`);
    }
    const strict = rules.merge.strict && !input.inPlace && input.checkPullRequest !== undefined;
    return { path: strict ? "through-pull" : "pulls", method };
  };
  switch (input.method) {
    case null: {
      const first = accepted[0];
      if (first === undefined)
        throw refuse(base, "no merge method is both allowed by the repository and accepted by the branch");
      return pick(first);
    }
    case "merge-batch": {
      if (!accepted.includes("merge"))
        throw refuse(
          base,
          "merge_method merge-batch lands one merge commit, which the repository or the branch refuses",
        );
      return { path: "through-pull", method: "merge" };
    }
    case "fast-forward": {
      if (rules.pushRefusals.length > 0)
        throw refuse(
          base,
          `merge_method fast-forward moves the branch directly, and ${rules.pushRefusals.join("; ")}. Add the App to the bypass list (docs/github.md "Branch protection recipes")`,
        );
      return { path: "push" };
    }
    default:
      return pick(input.method);
  }
}
