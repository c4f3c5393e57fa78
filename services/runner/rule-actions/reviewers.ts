/**
 * The reviewers request_reviews asks (https://docs.mergify.com/workflow/actions/request_reviews/):
 * `users` and `teams` as lists, or as login -> weight maps; with `random_count`, that many are
 * drawn without replacement, each with a chance proportional to its weight. The draw is seeded
 * by the action's idempotency key, so a resume after a crash asks the same people. The author is
 * never asked.
 */
import type { PullRequestSnapshot } from "../../forge/index.js";

function weighted(v: unknown): [string, number][] {
  if (Array.isArray(v)) return v.map((x) => [String(x), 1]);
  if (v !== null && typeof v === "object") return Object.entries(v as Record<string, number>);
  return [];
}

/** A deterministic generator in [0, 1) from a text (mulberry32 over an FNV-1a hash). */
function seeded(text: string): () => number {
  let a = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Users and teams to request, from request_reviews options. */
export function pickReviewers(
  options: Record<string, unknown>,
  pr: PullRequestSnapshot,
  seed: string,
): { users: string[]; teams: string[] } {
  const author = pr.author.login.toLowerCase();
  const candidates = [
    ...weighted(options.users)
      .filter(([u]) => u.toLowerCase() !== author)
      .map(([name, w]) => ({ name, w, team: false })),
    ...weighted(options.teams).map(([name, w]) => ({ name: name.replace(/^@/, ""), w, team: true })),
  ];
  const count = typeof options.random_count === "number" ? options.random_count : null;
  let chosen = candidates;
  if (count !== null && count < candidates.length) {
    const random = seeded(seed);
    const pool = [...candidates];
    chosen = [];
    while (chosen.length < count && pool.length > 0) {
      const total = pool.reduce((s, c) => s + c.w, 0);
      let r = random() * total;
      let i = 0;
      while (i < pool.length - 1 && r >= pool[i].w) r -= pool[i++].w;
      chosen.push(pool.splice(i, 1)[0]);
    }
  }
  return {
    users: chosen.filter((c) => !c.team).map((c) => c.name),
    teams: chosen.filter((c) => c.team).map((c) => c.name),
  };
}
