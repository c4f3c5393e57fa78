/**
 * Keys the format once had and has since removed, with what replaced them. They are errors (the
 * behaviour they asked for no longer exists, so accepting them silently would change what the
 * configuration does), but the message says what to write instead of a bare "unknown key".
 * docs/configuration.md "Removed keys".
 */

type Pattern = readonly string[];

interface RemovedKey {
  where: readonly Pattern[];
  key: string;
  hint: string;
  /** Hint when the key is written with a value that asks for today's behaviour (`strict: false`). */
  harmless?: { value: unknown; hint: string };
}

const MERGE_ACTION: readonly Pattern[] = [
  ["pull_request_rules", "*", "actions", "merge"],
  ["defaults", "actions", "merge"],
];
const QUEUE_ACTION: readonly Pattern[] = [
  ["pull_request_rules", "*", "actions", "queue"],
  ["defaults", "actions", "queue"],
];
const BOTH = [...MERGE_ACTION, ...QUEUE_ACTION];

const STRICT_HINT =
  "was removed: to merge pull requests up to date with their base branch, put them in a merge queue (the queue action and a queue_rules entry)";

const REMOVED: readonly RemovedKey[] = [
  {
    where: BOTH,
    key: "strict",
    hint: STRICT_HINT,
    harmless: { value: false, hint: "was removed; false is what merges do now, so delete this key" },
  },
  {
    where: BOTH,
    key: "strict_method",
    hint: "was removed with strict: the merge queue updates pull requests with update_method of its queue rule",
  },
  {
    where: BOTH,
    key: "rebase_fallback",
    hint: "was removed: a merge that cannot use its method now fails instead of falling back",
  },
  {
    where: BOTH,
    key: "commit_message",
    hint: "was removed: use commit_message_format (or the deprecated commit_message_template)",
  },
  { where: MERGE_ACTION, key: "bot_account", hint: "was renamed merge_bot_account" },
  { where: MERGE_ACTION, key: "priority", hint: "was removed: priorities are set by the top-level priority_rules" },
];

function matches(pattern: Pattern, path: readonly (string | number)[]): boolean {
  return (
    pattern.length === path.length && pattern.every((p, i) => (p === "*" ? typeof path[i] === "number" : p === path[i]))
  );
}

/**
 * The replacement hint for a removed key found at `path` (the object holding it) with `value`,
 * or null when the key was never part of the format there.
 */
export function removedKeyHint(path: readonly (string | number)[], key: string, value: unknown): string | null {
  const r = REMOVED.find((entry) => entry.key === key && entry.where.some((p) => matches(p, path)));
  if (r === undefined) return null;
  return `${key} ${r.harmless !== undefined && r.harmless.value === value ? r.harmless.hint : r.hint}`;
}
