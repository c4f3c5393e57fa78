/**
 * What the repository's scheduled freezes mean for a simulated pull request (docs/scheduled-freeze.md):
 * a Markdown section appended to the pull request simulation's summary, naming each freeze that
 * holds its merge now or will when it begins (its conditions evaluated against the pull request
 * as it is now), with its reason and window. Empty when none concerns it; freezes that ended are
 * left out.
 */
import type { PullRequestSnapshot } from "../forge/index.js";
import { compileFreeze, freezeMatches, isActive } from "../config/index.js";
import type { FreezeRow } from "../store/index.js";

const iso = (d: Date) => d.toISOString().replace(/\.000Z$/, "Z");

/**
 * The "Scheduled freezes" section for `snapshot` at `now`, or "" when no current or future
 * freeze matches it.
 */
export function freezeNotes(freezes: readonly FreezeRow[], snapshot: PullRequestSnapshot, now: Date): string {
  const lines: string[] = [];
  for (const row of freezes) {
    const f = compileFreeze(row);
    if (f.end !== null && f.end <= now.getTime()) continue;
    if (!freezeMatches(f, snapshot, {}, now)) continue;
    const window = `from ${iso(row.start)} ${row.end === null ? "until it is deleted" : `to ${iso(row.end)}`} (${row.timezone})`;
    lines.push(
      isActive(f, now.getTime())
        ? `- ❄️ **${row.reason}**, ${window}: it holds this pull request's merge now; its checks still run.`
        : `- ❄️ **${row.reason}**, ${window}: it will hold this pull request's merge while it lasts.`,
    );
  }
  return lines.length === 0 ? "" : ["", "### Scheduled freezes", "", ...lines].join("\n");
}
