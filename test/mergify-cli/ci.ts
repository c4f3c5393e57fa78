/**
 * `mergify ci scopes-send`, `ci queue-info` and `ci git-refs` (SOURCES.scopesSend, queueInfo,
 * ciGit, queueMetadata, gitRefs), and how the client prints an API error (SOURCES.httpErrors,
 * `error_message`): the requests they build, and how they read a merge queue batch's metadata with
 * plain git (the note `refs/notes/mergify/<branch>` on the branch's head) or from the draft pull
 * request's body (its first ```yaml block). The git commands are the client's, run in a clone.
 */
import { execFileSync } from "node:child_process";
import { parse } from "yaml";

/** scopes_send.rs: POST /v1/repos/<repo>/pulls/<n>/scopes with `SendScopesRequest {scopes}` (no response body read). */
export const scopesPath = (repo: string, n: number) => `/v1/repos/${repo}/pulls/${n}/scopes`;
export const scopesRequest = (scopes: string[]) => ({ scopes });

/**
 * http.rs `error_message`: `HTTP <status>: <detail>` when the (untruncated) body is a JSON object
 * with a string `detail`, else the body's text; then a `url:` line. `status` is reqwest's
 * StatusCode display (`404 Not Found`).
 */
export function errorMessage(status: string, body: string, url: string): string {
  let detail: string | null = null;
  try {
    const v = JSON.parse(body);
    if (v !== null && typeof v === "object" && typeof v.detail === "string") detail = v.detail;
  } catch {
    // not JSON: the text is shown
  }
  const head =
    detail !== null ? `HTTP ${status}: ${detail}` : body === "" ? `HTTP ${status}` : `HTTP ${status}: ${body}`;
  return `${head}\nurl: ${url}`;
}

/** git.rs `capture`: a git command's stdout in `cwd`, or null when it fails. */
function capture(cwd: string, args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

/** git.rs `parse_yaml_mapping`: the payload as a JSON value, only when it is a mapping. */
export function parseYamlMapping(content: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = parse(content);
  } catch {
    return null;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** git.rs `read_note`: `git notes --ref=<notes_ref> show <rev>`, parsed. */
export function readNote(cwd: string, notesRef: string, rev: string): Record<string, unknown> | null {
  const content = capture(cwd, ["notes", `--ref=${notesRef}`, "show", rev]);
  return content === null ? null : parseYamlMapping(content);
}

/**
 * queue_info.rs `real_head_note_reader`: fetch every `refs/notes/mergify/*` from origin, then the
 * first of them with a note on HEAD. queue-info prints it with `serde_json::to_string_pretty`, and
 * exits "not a merge queue batch" (INVALID_STATE) when there is none.
 */
export function headNoteReader(cwd: string): Record<string, unknown> | null {
  if (capture(cwd, ["fetch", "--no-tags", "--quiet", "origin", "+refs/notes/mergify/*:refs/notes/mergify/*"]) === null)
    return null;
  const refs = capture(cwd, ["for-each-ref", "--format=%(refname)", "refs/notes/mergify/"]);
  if (refs === null) return null;
  for (const ref of refs.split("\n").filter((r) => r !== "")) {
    const note = readNote(cwd, ref, "HEAD");
    if (note !== null) return note;
  }
  return null;
}

/** queue-info's stdout for a note (`serde_json::to_string_pretty` + newline). */
export const queueInfoOutput = (note: Record<string, unknown>) => `${JSON.stringify(note, null, 2)}\n`;

/**
 * git_refs.rs `real_notes_reader`: fetch `refs/notes/mergify/<branch>` alone, `git notes
 * --ref=mergify/<branch> show <head_sha>`, and read `checking_base_sha` (a required string).
 */
export function gitRefsNotesReader(cwd: string, branch: string, headSha: string): string | null {
  const ref = `refs/notes/mergify/${branch}`;
  if (capture(cwd, ["fetch", "--no-tags", "--quiet", "origin", `+${ref}:${ref}`]) === null) return null;
  const note = readNote(cwd, `mergify/${branch}`, headSha);
  return note !== null && typeof note.checking_base_sha === "string" ? note.checking_base_sha : null;
}

/**
 * queue_metadata.rs `parse_yaml_block` (the lines between the first line starting with ```yaml and
 * the next line starting with ```) and `extract_from_event` (only for a title starting with
 * "merge queue: ").
 */
export function metadataFromDraft(title: string, body: string): Record<string, unknown> | null {
  if (!title.startsWith("merge queue: ")) return null;
  let inside = false;
  const lines: string[] = [];
  for (const line of body.split("\n")) {
    if (!inside) {
      if (line.startsWith("```yaml")) inside = true;
    } else if (line.startsWith("```")) break;
    else lines.push(line);
  }
  return lines.length === 0 ? null : parseYamlMapping(lines.join("\n"));
}
