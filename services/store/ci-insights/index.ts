/** CI Insights' PostgreSQL tables (migration 0013; docs/ci-insights.md): quarantines, auto-quarantine settings, retries. */
export * from "./quarantines.js";
export * from "./settings.js";
export * from "./retries.js";
