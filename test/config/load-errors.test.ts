/**
 * Invalid configurations (docs/configuration.md "Errors"): every error is reported, each with its
 * path, line, column and a message saying what was found and what is expected.
 */
import { describe, expect, it } from "vitest";
import { formatConfigError, loadConfiguration } from "../../services/config/index.js";

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

/** [path as users read it, line, column, message] of every error. */
type Found = [string, number | null, number | null, string];

async function errorsOf(text: string): Promise<Found[]> {
  const r = await loadConfiguration(text);
  if (r.ok) throw new Error("expected errors, the configuration loaded");
  return r.errors.map((e) => [
    e.path.map((p) => (typeof p === "number" ? `item ${p}` : p)).join(" → "),
    e.line,
    e.column,
    e.message,
  ]);
}

const DURATION_GRAMMAR =
  'expected whole numbers with units in the order days, hours, minutes, seconds, e.g. "30 s", "5 min", "1 hour 30 min", "1 d 15 h 6 m 42 s"';
const RANGE_1_128 = "expected an integer from 1 to 128, or {min, max} with integers from 1 to 128";

// biome-ignore format: a table, one row per line
const CASES: [string, string, Found[]][] = [
  ["an unclosed quote", yaml("pull_request_rules:", '  - name: "broken', "    conditions: []"), [["", 4, 1, "YAML syntax error: Missing closing \"quote (a quoted value continued on the next lines must indent those lines more than its key, or close the quote on the same line)"]]],
  ["a duplicated key", yaml("merge_queue: {}", "merge_queue: {}"), [["", 2, 1, "YAML syntax error: Map keys must be unique (the same key appears twice in one mapping)"]]],
  ["a recursive alias", yaml("queue_rules:", "  - name: a", "    merge_conditions: &c", "      - or: *c"), [["", 4, 13, "recursive alias *c: it is inside the node its anchor names"]]],
  ["a list at the top level", yaml("- queue_rules"), [["", 1, 1, "expected a mapping of sections (queue_rules, pull_request_rules, ...) at the top level, got a list"]]],
  ["a misspelt section", yaml("pull_request_rule: []"), [["pull_request_rule", 1, 1, 'unknown key "pull_request_rule" (did you mean "pull_request_rules"?)']]],
  ["a batch size out of range", yaml("queue_rules:", "  - name: default", "    batch_size: 200"), [["queue_rules → item 0 → batch_size", 3, 17, `${RANGE_1_128}, got the number 200`]]],
  ["a batch size range upside down", yaml("queue_rules:", "  - name: default", "    batch_size: {min: 4, max: 2}"), [["queue_rules → item 0 → batch_size", 3, 17, "expected min <= max, got min 4 and max 2"]]],
  ["an unreadable duration", yaml("queue_rules:", "  - name: default", "    batch_max_wait_time: soon"), [
    ["queue_rules → item 0 → batch_max_wait_time", 3, 26, `invalid duration "soon": ${DURATION_GRAMMAR}`],
  ]],
  // docs/domain.md §1.8: integers with units, days to seconds, each unit once; nothing else.
  ...["PT5M", "30 s 30 s", "5 min ago", "1 mo"].map((text): [string, string, Found[]] => [`a duration outside the grammar: ${text}`, yaml("queue_rules:", "  - name: default", `    batch_max_wait_time: ${text}`), [
    ["queue_rules → item 0 → batch_max_wait_time", 3, 26, `invalid duration "${text}": ${DURATION_GRAMMAR}`],
  ]]),
  ["a wait of more than 365 days", yaml("queue_rules:", "  - name: default", "    batch_max_wait_time: 1e22"), [
    ["queue_rules → item 0 → batch_max_wait_time", 3, 26, "a duration must be at most 365 days (31536000 seconds), got the number 1e+22"],
  ]],
  ["a timeout of more than 365 days", yaml("queue_rules:", "  - name: default", "    checks_timeout: 400 d"), [
    ["queue_rules → item 0 → checks_timeout", 3, 21, 'expected a duration of at least 60 seconds, "auto" or null, got the string "400 d"'],
  ]],
  ["a checks timeout under a minute", yaml("queue_rules:", "  - name: default", "    checks_timeout: 30 s"), [["queue_rules → item 0 → checks_timeout", 3, 21, "expected a duration of at least 60 seconds, got 30 seconds"]]],
  ["an unknown merge method", yaml("queue_rules:", "  - name: default", "    merge_method: octopus"), [
    ["queue_rules → item 0 → merge_method", 3, 19, 'expected one of "merge", "squash", "rebase", "fast-forward", "merge-batch", got the string "octopus"'],
  ]],
  ["a queue rule without a name", yaml("queue_rules:", "  - merge_method: squash"), [["queue_rules → item 0 → name", 2, 5, 'missing required key "name"']]],
  ["two queue rules with one name", yaml("queue_rules:", "  - name: default", "  - name: default"), [["queue_rules → item 1 → name", 3, 11, 'duplicate queue rule name "default" (also item 0)']]],
  ["two priority rules with one name", yaml("priority_rules:", "  - name: hot", "    conditions: [label=hot]", "  - name: hot", "    conditions: [label=urgent]"), [
    ["priority_rules → item 1 → name", 4, 11, 'duplicate priority rule name "hot" (also item 0)'],
  ]],
  ["a capacity for a scope no file declares", yaml("scopes:", "  source:", "    files:", "      front:", '        include: ["web/**"]', "  capacities:", "    back: 2"), [
    ["scopes → capacities → back", 7, 11, 'unknown scope "back" (scopes of source.files: front)'],
  ]],
  ["a misspelt action", yaml("pull_request_rules:", "  - name: x", "    conditions: []", "    actions:", "      labels: {add: [a]}"), [
    ["pull_request_rules → item 0 → actions → labels", 5, 15, 'unknown action "labels" (did you mean "label"?); expected one of assign, backport, close, comment, copy, delete_head_branch, dequeue, dismiss_reviews, edit, github_actions, label, merge, post_check, queue, rebase, refresh, request_reviews, review, squash, update'],
  ]],
  ["a removed option", yaml("pull_request_rules:", "  - name: x", "    conditions: []", "    actions:", "      merge:", "        strict: smart", "        rebase_fallback: none"), [
    ["pull_request_rules → item 0 → actions → merge → strict", 6, 9, "strict was removed: to merge pull requests up to date with their base branch, put them in a merge queue (the queue action and a queue_rules entry)"],
    ["pull_request_rules → item 0 → actions → merge → rebase_fallback", 7, 9, "rebase_fallback was removed: a merge that cannot use its method now fails instead of falling back"],
  ]],
  ["a removed option set to today's behaviour", yaml("pull_request_rules:", "  - name: x", "    conditions: []", "    actions: {merge: {strict: false}}"), [
    ["pull_request_rules → item 0 → actions → merge → strict", 4, 23, "strict was removed; false is what merges do now, so delete this key"],
  ]],
  ["a bad condition deep in a group", yaml("pull_request_rules:", "  - name: x", "    conditions:", "      - or:", "        - label=a", "        - lable=b", "    actions: {refresh: {}}"), [
    ["pull_request_rules → item 0 → conditions → item 0 → or → item 1", 6, 11, 'Invalid condition "lable=b": unknown attribute "lable" (did you mean "label"?)'],
  ]],
  ["a bad condition reached through an alias", yaml("shared:", "  checks: &checks", "    - check-success=ci", "    - draft=false", "queue_rules:", "  - name: default", "    merge_conditions: *checks"), [
    ["queue_rules → item 0 → merge_conditions → item 1", 4, 7, 'Invalid condition "draft=false": operators are invalid for boolean attribute "draft": write "draft" or "-draft"'],
  ]],
  ["a team compared with a regular expression", yaml("queue_rules:", "  - name: default", "    merge_conditions:", "      - or:", "        - approved-reviews-by=@acme/core", "        - approved-reviews-by~=@acme/core"), [
    ["queue_rules → item 0 → merge_conditions → item 0 → or → item 1", 6, 11, 'Invalid condition "approved-reviews-by~=@acme/core": "@acme/core" is a team: a team (@team or @org/team) can only be compared with =, != or an ordering operator, not ~='],
  ]],
  ["a qualified check name without its check name", yaml("queue_rules:", "  - name: default", "    merge_conditions:", "      - check-success=@app/"), [
    ["queue_rules → item 0 → merge_conditions → item 0", 4, 9, 'Invalid condition "check-success=@app/": invalid check name "@app/": a check name starting with "@" names the app that posts it, @<app-slug>/<check-name>; the check name after "/" is missing'],
  ]],
  // docs/configuration.md "Errors": a value reached through an alias points at the anchored text; the path names the use.
  ["a bad value that is an alias", yaml("shared:", "  size: &size 200", "queue_rules:", "  - name: default", "    batch_size: *size"), [
    ["queue_rules → item 0 → batch_size", 2, 15, `${RANGE_1_128}, got the number 200`],
  ]],
  ["a bad condition that is an alias", yaml("shared:", "  wip: &wip draft=false", "queue_rules:", "  - name: default", "    merge_conditions:", "      - check-success=ci", "      - *wip"), [
    ["queue_rules → item 0 → merge_conditions → item 1", 2, 13, 'Invalid condition "draft=false": operators are invalid for boolean attribute "draft": write "draft" or "-draft"'],
  ]],
  ["a queue rule that is an alias of a rule without a name", yaml("shared:", "  rule: &rule", "    merge_method: squash", "queue_rules:", "  - *rule"), [
    ["queue_rules → item 0 → name", 3, 5, 'missing required key "name"'],
  ]],
  ["bad keys brought by a merge key", yaml("shared:", "  base: &base", "    batch_size: 200", "    speed: fast", "queue_rules:", "  - name: default", "    <<: *base"), [
    ["queue_rules → item 0 → batch_size", 3, 17, `${RANGE_1_128}, got the number 200`],
    ["queue_rules → item 0 → speed", 4, 5, 'unknown key "speed"'],
  ]],
  ["one bad anchored value used twice", yaml("shared:", "  method: &method octopus", "queue_rules:", "  - {name: a, merge_method: *method}", "  - {name: b, merge_method: *method}"), [
    ["queue_rules → item 0 → merge_method", 2, 19, 'expected one of "merge", "squash", "rebase", "fast-forward", "merge-batch", got the string "octopus"'],
    ["queue_rules → item 1 → merge_method", 2, 19, 'expected one of "merge", "squash", "rebase", "fast-forward", "merge-batch", got the string "octopus"'],
  ]],
  ["an unquoted # condition", yaml("queue_rules:", "  - name: default", "    merge_conditions:", "      - #approved-reviews-by>=1", "      - base=main"), [
    ["queue_rules → item 0 → merge_conditions → item 0", 4, 9, 'Invalid condition: the condition is empty (in YAML, a condition starting with "#" must be quoted, e.g. "#approved-reviews-by>=1")'],
  ]],
  ["a condition mistaken for a mapping", yaml("pull_request_rules:", "  - name: x", "    conditions:", "      - title~=^chore: bump", "    actions: {refresh: {}}"), [
    ["pull_request_rules → item 0 → conditions → item 0", 4, 9, 'expected a condition or an and/or/not group, got an object with key "title~=^chore"; if you meant the condition "title~=^chore: bump", quote it in YAML or write it without ": "'],
  ]],
  ["several errors at once, in document order", yaml("merge_queue:", "  max_parallel_checks: 0", "  mode: turbo", "queue_rules:", "  - name: a", "    batch_size: zero", "    speed: fast"), [
    ["merge_queue → max_parallel_checks", 2, 24, "expected at least 1, got the number 0"],
    ["merge_queue → mode", 3, 9, 'expected one of "serial", "parallel", "isolated", got the string "turbo"'],
    ["queue_rules → item 0 → batch_size", 6, 17, `${RANGE_1_128}, got the string "zero"`],
    ["queue_rules → item 0 → speed", 7, 5, 'unknown key "speed"'],
  ]],
  ["merge-batch without batches", yaml("queue_rules:", "  - name: default", "    merge_method: merge-batch"), [["queue_rules → item 0 → merge_method", 3, 19, "merge_method merge-batch needs batch_size greater than 1"]]],
  // docs/domain.md §1.2: fast-forward is serial-only, i.e. merge_queue.mode serial
  // (docs/configuration.md "Rules across keys").
  ["fast-forward in parallel mode", yaml("merge_queue:", "  mode: parallel", "queue_rules:", "  - name: default", "    merge_method: fast-forward"), [
    ["queue_rules → item 0 → merge_method", 5, 19, "merge_method fast-forward needs merge_queue.mode serial, got mode parallel: a fast-forward moves the base branch to the tested commit, and only serial mode checks each batch on top of the batches ahead"],
  ]],
  ["the deprecated queue_branch_merge_method fast-forward in isolated mode", yaml("merge_queue: {mode: isolated}", "queue_rules:", "  - name: default", "    merge_method: merge", "    queue_branch_merge_method: fast-forward"), [
    ["queue_rules → item 0 → queue_branch_merge_method", 5, 32, "queue_branch_merge_method fast-forward needs merge_queue.mode serial, got mode isolated: a fast-forward moves the base branch to the tested commit, and only serial mode checks each batch on top of the batches ahead"],
  ]],
  ["queue branch edits with a per-pull-request merge", yaml("queue_rules:", "  - name: default", "    allow_queue_branch_edit: true"), [
    ["queue_rules → item 0 → allow_queue_branch_edit", 3, 30, "allow_queue_branch_edit needs merge_method merge-batch or fast-forward"],
  ]],
  ["a queue action naming a missing queue", yaml("queue_rules: [{name: default}]", "pull_request_rules:", "  - name: x", "    conditions: []", "    actions: {queue: {name: urgent}}"), [
    ["pull_request_rules → item 0 → actions → queue → name", 5, 29, 'unknown queue rule "urgent"; queue_rules has "default"'],
  ]],
  ["a queue action without queue rules", yaml("pull_request_rules:", "  - name: x", "    conditions: []", "    actions: {queue: }"), [
    ["pull_request_rules → item 0 → actions → queue", 4, 15, "the queue action needs at least one queue rule in queue_rules"],
  ]],
  ["a legacy key next to its replacement", yaml("queue_rules:", "  - name: default", "    conditions: [check-success=ci]", "    merge_conditions: [check-success=ci]"), [
    ["queue_rules → item 0 → conditions", 3, 17, "conditions and merge_conditions cannot both be set (conditions is the deprecated name of merge_conditions)"],
  ]],
  ["an unknown priority", yaml("priority_rules:", "  - name: p", "    conditions: []", "    priority: urgent"), [
    ["priority_rules → item 0 → priority", 4, 15, 'expected low, medium, high or an integer from 1 to 10000, got the string "urgent"'],
  ]],
  ["a one-letter scope name", yaml("scopes:", "  capacities: {a: 2, ok: 0}"), [
    ["scopes → capacities → a", 2, 16, 'expected a scope name of at least 2 characters among letters, digits, "_" and "-", got the string "a"'],
    ["scopes → capacities → ok", 2, 26, "expected at least 1, got the number 0"],
  ]],
  // docs/domain.md §1.6: scope names are ^[A-Za-z0-9_-]+$ with at least 2 characters, wherever they are written.
  ["a one-letter merge_queue_scope", yaml("scopes:", "  merge_queue_scope: a"), [
    ["scopes → merge_queue_scope", 2, 22, 'expected a scope name of at least 2 characters among letters, digits, "_" and "-", got the string "a"'],
  ]],
  ["a merge_queue_scope that is a number", yaml("scopes:", "  merge_queue_scope: 7"), [
    ["scopes → merge_queue_scope", 2, 22, 'expected a scope name of at least 2 characters among letters, digits, "_" and "-", got the number 7'],
  ]],
  ["a one-letter scope in the files source", yaml("scopes:", "  source:", "    files:", "      x:", '        include: ["x/**"]', "      web:", '        include: ["web/**"]'), [
    ["scopes → source → files → x", 4, 7, 'expected a scope name of at least 2 characters among letters, digits, "_" and "-", got the string "x"'],
  ]],
  ["a scope of the files source with a bad pattern list", yaml("scopes:", "  source:", "    files:", "      web:", "        include: web/**"), [
    ["scopes → source → files → web → include", 5, 18, 'expected a list, got the string "web/**"'],
  ]],
  ["barrier files without file scopes", yaml("scopes:", "  source: {manual: null}", "  barrier_files: {include: [Makefile]}"), [
    ["scopes → barrier_files", 3, 18, "barrier_files needs a files source (source: {files: ...})"],
  ]],
  ["two fallback partitions", yaml("partition_rules:", "  - {name: a, fallback_partition: true}", "  - {name: b, fallback_partition: true}"), [
    ["partition_rules → item 1 → fallback_partition", 3, 35, "only one partition rule can be the fallback partition"],
  ]],
  ["a bot account template with an unknown variable", yaml("queue_rules:", "  - name: default", '    merge_bot_account: "{{ merged_by }}"'), [
    ["queue_rules → item 0 → merge_bot_account", 3, 24, "unknown template variable {{ merged_by }}: allowed {{ author }}"],
  ]],
  ["an unknown command restriction", yaml("commands_restrictions:", "  merge:", "    conditions: []"), [
    ["commands_restrictions → merge", 2, 3, 'unknown key "merge"; expected one of queue, dequeue, requeue, backport, copy, rebase, refresh, squash, update'],
  ]],
  ["actions written as a list", yaml("pull_request_rules:", "  - name: x", "    conditions: []", "    actions:", "      - merge: {}"), [
    ["pull_request_rules → item 0 → actions", 5, 7, "expected an object of actions (action name: options), got a list"],
  ]],
  ["a merge protection without success conditions", yaml("merge_protections:", "  - name: x", "    if: []"), [["merge_protections → item 0 → success_conditions", 2, 5, 'missing required key "success_conditions"']]],
  ["a label list given as a text", yaml("pull_request_rules:", "  - name: x", "    conditions: []", "    actions: {label: {add: urgent}}"), [
    ["pull_request_rules → item 0 → actions → label → add", 4, 28, 'expected a list, got the string "urgent"'],
  ]],
];

describe("invalid configurations", () => {
  it.each(CASES)("%s", async (_, text, expected) => {
    expect(await errorsOf(text)).toEqual(expected);
  });
});

it("reports git conflict markers before the syntax errors they cause", async () => {
  const found = await errorsOf(
    yaml("queue_rules:", "<<<<<<< HEAD", "  - name: a", "=======", "  - name: b", ">>>>>>> branch"),
  );
  expect(found[0]).toEqual([
    "",
    2,
    1,
    "the file contains unresolved git merge conflict markers (<<<<<<<, =======, >>>>>>>)",
  ]);
  expect(found.length).toBeGreaterThan(1);
  expect(found.every(([, line]) => line !== null)).toBe(true);
});

it("formats an error as one line with its path and position", async () => {
  const r = await loadConfiguration(yaml("queue_rules:", "  - name: default", "    batch_size: 0"));
  expect(r.ok ? [] : r.errors.map(formatConfigError)).toEqual([
    `${RANGE_1_128}, got the number 0 @ queue_rules → item 0 → batch_size (line 3, column 17)`,
  ]);
});

it("reports deprecations even when the file has errors", async () => {
  const r = await loadConfiguration(
    yaml("queue_rules:", "  - name: default", "    speculative_checks: 2", "    batch_size: 0"),
  );
  expect(r.ok).toBe(false);
  expect(r.deprecations.map((d) => d.path.join("."))).toEqual(["queue_rules.0.speculative_checks"]);
});

it("refuses a file over 1 MiB of UTF-8 without parsing it, and one named by extends too", async () => {
  // A valid file, long only by texts under `shared`: refused for its size, not its content.
  const big = yaml(
    "queue_rules:",
    "  - name: default",
    "shared:",
    "  items:",
    ...Array.from({ length: 2_000 }, () => `    - ${"x".repeat(1_000)}`),
  );
  expect(big.length).toBeGreaterThan(1_048_576);
  const message = `the file is ${big.length} bytes long; a configuration is at most 1048576 bytes (1 MiB)`;
  expect(await errorsOf(big)).toEqual([["", null, null, message]]);
  const r = await loadConfiguration(yaml("extends: big"), { loadExtended: async () => big });
  expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual([
    `the configuration of repository "big" is invalid: ${message}`,
  ]);
  const fits = await loadConfiguration(big.slice(0, big.lastIndexOf("\n", 1_048_000) + 1));
  expect(fits.ok).toBe(true);
  // 1.2 MB of two-byte characters is 600,000 characters: over the limit all the same.
  const wide = yaml("queue_rules:", "  - name: default", `# ${"é".repeat(600_000)}`);
  expect(wide.length).toBeLessThan(1_048_576);
  expect(await errorsOf(wide)).toEqual([
    [
      "",
      null,
      null,
      `the file is ${Buffer.byteLength(wide)} bytes long; a configuration is at most 1048576 bytes (1 MiB)`,
    ],
  ]);
});

it("says in the author's words what the YAML library tells its caller: several documents, deep nesting, alias bombs", async () => {
  expect(await errorsOf(yaml("queue_rules: []", "---", "queue_rules: []"))).toEqual([
    [
      "",
      2,
      1,
      "YAML syntax error: the file holds more than one YAML document (a --- line starts another); a configuration is one document",
    ],
  ]);
  const deep = await errorsOf(
    yaml(
      "queue_rules:",
      "  - name: a",
      "    merge_conditions:",
      `      - ${"{or: [".repeat(3000)}label=x${"]}".repeat(3000)}`,
    ),
  );
  // Four levels before the brackets (mapping, list, item, list); each "{or: [" opens two: the 65th is the 31st "{".
  expect(deep).toEqual([
    ["", 4, 9 + 30 * 6, "YAML error: the mappings and lists nest more than 64 levels deep: flatten the structure"],
  ]);
  const levels = [
    "a: &a [x, x, x, x, x, x, x, x, x]",
    ...["b", "c", "d", "e"].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcd"[i]}`).join(", ")}]`),
    `f: [${Array(9).fill("*e").join(", ")}]`,
  ];
  expect(await errorsOf(yaml(...levels))).toEqual([
    [
      "",
      null,
      null,
      "YAML error: the aliases expand to more than 10000 nodes (aliases of aliases multiply): write the values out, or use fewer aliases",
    ],
  ]);
});
