/**
 * Valid metadata samples of the CI insights events: auto quarantine settings, job retries, and
 * tests quarantined or released (docs/events.md "Event types"). Each builder takes overrides.
 */
import {
  actor,
  applicationActor,
  AT,
  type Builder,
  type Json,
  quarantineSnapshot,
  UUID_A,
  UUID_B,
} from "./event-samples-shared.js";

const autoQuarantine = (over: Json = {}): Json => ({ ignore_broken_on_default_branch: true, ...over });

export const autoQuarantineDisabledMetadata: Builder = (o) => ({
  disabled_by: actor(),
  disabled_at: AT,
  auto_quarantine_config_attributes: autoQuarantine(),
  disabled_by_staff: false,
  ...o,
});
export const autoQuarantineEnabledMetadata: Builder = (o) => ({
  enabled_by: applicationActor(),
  enabled_at: AT,
  auto_quarantine_config_attributes: autoQuarantine(),
  enabled_by_staff: false,
  ...o,
});
export const autoQuarantineModifiedMetadata: Builder = (o) => ({
  updated_by: actor(),
  updated_at: AT,
  auto_quarantine_config_attributes_before: autoQuarantine(),
  auto_quarantine_config_attributes_after: autoQuarantine({ ignore_broken_on_default_branch: false }),
  updated_by_staff: true,
  ...o,
});
export const jobRetriedMetadata: Builder = (o) => ({
  rule_id: UUID_A,
  rule_name: "retry flaky",
  max_retry: 3,
  retry_mode: "job",
  retry_attempt: 1,
  condition_matches: [{ kind: "simple" }],
  outcome: "retried",
  workflow_run_id: 123456,
  job_url: null,
  ...o,
});
export const dequarantinedMetadata: Builder = (o) => ({
  quarantine_id: UUID_A,
  test_id: UUID_B,
  test_name: "test_login",
  source: "manual",
  original_quarantine: quarantineSnapshot(),
  dequarantined_at: AT,
  dequarantined_by: null,
  dequarantined_by_staff: false,
  ...o,
});
export const quarantinedMetadata: Builder = (o) => ({
  quarantine_id: UUID_A,
  test_name: "test_login",
  source: "auto",
  reason: "flaky for 3 days",
  branch: "main",
  quarantined_at: AT,
  health_status_at_event: "flaky",
  quarantined_by: actor(),
  quarantined_by_staff: false,
  ...o,
});
