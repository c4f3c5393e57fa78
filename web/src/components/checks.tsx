/**
 * A list of checks with their state and a link to the CI run (docs/dashboard.md "Every state
 * explained"): a local CI run opens its log in the dashboard, a GitHub check its page there. Failed
 * checks come first, so what broke is read before what passed.
 */
import type { MergeabilityCheckItem } from "../../../gen/yardmaster/v1/queue_pb.js";
import { forgeLink } from "../links.js";
import { Link } from "../router.js";
import { FAILED_STATES } from "../words.js";
import { StateBadge } from "./status.js";

const rank = (state: string) => (FAILED_STATES.has(state) ? 0 : state === "pending" ? 1 : 2);

/** The checks, failed first, each linked to its run when it has one. */
export function CheckList({ checks, label = "Checks" }: { checks: MergeabilityCheckItem[]; label?: string }) {
  if (checks.length === 0) return null;
  const sorted = [...checks].sort((a, b) => rank(a.state) - rank(b.state) || a.name.localeCompare(b.name));
  return (
    <ul class="checks" aria-label={label}>
      {sorted.map((c) => {
        const link = forgeLink(c.url);
        return (
          <li key={c.name} data-testid="check" data-state={c.state}>
            <StateBadge state={c.state} />{" "}
            {link?.internal ? (
              <Link href={link.href}>{c.name}</Link>
            ) : link ? (
              <a href={link.href} rel="noreferrer">
                {c.name}
              </a>
            ) : (
              c.name
            )}
            {c.description && <span class="muted"> — {c.description}</span>}
          </li>
        );
      })}
    </ul>
  );
}
