/**
 * What the GitHub App needs, declared once (docs/github.md "Setting up the App"): the repository
 * permissions the adapter's calls use and the webhook events the queue follows, each with why. The
 * App manifest (`yardmaster github-app-manifest`), the check of each installation's granted
 * permissions at start (installation-check.ts) and the permissions table of docs/github.md (a test
 * compares it) all derive from this declaration.
 * Manifest format: https://docs.github.com/en/apps/sharing-github-apps/registering-a-github-app-from-a-manifest
 * Permission names and levels: https://docs.github.com/en/rest/apps/apps#create-an-installation-access-token-for-an-app
 */

/** A permission level GitHub grants ("write" includes "read"). */
export type PermissionLevel = "read" | "write";

/** One permission the App needs, with why. */
export interface NeededPermission {
  /** GitHub's name of the permission (the manifest's `default_permissions` key). */
  name: string;
  /** Its title in GitHub's settings page. */
  title: string;
  level: PermissionLevel;
  why: string;
}

/** The repository permissions the adapter uses, in the order of GitHub's settings page. */
export const NEEDED_PERMISSIONS: readonly NeededPermission[] = [
  {
    name: "actions",
    title: "Actions",
    level: "write",
    why: "the `github_actions` action of pull request rules dispatches workflows (`POST .../actions/workflows/{id}/dispatches`); `rerunChecks` and CI Insights' job retry rules re-run failed jobs (`POST .../actions/runs/{id}/rerun-failed-jobs`, `.../actions/jobs/{id}/rerun`, `.../actions/runs/{id}/rerun`) after reading a failed run's jobs and their logs (`GET .../actions/runs/{id}/attempts/{n}/jobs`, `.../actions/jobs/{id}/logs`)",
  },
  {
    name: "administration",
    title: "Administration",
    level: "read",
    why: "classic branch protection (`GET .../branches/{b}/protection`): without it the required checks, `strict`, required reviews and push restrictions are invisible, the queue merges before they pass and GitHub refuses the merge",
  },
  {
    name: "checks",
    title: "Checks",
    level: "write",
    why: "reading check runs; the queue's own check run",
  },
  {
    name: "contents",
    title: "Contents",
    level: "write",
    why: "files and the configuration file, branches (refs), the merges API, commits written through the API, fast-forward landings",
  },
  {
    name: "issues",
    title: "Issues",
    level: "write",
    why: "comments, labels and assignees on pull requests (the issues API)",
  },
  { name: "metadata", title: "Metadata", level: "read", why: "mandatory; repository rulesets" },
  {
    name: "pull_requests",
    title: "Pull requests",
    level: "write",
    why: "reading pull requests, files, commits and reviews; draft pull requests; merging; updating a branch; reviews",
  },
  { name: "statuses", title: "Commit statuses", level: "read", why: "legacy commit statuses count as checks" },
  {
    name: "workflows",
    title: "Workflows",
    level: "write",
    why: "a speculative branch or a merge that contains changes to `.github/workflows/`",
  },
];

/** One webhook event the queue follows, with why (services/forge/github/webhook-events.ts maps each). */
export interface NeededEvent {
  /** GitHub's event name (`X-GitHub-Event`; the manifest's `default_events`). */
  name: string;
  why: string;
}

/** The webhook events the queue (and CI Insights' job retries) follow. */
export const NEEDED_EVENTS: readonly NeededEvent[] = [
  { name: "check_run", why: "a check concluded or restarted" },
  { name: "check_suite", why: "a suite of checks concluded" },
  { name: "issue_comment", why: "`@yardmaster` commands" },
  { name: "pull_request", why: "opened, pushed, edited, labelled, closed" },
  { name: "pull_request_review", why: "approvals and change requests" },
  { name: "pull_request_review_thread", why: "resolved conversations" },
  { name: "push", why: "moves of base branches and of the queue's own branches" },
  { name: "status", why: "legacy commit statuses" },
  { name: "workflow_run", why: "a GitHub Actions run that failed: CI Insights' job retry rules" },
];

/** The manifest's fields Yardmaster's deployment decides. */
export interface ManifestOptions {
  /** The App's name on GitHub (unique there). */
  name: string;
  /** Yardmaster's public address: the App's home page, and the webhook's origin. */
  url: string;
  /** Whether other accounts may install the App; default false. */
  public?: boolean;
}

/**
 * The GitHub App manifest for Yardmaster at `options.url` (webhook `POST {url}/webhooks/github`).
 * @throws Error when `url` is not an http(s) URL
 */
export function githubAppManifest(options: ManifestOptions): Record<string, unknown> {
  const base = new URL(options.url);
  if (base.protocol !== "https:" && base.protocol !== "http:")
    throw new Error(`url: "${options.url}" is not an http(s) URL`);
  const origin = base.href.replace(/\/$/, "");
  return {
    name: options.name,
    url: origin,
    description: "Yardmaster, an open merge queue: batches, speculative checks, bisection.",
    hook_attributes: { url: `${origin}/webhooks/github`, active: true },
    public: options.public ?? false,
    default_permissions: Object.fromEntries(NEEDED_PERMISSIONS.map((p) => [p.name, p.level])),
    default_events: NEEDED_EVENTS.map((e) => e.name),
  };
}

/** A needed permission an installation lacks (or holds below the level needed). */
export interface MissingPermission {
  name: string;
  needed: PermissionLevel;
  granted: string | null;
}

/** The needed permissions `granted` (an installation's `permissions`) lacks; empty when none. */
export function missingPermissions(granted: Record<string, string | undefined>): MissingPermission[] {
  return NEEDED_PERMISSIONS.filter((p) => {
    const have = granted[p.name];
    return have !== "write" && !(p.level === "read" && have === "read");
  }).map((p) => ({ name: p.name, needed: p.level, granted: granted[p.name] ?? null }));
}

/** The needed events `subscribed` (an installation's `events`) lacks. */
export function missingEvents(subscribed: readonly string[]): string[] {
  return NEEDED_EVENTS.map((e) => e.name).filter((e) => !subscribed.includes(e));
}
