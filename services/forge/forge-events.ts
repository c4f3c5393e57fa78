/**
 * The events of the code hosting platform port (types.ts): what happened on GitHub or on the
 * local forge, and who receives it.
 */
import type { RepoName, Sha } from "../config/index.js";

/**
 * What happened on the hosting platform, as both forges report it (a GitHub webhook, or the local
 * forge's own actions). Events are triggers: whoever handles one re-reads the current state
 * through {@link ForgePort} rather than trusting the payload, so a late or repeated delivery
 * cannot make the queue act on stale facts. `head` (the head branch, where the platform's event
 * names it: GitHub's payloads) lets the runner pass over the queue's own draft pull requests
 * without reading them (docs/github.md "Request budget").
 */
export type ForgeEvent =
  /** A pull request was opened or reopened. */
  | { kind: "pull_request_opened"; repo: RepoName; number: number; head?: string }
  /** New commits were pushed to a pull request's head (`by`: who pushed, when known). */
  | {
      kind: "pull_request_synchronized";
      repo: RepoName;
      number: number;
      headSha: Sha;
      by: string | null;
      head?: string;
    }
  /** Title, body, base branch or draft state changed. */
  | { kind: "pull_request_edited"; repo: RepoName; number: number; head?: string }
  /** Closed without merge, or merged (by anyone, the queue included). */
  | {
      kind: "pull_request_closed";
      repo: RepoName;
      number: number;
      merged: boolean;
      mergeCommitSha: Sha | null;
      head?: string;
    }
  /** Labels, assignees or requested reviewers changed (`label`: the label added or removed, when the platform says). */
  | {
      kind: "pull_request_labeled";
      repo: RepoName;
      number: number;
      head?: string;
      label?: { name: string; added: boolean };
    }
  /** A review was submitted or dismissed. */
  | { kind: "pull_request_reviewed"; repo: RepoName; number: number }
  /** A comment on a pull request (commands such as `@yardmaster queue` arrive this way). */
  | {
      kind: "comment_created";
      repo: RepoName;
      number: number;
      commentId: number;
      body: string;
      author: {
        login: string;
        id: number;
        type: "User" | "Organization" | "Bot" | "Mannequin" | "Enterprise" | null;
        avatarUrl: string | null;
      };
      url: string | null;
    }
  /** A check run or commit status changed on a commit. */
  | { kind: "checks_changed"; repo: RepoName; sha: Sha }
  /**
   * A branch moved (a push, a merge, a force-push or a deletion: `after` null). `configUnchanged`
   * is true only when the forge proves that the push changed no configuration file between
   * `before` and `after` (GitHub: the push payload's complete list of commits and their paths,
   * services/forge/github/push-config.ts); absent, the configuration may have changed.
   */
  | {
      kind: "branch_pushed";
      repo: RepoName;
      branch: string;
      before: Sha | null;
      after: Sha | null;
      forced: boolean;
      configUnchanged?: boolean;
    };

/**
 * Receives forge events (the queue runner in production, a recorder in tests). `key` is the
 * event's idempotency key when the forge has one (`local-forge:<id>`, `github:<delivery>:<n>`): an
 * event delivered again after a crash comes with the same key, so the receiver can take it once
 * (docs/reliability.md). A receiver that throws has not taken the event.
 */
export type ForgeEventSink = (event: ForgeEvent, key?: string) => void | Promise<void>;
