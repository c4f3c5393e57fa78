/**
 * The title and Markdown summary of the merge protections check run (docs/merge-protections.md
 * "The check"): one section per active protection, its state as a coloured mark (🟢 success, 🔴
 * failure, 🟠 pending; ❄️ a freeze that does not decide), its description, and the checklist of
 * what it requires (docs/conditions.md "Rendering").
 */
import type { ProtectionState, RuleVerdict } from "./types.js";

const MARK: Record<ProtectionState, string> = { success: "🟢", failure: "🔴", pending: "🟠" };

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many.replace("#", String(n)));

/** The title: what the conclusion rests on, counting the protections that decide it. */
export function protectionsTitle(conclusion: ProtectionState, deciding: readonly RuleVerdict[]): string {
  if (deciding.length === 0) return "No merge protection applies";
  const failing = deciding.filter((r) => r.state === "failure").length;
  const pending = deciding.filter((r) => r.state === "pending").length;
  if (conclusion === "success")
    return plural(deciding.length, "The merge protection is satisfied", "All # merge protections are satisfied");
  if (conclusion === "failure") return plural(failing, "1 merge protection fails", "# merge protections fail");
  return plural(pending, "Waiting for 1 merge protection", "Waiting for # merge protections");
}

/**
 * The summary: one section per active protection, failing first, then pending, then satisfied;
 * then the custom rules that do not apply, by name.
 */
export function protectionsSummary(rules: readonly RuleVerdict[], inactive: readonly string[]): string {
  const rest =
    inactive.length === 0 ? "" : `Not applying to this pull request: ${inactive.map((n) => `\`${n}\``).join(", ")}.`;
  if (rules.length === 0)
    return ["No merge protection applies to this pull request.", rest].filter(Boolean).join("\n\n");
  const rank = (r: RuleVerdict) => (!r.decides ? 3 : r.state === "failure" ? 0 : r.state === "pending" ? 1 : 2);
  const ordered = [...rules].sort((a, b) => rank(a) - rank(b));
  const sections = ordered.map((r) => {
    const mark = r.decides ? MARK[r.state] : "❄️";
    const head = `### ${mark} ${r.name}`;
    return [head, r.description ? `\n${r.description}` : null, `\n${r.checklist}`].filter((x) => x !== null).join("\n");
  });
  return [...sections, rest].filter(Boolean).join("\n\n");
}
