/**
 * The flood of the tenant isolation campaign (docs/reliability.md "Tenants"): request bodies of
 * about 0.8 MB holding a configuration text of nested rules, each costly to parse and validate (a
 * worker thread's second or so). Shared by `npm run bench:tenants` and the isolation test
 * (test/faults/tenant-isolation.test.ts).
 */

/** The body's size the campaign used, bytes. */
export const FLOOD_BODY_BYTES = 800_000;

/** One rule whose conditions nest `depth` levels of and/or. */
function nestedRule(i: number, depth: number): string {
  const lines = [`  - name: rule-${i}`, "    conditions:"];
  let indent = "      ";
  for (let d = 0; d < depth; d++) {
    lines.push(`${indent}- ${d % 2 === 0 ? "and" : "or"}:`);
    indent += "    ";
  }
  lines.push(`${indent}- label=flood-${i}-${"x".repeat(400)}`, "    actions:", "      label:", `        add: [l${i}]`);
  return `${lines.join("\n")}\n`;
}

/** The JSON body of a configuration simulation: `service_yml` of nested rules, about `bytes` long. */
export function floodBody(bytes = FLOOD_BODY_BYTES): string {
  const rules: string[] = ["pull_request_rules:\n"];
  let size = rules[0].length;
  for (let i = 0; size < bytes - 2_000; i++) {
    const rule = nestedRule(i, 12);
    rules.push(rule);
    size += rule.length + 20;
  }
  return JSON.stringify({ service_yml: rules.join("") });
}
