/**
 * What the built-in merge protections need to read through the forge port
 * (docs/merge-protections.md "Built-in protections"), for the queue runner and the pull request
 * simulator alike: the pull requests a `Depends-On:` line names (in this repository or another of
 * the same owner), with cycles left out, and, for a pull request that edits the configuration
 * file, that file at its head and whether it loads.
 */
import {
  CONFIGURATION_FILES,
  parseDependsOn,
  type DependencyFact,
  type PullRequestSnapshot,
  type RepoName,
} from "../config/index.js";
import { isForgeError, type ForgePort } from "./types.js";

/** `Depends-On:` lines read at most per pull request (the rest are ignored). */
export const MAX_DEPENDENCIES = 20;
/** Pull requests read at most while looking for a cycle from one dependency. */
const MAX_CYCLE_READS = 10;

/** The facts of {@link protectionFacts}. */
export interface ProtectionFacts {
  dependencies: DependencyFact[];
  /** The pull requests named (cycles and itself left out), for the reverse lookup when one of them merges. */
  dependsOn: { repository: RepoName; number: number }[];
  /** Set when the pull request edits the configuration file: its path and the errors loading it at the head. */
  configurationChange: { path: string; errors: string[] } | null;
}

const key = (repository: string, number: number) => `${repository.toLowerCase()}#${number}`;
const isUnreadable = (e: unknown) =>
  isForgeError(e, "not_found") || isForgeError(e, "permission") || isForgeError(e, "invalid");
const ownerOf = (repository: string) => repository.split("/")[0]!.toLowerCase();

/**
 * Whether following the `Depends-On:` lines of `from` (open pull requests only, at most
 * {@link MAX_CYCLE_READS} reads) leads back to `target`: a cycle, which is ignored.
 */
async function leadsBack(
  forge: ForgePort,
  fromRepository: RepoName,
  from: PullRequestSnapshot,
  target: string,
): Promise<boolean> {
  const seen = new Set<string>([key(fromRepository, from.number)]);
  const queue: { repository: RepoName; body: string }[] = [{ repository: fromRepository, body: from.body }];
  let reads = 0;
  while (queue.length > 0) {
    const next = queue.shift()!;
    for (const d of parseDependsOn(next.body).slice(0, MAX_DEPENDENCIES)) {
      const repository = d.repository ?? next.repository;
      const k = key(repository, d.number);
      if (k === target) return true;
      if (seen.has(k) || reads >= MAX_CYCLE_READS || ownerOf(repository) !== ownerOf(fromRepository)) continue;
      seen.add(k);
      reads++;
      const pr = await forge.getPullRequest(repository, d.number).catch((e) => {
        if (isUnreadable(e)) return null;
        throw e;
      });
      if (pr?.state === "open") queue.push({ repository, body: pr.body });
    }
  }
  return false;
}

/**
 * The facts of `pr` (of `repository`). `loadErrors` loads a configuration text and answers its
 * errors (none: it loads); the caller's loader, so that a large file is loaded off the event loop.
 * @throws ForgeError transient / rate_limited / conflict when the forge cannot be read (a pull request
 *   it does not know or will not show is a fact: `unknown`)
 */
export async function protectionFacts(
  forge: ForgePort,
  repository: RepoName,
  pr: PullRequestSnapshot,
  loadErrors: (text: string) => Promise<string[]>,
): Promise<ProtectionFacts> {
  const dependencies: DependencyFact[] = [];
  const dependsOn: ProtectionFacts["dependsOn"] = [];
  const self = key(repository, pr.number);
  for (const d of parseDependsOn(pr.body).slice(0, MAX_DEPENDENCIES)) {
    const other = d.repository ?? repository;
    if (key(other, d.number) === self) continue; // itself: ignored
    const same = other.toLowerCase() === repository.toLowerCase();
    const ref = same ? `#${d.number}` : `${other}#${d.number}`;
    if (ownerOf(other) !== ownerOf(repository)) {
      dependencies.push({ ref, state: "foreign", title: null });
      continue;
    }
    let dep: PullRequestSnapshot;
    try {
      dep = await forge.getPullRequest(other, d.number);
    } catch (e) {
      // A pull request the forge will not show (absent, or a repository the App cannot read) is a
      // fact, not a failure to retry; a forge that does not answer is.
      if (!isUnreadable(e)) throw e;
      dependencies.push({ ref, state: "unknown", title: null });
      continue;
    }
    if (dep.state === "open" && (await leadsBack(forge, other, dep, self))) continue; // a cycle: ignored
    dependencies.push({ ref, state: dep.state, title: dep.title });
    dependsOn.push({ repository: other, number: d.number });
  }
  const path = pr.files.find((f) => CONFIGURATION_FILES.includes(f)) ?? null;
  let configurationChange: ProtectionFacts["configurationChange"] = null;
  if (path !== null) {
    const text = await forge.readFile(repository, pr.headSha, path);
    configurationChange = { path, errors: text === null ? [] : await loadErrors(text) };
  }
  return { dependencies, dependsOn, configurationChange };
}
