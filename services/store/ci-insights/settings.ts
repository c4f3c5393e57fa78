/**
 * Auto-quarantine settings per repository (`ci_auto_quarantine_settings`, migration 0013;
 * docs/ci-insights.md "Auto-quarantine"). A repository without a row has {@link AUTO_QUARANTINE_DEFAULTS}.
 */
import type pg from "pg";

/** A repository's auto-quarantine settings. */
export interface AutoQuarantineRow {
  enabled: boolean;
  /** Days of runs health is computed on. */
  windowDays: number;
  /** Runs a test needs in the window before it can be auto-quarantined. */
  minRuns: number;
  /** Flakiness ratio from which a flaky test is quarantined (0 to 1). */
  flakinessThreshold: number;
  ignoreBrokenOnDefaultBranch: boolean;
  /** Days without a failure after which a quarantined test is recovered. */
  recoveryDays: number;
  /** Days an automatic quarantine lasts; 0 = until lifted. */
  expiryDays: number;
}

/** The settings of a repository that never set them (docs/ci-insights.md "Auto-quarantine"). */
export const AUTO_QUARANTINE_DEFAULTS: Readonly<AutoQuarantineRow> = {
  enabled: false,
  windowDays: 14,
  minRuns: 5,
  flakinessThreshold: 0.1,
  ignoreBrokenOnDefaultBranch: true,
  recoveryDays: 7,
  expiryDays: 30,
};

/** The settings, locked for the caller's transaction when `forUpdate`. */
export async function autoQuarantineSettings(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  forUpdate = false,
): Promise<AutoQuarantineRow> {
  const res = await db.query(
    `SELECT enabled, window_days, min_runs, flakiness_threshold, ignore_broken_on_default_branch, recovery_days, expiry_days
     FROM ci_auto_quarantine_settings WHERE repository = $1::text${forUpdate ? " FOR UPDATE" : ""}`,
    [repository],
  );
  const r = res.rows[0];
  if (!r) return { ...AUTO_QUARANTINE_DEFAULTS };
  return {
    enabled: r.enabled,
    windowDays: r.window_days,
    minRuns: r.min_runs,
    flakinessThreshold: r.flakiness_threshold,
    ignoreBrokenOnDefaultBranch: r.ignore_broken_on_default_branch,
    recoveryDays: r.recovery_days,
    expiryDays: r.expiry_days,
  };
}

/** Stores the settings (insert or replace). */
export async function saveAutoQuarantineSettings(
  client: pg.ClientBase,
  repository: string,
  s: AutoQuarantineRow,
  now: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO ci_auto_quarantine_settings (repository, enabled, window_days, min_runs, flakiness_threshold, ignore_broken_on_default_branch, recovery_days, expiry_days, updated_at)
     VALUES ($1::text, $2::boolean, $3::int, $4::int, $5::float8, $6::boolean, $7::int, $8::int, $9::timestamptz)
     ON CONFLICT (repository) DO UPDATE SET enabled = EXCLUDED.enabled, window_days = EXCLUDED.window_days,
       min_runs = EXCLUDED.min_runs, flakiness_threshold = EXCLUDED.flakiness_threshold,
       ignore_broken_on_default_branch = EXCLUDED.ignore_broken_on_default_branch,
       recovery_days = EXCLUDED.recovery_days, expiry_days = EXCLUDED.expiry_days, updated_at = EXCLUDED.updated_at`,
    [
      repository,
      s.enabled,
      s.windowDays,
      s.minRuns,
      s.flakinessThreshold,
      s.ignoreBrokenOnDefaultBranch,
      s.recoveryDays,
      s.expiryDays,
      now,
    ],
  );
}

/** Repositories with auto-quarantine enabled (for the sweep). */
export async function autoQuarantineRepositories(db: pg.Pool | pg.ClientBase): Promise<string[]> {
  const res = await db.query<{ repository: string }>(
    "SELECT repository FROM ci_auto_quarantine_settings WHERE enabled ORDER BY repository",
  );
  return res.rows.map((r) => r.repository);
}
