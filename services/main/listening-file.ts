/**
 * The running server's note in its data directory (docs/deployment.md "Where the CLI finds the
 * service"): `<dataDir>/server.json`, `{"pid", "state": "starting" | "listening", "url"?,
 * "started_at"}`, written when `serve` starts (before any database work), completed with the URL
 * once it listens, removed when it stops. CLI commands read it to find a server listening on
 * another port than the default, and to say whether a server runs when they cannot reach one.
 * Like PostgreSQL's postmaster.pid: a note left by a process that was killed names a pid that no
 * longer runs, and is ignored.
 */
import { readFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** The note's path in a data directory. */
export const listeningFile = (dataDir: string) => path.join(dataDir, "server.json");

/** What the note says; `url` once the server listens. */
export interface ListeningNote {
  pid: number;
  state: "starting" | "listening";
  url?: string;
  /** When the server started, ISO 8601 UTC. */
  startedAt: string;
}

/** Writes the note (atomically: a temporary file renamed over it). */
export async function writeListeningNote(dataDir: string, note: ListeningNote): Promise<void> {
  const file = listeningFile(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  const text = JSON.stringify({ pid: note.pid, state: note.state, url: note.url, started_at: note.startedAt });
  await writeFile(tmp, `${text}\n`, { mode: 0o644 });
  await rename(tmp, file);
}

/** Removes the note when it is this process's (a later server's note is left alone). */
export async function removeListeningNote(dataDir: string): Promise<void> {
  if (readListeningNote(dataDir)?.pid === process.pid) await rm(listeningFile(dataDir), { force: true });
}

/**
 * The note of a server that runs now from `dataDir`, or null: no note, an unreadable one, or one
 * whose process is gone.
 */
export function readListeningNote(dataDir: string): ListeningNote | null {
  let raw: { pid?: unknown; state?: unknown; url?: unknown; started_at?: unknown };
  try {
    raw = JSON.parse(readFileSync(listeningFile(dataDir), "utf8"));
  } catch {
    return null;
  }
  if (typeof raw.pid !== "number" || !Number.isInteger(raw.pid) || raw.pid <= 0) return null;
  if (raw.state !== "starting" && raw.state !== "listening") return null;
  if (!processRuns(raw.pid)) return null;
  return {
    pid: raw.pid,
    state: raw.state,
    url: typeof raw.url === "string" ? raw.url : undefined,
    startedAt: typeof raw.started_at === "string" ? raw.started_at : "",
  };
}

/** Whether a process with this pid exists (signal 0: nothing is sent). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
