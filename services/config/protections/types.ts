/**
 * The shapes of the merge protections' verdict (verdict.ts; docs/merge-protections.md): what it is
 * evaluated on, and what it says of each protection and of all of them.
 */
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { Configuration } from "../model.js";
import type { CompiledFreeze } from "../rules/freeze-hold.js";

/** How one protection, or all of them, stand. */
export type ProtectionState = "success" | "failure" | "pending";

/** A pull request named by a `Depends-On:` line, as the runner found it. */
export interface DependencyFact {
  /** `#12` for the same repository, `owner/name#12` for another. */
  ref: string;
  /** merged; open (not merged yet); closed without merging; unknown to the forge; of another owner. */
  state: "merged" | "open" | "closed" | "unknown" | "foreign";
  /** Its title, when it could be read. */
  title: string | null;
}

/** What the protections are evaluated on. */
export interface ProtectionsInput {
  config: Pick<Configuration, "merge_protections">;
  pr: PullRequestSnapshot;
  /** Now (UTC). */
  now: Date;
  /** The `Depends-On:` pull requests (itself and cycles already left out: docs/merge-protections.md). */
  dependencies: readonly DependencyFact[];
  /** When the pull request edits the configuration file: that file at its head, and its load errors (none: valid). */
  configurationChange: { path: string; errors: readonly string[] } | null;
  /** The repository's scheduled freezes. */
  freezes: readonly CompiledFreeze[];
  /** Whether the merge queue product is enabled (then freezes do not decide the conclusion). */
  mergeQueueEnabled: boolean;
}

/** One active protection. */
export interface RuleVerdict {
  name: string;
  description: string | null;
  kind: "custom" | "depends-on" | "merge-after" | "configuration" | "freeze";
  state: ProtectionState;
  /** Whether it decides the conclusion (a freeze does not while the merge queue is enabled). */
  decides: boolean;
  /** Markdown checklist lines of what it requires. */
  checklist: string;
}

/** The verdict of all protections on a pull request. */
export interface ProtectionsVerdict {
  conclusion: ProtectionState;
  /** The active protections, custom rules in file order, then the built-ins. */
  rules: RuleVerdict[];
  /** Names of the custom rules whose `if` conditions do not hold (not shown as failing). */
  inactive: string[];
  /** The check run's title and Markdown summary. */
  title: string;
  summary: string;
  /**
   * The first instant after `now` at which the clock alone may change the verdict (a schedule
   * window, a relative time, a `Merge-After` instant, a freeze starting or ending), the facts
   * staying as they are; null when none can. The runner evaluates again then.
   */
  nextChangeAt: Date | null;
}
