/**
 * The `.yardmaster.yml` of the end-to-end tests that run a queue through faults (a crash, a
 * database restart): batches of two, formed after 1 s, two checks at once, the local CI's checks
 * required for merging (branch protection injected).
 */
export const BATCHES_OF_TWO_CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 2",
  '    batch_max_wait_time: "1 s"',
  "    branch_protection_injection_mode: merge",
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");
