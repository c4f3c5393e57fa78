/**
 * The check, at start and then hourly, that every installation of the App granted what the
 * adapter needs (app-manifest.ts; docs/github.md "Setting up the App"). An owner who installed an
 * older version of the App, or declined a permission update, leaves the queue without a permission
 * it relies on: GitHub then answers 403 to those calls (or, for "Administration: read", hides the
 * classic protection, so merges are refused late). Each installation lacking a permission or an
 * event is logged (warn) with what it lacks, and the last report is shown in `/readyz`
 * (`github`); the process stays ready (the other installations work). A failure to reach GitHub
 * is reported the same way and tried again at the next check.
 */
import { missingEvents, missingPermissions, type MissingPermission } from "./app-manifest.js";
import { createGithubAppClient, type GithubAppClient, type GithubAppOptions, type GithubLogger } from "./client.js";

/** One installation that lacks something. */
export interface InstallationGap {
  id: number;
  account: string;
  missingPermissions: MissingPermission[];
  missingEvents: string[];
}

/** The last check's result. */
export interface InstallationReport {
  /** When it ran (UTC). */
  checkedAt: Date;
  /** How many installations were read. */
  installations: number;
  /** Those lacking a permission or an event. */
  gaps: InstallationGap[];
  /** Why the check could not run (GitHub unreachable, a bad key); null when it ran. */
  error: string | null;
}

/** The installation check of one App. */
export interface InstallationCheck {
  /** Runs the check now; never throws (a failure is the report's `error`). */
  run(): Promise<InstallationReport>;
  /** The last report; null before the first check ended. */
  last(): InstallationReport | null;
  /** The last report as `/readyz` shows it (snake_case), or `{status: "pending"}`. */
  readiness(): Record<string, unknown>;
}

/** Creates the check (nothing runs until `run`). */
export function createInstallationCheck(
  client: Pick<GithubAppClient, "installations">,
  log: GithubLogger,
  now: () => Date = () => new Date(),
): InstallationCheck {
  let last: InstallationReport | null = null;
  return {
    async run() {
      try {
        const list = await client.installations();
        const gaps = list
          .map((i) => ({
            id: i.id,
            account: i.account,
            missingPermissions: missingPermissions(i.permissions),
            missingEvents: missingEvents(i.events),
          }))
          .filter((g) => g.missingPermissions.length > 0 || g.missingEvents.length > 0);
        for (const g of gaps) {
          log.warn(
            {
              installation: g.id,
              account: g.account,
              missingPermissions: g.missingPermissions.map((p) => `${p.name}: ${p.needed}`),
              missingEvents: g.missingEvents,
            },
            `the GitHub App installation on ${g.account} lacks ${[
              ...g.missingPermissions.map(
                (p) => `the permission ${p.name}: ${p.needed} (granted: ${p.granted ?? "none"})`,
              ),
              ...g.missingEvents.map((e) => `the event ${e}`),
            ].join(
              ", ",
            )}; accept the App's requested permissions in the installation's settings (docs/github.md "Setting up the App")`,
          );
        }
        last = { checkedAt: now(), installations: list.length, gaps, error: null };
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        log.warn({ err: error }, "could not check the GitHub App's installations");
        last = { checkedAt: now(), installations: 0, gaps: [], error };
      }
      return last;
    },
    last: () => last,
    readiness() {
      if (last === null) return { status: "pending" };
      return {
        checked_at: last.checkedAt.toISOString(),
        installations: last.installations,
        error: last.error,
        lacking: last.gaps.map((g) => ({
          account: g.account,
          installation_id: g.id,
          missing_permissions: g.missingPermissions.map((p) => `${p.name}: ${p.needed}`),
          missing_events: g.missingEvents,
        })),
      };
    },
  };
}

/**
 * The installation check of the App `options` describes (its own client: App-level calls only).
 * @throws ForgeError invalid for a malformed app id or key (as createGithubForge)
 */
export function createGithubInstallationCheck(options: GithubAppOptions): InstallationCheck {
  return createInstallationCheck(createGithubAppClient(options), options.log ?? SILENT);
}

const SILENT: GithubLogger = { debug() {}, info() {}, warn() {}, error() {} };
