/**
 * What conditions are evaluated against: the attribute values of one pull request (built by
 * attributes-of.ts from a forge snapshot and the queue context), the current time and the team
 * memberships conditions may name (`approved-reviews-by=@org/team`). docs/conditions.md
 * "Evaluation".
 */
import type { CheckState } from "./check-states.js";

/**
 * One value of an attribute: a scalar, a list, or null when unset. Times are UTC Dates. Lists of
 * pull request attributes hold texts; `commits[*].<field>` lists may hold dates, booleans, nulls.
 */
export type AttributeValue = string | number | boolean | Date | null | readonly (string | Date | boolean | null)[];

/** The fields of one commit, as `commits[<i>|*].<field>` reads them. */
export interface CommitAttributes {
  author: string | null;
  committer: string | null;
  commit_message: string;
  email_author: string | null;
  email_committer: string | null;
  commit_verification_verified: boolean;
  date_author: Date | null;
  date_committer: Date | null;
}

/** Every attribute of one pull request. */
export interface PullRequestAttributes {
  /** Attribute name (current names, e.g. "check-success", "yardmaster-configuration-changed") -> value. */
  values: Readonly<Record<string, AttributeValue>>;
  /** Lengths that are not the length of the value (`#files` = changed files, `#added-lines`...). */
  lengths: Readonly<Record<string, number>>;
  /** Commits, oldest first. */
  commits: readonly CommitAttributes[];
  /**
   * Every check run and commit status read by check-* attributes (Yardmaster's own excluded), with
   * the slug of the app that posted it when known (read by qualified names, `@<app>/<name>`).
   */
  checks: readonly { name: string; state: CheckState; app?: string }[];
}

/** Everything an evaluation needs. */
export interface EvaluationContext {
  attributes: PullRequestAttributes;
  /** The current instant (UTC); injected so evaluations are reproducible. */
  now: Date;
  /**
   * Members of the teams conditions may name, keyed `@org/team` or `@team` (as written), logins
   * in any case. A team that is not listed makes its leaf an evaluation error.
   */
  teams?: Readonly<Record<string, readonly string[]>>;
}
