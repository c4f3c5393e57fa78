/**
 * The one base address of Yardmaster's documentation pages. Condition documentation links
 * (conditions evaluation JSON) and product links (unused sections) are built from it, so a
 * deployment under another address changes this constant only. docs/configuration.md
 * "Decisions".
 */
export const DOCS_BASE_URL = "https://yardmaster.dev/docs";
