/** CI Insights' PostgreSQL tables (migrations 0013, 0018 and 0019; docs/ci-insights.md): quarantines, auto-quarantine settings, retries. */
export * from "./quarantines.js";
export * from "./settings.js";
export * from "./retries.js";
export * from "./retry-decisions.js";
export * from "./retry-retention.js";
