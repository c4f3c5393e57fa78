/**
 * Commands written in pull request comments (issue: forge §4; docs/domain.md §1.1
 * "commands_restrictions"): `@yardmaster queue [rule]`, `@yardmaster dequeue`,
 * `@yardmaster requeue`, `@yardmaster refresh`. One command per comment: the first line that
 * starts with the prefix (case-insensitive). Each is checked against the configuration's
 * `commands_restrictions` (with `sender` and `sender-permission`), answered with a comment, and
 * queue/dequeue are logged as `command.queue` / `command.dequeue`.
 */

/** What a comment starts with to be a command (compared case-insensitively). */
export const COMMAND_PREFIX = "@yardmaster";

/** The commands Yardmaster knows (the word after `@yardmaster`, matched case-insensitively). */
export type CommandName = "queue" | "dequeue" | "requeue" | "refresh";

/**
 * A parsed command: a known name with the words after it (`queue` and `requeue` take an optional
 * rule name as `args[0]`), or `unknown` with the word as written ("" when nothing followed the prefix).
 */
export type ParsedCommand = { name: CommandName; args: string[] } | { name: "unknown"; word: string };

const KNOWN: ReadonlySet<string> = new Set(["queue", "dequeue", "requeue", "refresh"]);

/** The command of a comment body, or null when no line starts with `@yardmaster`. */
export function parseCommand(body: string): ParsedCommand | null {
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.toLowerCase().startsWith(COMMAND_PREFIX)) continue;
    const rest = line.slice(COMMAND_PREFIX.length);
    if (rest !== "" && !/^\s/.test(rest)) continue;
    const [word = "", ...args] = rest.trim().split(/\s+/).filter(Boolean);
    const name = word.toLowerCase();
    return KNOWN.has(name) ? { name: name as CommandName, args } : { name: "unknown", word };
  }
  return null;
}
