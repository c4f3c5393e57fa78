/**
 * The structures event metadata samples share (docs/events.md "Shared structures"): actors,
 * speculative checks, queue checks, condition evaluations, freeze and quarantine attributes, and
 * the fixed identifiers and instant every sample uses. Each takes overrides.
 */
export type Json = Record<string, unknown>;
/** A builder of valid metadata for one event type: the sample, with `over` laid on top. */
export type Builder = (over?: Json) => Json;

export const UUID_A = "0b1d1c2e-3f40-4a5b-8c6d-7e8f90a1b2c3";
export const UUID_B = "9f8e7d6c-5b4a-4392-a180-f1e2d3c4b5a6";
/** The instant (UTC) the samples happen at. */
export const AT = "2026-11-22T10:00:00Z";

export const actor = (over: Json = {}): Json => ({ type: "user", id: 4242, name: "ada", ...over });
export const applicationActor = (over: Json = {}): Json => ({
  type: "application",
  id: UUID_A,
  name: "admin application key",
  ...over,
});
export const speculativeCheck = (over: Json = {}): Json => ({
  number: 1001,
  in_place: false,
  checks_timed_out: false,
  checks_conclusion: "success",
  checks_started_at: AT,
  checks_ended_at: "2026-11-22T10:05:00Z",
  ...over,
});
export const queueCheck = (over: Json = {}): Json => ({
  name: "ci/test",
  description: "tests",
  url: "https://ci.example/1",
  state: "failure",
  avatar_url: null,
  ...over,
});
export const conditionEvaluation = (over: Json = {}): Json => ({
  match: true,
  label: "all of",
  is_label_user_input: false,
  description: null,
  attribute_name: null,
  operator: null,
  schedule: null,
  subconditions: [],
  evaluations: [],
  ...over,
});
export const freezeAttrs = (over: Json = {}): Json => ({
  reason: "release",
  start: AT,
  end: null,
  timezone: "Europe/Paris",
  matching_conditions: ["base=main"],
  exclude_conditions: [],
  ...over,
});
export const quarantineSnapshot = (over: Json = {}): Json => ({
  source: "auto",
  reason: "flaky",
  branch: null,
  created_at: AT,
  health_status_at_event: "flaky",
  ...over,
});
export const commandAuthor = (over: Json = {}): Json => ({ login: "ada", id: 7, type: "User", ...over });
