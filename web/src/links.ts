/**
 * Where a link of the forge leads on the dashboard (docs/dashboard.md "Every state explained"): the local forge
 * names its pull requests and CI runs `local-forge://owner/name/pull/N` and
 * `local-forge://owner/name/check-runs/ID` (docs/local-forge.md), which the dashboard opens as its
 * own pages; a GitHub link (a check run's page, its CI's details URL) stays as it is.
 */
import { paths } from "./router.js";

/** A link to show: in the dashboard (`internal`, a path) or elsewhere (an absolute URL). */
export interface ShownLink {
  href: string;
  internal: boolean;
}

const LOCAL = /^local-forge:\/\/([^/]+)\/([^/]+)\/(pull|check-runs)\/(\d+)/;

/** The link to show for a forge URL; null when there is none or it cannot be opened. */
export function forgeLink(url: string | null | undefined): ShownLink | null {
  if (!url) return null;
  const m = LOCAL.exec(url);
  if (m) {
    const [, o, r, kind, id] = m;
    return { href: kind === "pull" ? paths.pull(o!, r!, id!) : paths.checkRun(o!, r!, id!), internal: true };
  }
  return /^https?:\/\//.test(url) ? { href: url, internal: false } : null;
}
