/**
 * Reading commit objects: raw objects from `git cat-file --batch`, parsed here (headers, identities,
 * message) so that no message text can be mistaken for a separator. Rules: git's commit object
 * format (Documentation/technical/signature-format.txt for multi-line headers).
 */
import { ForgeError, type CommitInfo, type Sha } from "../../types.js";
import { runGit } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import type { DatedIdentity } from "./identity.js";
import type { BareRepo } from "./bare-repo.js";

/**
 * A commit with everything the forge shows about it. Extends the port's {@link CommitInfo}
 * (`author`/`committer` are the names; `date` is the committer date, UTC; `verified` is always
 * false: the local forge does not check signatures).
 */
export interface CommitDetails extends CommitInfo {
  tree: Sha;
  authorIdentity: DatedIdentity;
  committerIdentity: DatedIdentity;
  /** Author date (UTC). */
  authorDate: Date;
}

/**
 * Reads commits by SHA, in the given order.
 * @throws ForgeError not_found when one of them is not a commit
 */
export async function readCommits(repo: BareRepo, shas: readonly Sha[]): Promise<CommitDetails[]> {
  if (shas.length === 0) return [];
  const out = await withGitFailure(`reading commits of ${repo.name}`, () =>
    runGit(repo.gitDir, ["cat-file", "--batch"], { input: shas.map((s) => `${s}\n`).join("") }),
  );
  const buf = out.stdout;
  const commits: CommitDetails[] = [];
  let pos = 0;
  for (const requested of shas) {
    const eol = buf.indexOf(0x0a, pos);
    const header = buf.subarray(pos, eol).toString("utf8");
    const [sha, type, size] = header.split(" ");
    if (type !== "commit" || sha === undefined || size === undefined) {
      throw new ForgeError("not_found", `no commit "${requested}" in ${repo.name}`);
    }
    const start = eol + 1;
    const end = start + Number(size);
    commits.push(parseCommit(sha, buf.subarray(start, end).toString("utf8")));
    pos = end + 1; // the object is followed by a newline
  }
  return commits;
}

/** Reads one commit. @throws ForgeError not_found when `sha` is not a commit */
export async function readCommit(repo: BareRepo, sha: Sha): Promise<CommitDetails> {
  const [commit] = await readCommits(repo, [sha]);
  return commit!;
}

/**
 * Parses a raw commit object (headers, a blank line, the message).
 * @throws ForgeError transient when the object lacks a tree, author or committer (a corrupt object)
 */
export function parseCommit(sha: Sha, raw: string): CommitDetails {
  const split = raw.indexOf("\n\n");
  const headerText = split === -1 ? raw : raw.slice(0, split);
  // The message as a hosting platform reports it: without the newline git ends it with (writeCommit
  // adds it back, so a commit replayed from these details keeps its bytes).
  const stored = split === -1 ? "" : raw.slice(split + 2);
  const message = stored.endsWith("\n") ? stored.slice(0, -1) : stored;
  const headers: [string, string][] = [];
  for (const line of headerText.split("\n")) {
    if (line.startsWith(" ") && headers.length > 0) headers[headers.length - 1]![1] += `\n${line.slice(1)}`;
    else {
      const space = line.indexOf(" ");
      headers.push([line.slice(0, space), line.slice(space + 1)]);
    }
  }
  const one = (key: string): string => {
    const found = headers.find(([k]) => k === key);
    if (found === undefined) throw new ForgeError("transient", `commit ${sha} has no ${key} header`);
    return found[1];
  };
  const author = parseIdentity(sha, one("author"));
  const committer = parseIdentity(sha, one("committer"));
  return {
    sha,
    tree: one("tree"),
    parents: headers.filter(([k]) => k === "parent").map(([, v]) => v),
    title: message.split("\n")[0]!.trim(),
    message,
    author: author.name,
    committer: committer.name,
    authorIdentity: author,
    committerIdentity: committer,
    authorDate: new Date(author.timestamp * 1000),
    date: new Date(committer.timestamp * 1000),
    verified: false,
  };
}

/** Parses `Name <email> 1700000000 +0100`. */
function parseIdentity(sha: Sha, text: string): DatedIdentity {
  const match = /^(.*) <([^>]*)> (-?\d+) ([+-]\d{4})$/.exec(text);
  if (match === null) throw new ForgeError("transient", `commit ${sha} has an unreadable identity "${text}"`);
  return { name: match[1]!, email: match[2]!, timestamp: Number(match[3]), offset: match[4]! };
}
