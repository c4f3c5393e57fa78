/** What performing a rule action needs and gives back (perform.ts, branch-actions.ts). */
import type { ForgePort, PullRequestSnapshot } from "../../forge/index.js";

/** An activity log event of an action: its type and metadata (docs/events.md). */
export interface ActionEvent {
  type: string;
  metadata: Record<string, unknown>;
}

/** What performing needs: the forge, the repository, whether the effect is resumed and since when it started. */
export interface ActionDeps {
  forge: ForgePort;
  repository: string;
  resumed: boolean;
  /** When the effect was first recorded as started (a resume looks for what was done since). */
  startedAt: Date | null;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The logins of an option, `{{ author }}` and `{{ merged_by }}` replaced (the only templates logins take). */
export function loginsOf(v: unknown, pr: PullRequestSnapshot): string[] {
  return list(v)
    .map((l) =>
      l.replace(/\{\{\s*author\s*\}\}/g, pr.author.login).replace(/\{\{\s*merged_by\s*\}\}/g, pr.mergedBy ?? ""),
    )
    .filter((l) => l !== "");
}
