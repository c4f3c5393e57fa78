/**
 * `Depends-On:` lines of a pull request body (docs/domain.md §2.5 "Injected conditions"):
 * each names a pull request that must be merged first, as `#123`, `owner/repo#123` or a pull
 * request URL `https://<host>/owner/repo/pull/123`. The queue injects one `depends-on=#N` leaf
 * per line (described "⛓️ depends on"), true once that pull request is merged.
 */
import type { ConditionLeaf } from "../model.js";
import { parseCondition } from "./leaf-parser.js";

/** One dependency; `repository` null means the pull request's own repository. */
export interface Dependency {
  repository: string | null;
  number: number;
}

const LINE = /^\s*Depends-On:\s*(\S+)\s*$/gim;
const SHORT = /^(?:([\w.-]+\/[\w.-]+))?#(\d+)$/;
const URL_FORM = /^https?:\/\/[^/\s]+\/([\w.-]+\/[\w.-]+)\/pulls?\/(\d+)\/?$/;

/**
 * The dependencies named by `Depends-On:` lines (case-insensitive key), in order, without
 * duplicates. HTML comments are ignored; malformed references are skipped.
 */
export function parseDependsOn(body: string): Dependency[] {
  const text = body.replace(/<!--[\s\S]*?-->/g, "");
  const seen = new Set<string>();
  const out: Dependency[] = [];
  for (const m of text.matchAll(LINE)) {
    const ref = m[1];
    const short = SHORT.exec(ref) ?? URL_FORM.exec(ref);
    if (short === null) continue;
    const dep = { repository: short[1] ?? null, number: Number(short[2]) };
    const key = `${dep.repository ?? ""}#${dep.number}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(dep);
  }
  return out;
}

/**
 * The leaves the queue adds for a pull request's dependencies: `depends-on=#N` for the same
 * repository, `depends-on=owner/repo#N` otherwise, each described "⛓️ depends on".
 * @param repository the pull request's repository, "owner/name" (references to it are shortened)
 */
export function dependsOnConditions(body: string, repository: string): ConditionLeaf[] {
  return parseDependsOn(body).map((d) => {
    const same = d.repository === null || d.repository.toLowerCase() === repository.toLowerCase();
    const leaf = parseCondition(`depends-on=${same ? "" : d.repository}#${d.number}`);
    return { ...leaf, description: "⛓️ depends on" };
  });
}
