/**
 * Where CLI commands find the running service, and what they say when they cannot reach it
 * (docs/deployment.md "Where the CLI finds the service"):
 * 1. YARDMASTER_URL when it is set;
 * 2. else the URL in the data directory's note (listening-file.ts) of a server that runs from it
 *    (so `PORT=9090 npm start` needs no YARDMASTER_URL in the next terminal);
 * 3. else `http://127.0.0.1:8080`, YARDMASTER_URL's default.
 * A connection that fails gives one line naming the address, where it came from, YARDMASTER_URL,
 * and whether a server runs from the data directory (and where it listens, or that it is still
 * starting), never a bare `ECONNREFUSED`.
 */
import { readListeningNote, type ListeningNote } from "./listening-file.js";
import type { Settings } from "./settings.js";

/** The address CLI commands use and where it came from. */
export interface ServiceAddress {
  url: string;
  source: "YARDMASTER_URL" | "data directory" | "default";
}

/** The address of the service for CLI commands (see the file header for the order). */
export function serviceAddress(settings: Pick<Settings, "serviceUrl" | "serviceUrlGiven" | "dataDir">): ServiceAddress {
  if (settings.serviceUrlGiven) return { url: settings.serviceUrl, source: "YARDMASTER_URL" };
  const note = readListeningNote(settings.dataDir);
  if (note?.state === "listening" && note.url) return { url: note.url, source: "data directory" };
  return { url: settings.serviceUrl, source: "default" };
}

/** Network error codes that mean "nothing answered at that address", in words. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ECONNRESET: "connection reset",
  EADDRNOTAVAIL: "address not available",
};

/** The network error code behind a failed call (Connect wraps Node's error as its cause), or undefined. */
export function unreachableCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === "string" && Object.hasOwn(UNREACHABLE, code)) return code;
  }
  return undefined;
}

const isLoopback = (url: string) => {
  try {
    return ["127.0.0.1", "localhost", "[::1]", "::1"].includes(new URL(url).hostname);
  } catch {
    return false;
  }
};

/**
 * The one line a CLI command prints when the service at `address` did not answer (`code`: the
 * network error, e.g. ECONNREFUSED); `note` is the data directory's running server, if any.
 */
export function unreachableMessage(
  address: ServiceAddress,
  code: string,
  dataDir: string,
  note: ListeningNote | null = readListeningNote(dataDir),
): string {
  const from =
    address.source === "YARDMASTER_URL"
      ? "from YARDMASTER_URL"
      : address.source === "data directory"
        ? `where the server of ${dataDir} said it listens; YARDMASTER_URL is not set`
        : "YARDMASTER_URL is not set: its default";
  const head = `cannot reach the Yardmaster service at ${address.url} (${from}): ${UNREACHABLE[code] ?? code}`;
  let state: string;
  if (note === null)
    state = isLoopback(address.url)
      ? `no Yardmaster server runs from the data directory ${dataDir}: start one with \`npm start\` (or \`npx yardmaster serve\`), or set YARDMASTER_URL to the address of one that runs`
      : `is the server running there? (none runs from the data directory ${dataDir} on this machine)`;
  else if (note.state === "starting")
    state = `the server of ${dataDir} (pid ${note.pid}) is still starting (databases and migrations come first): try again in a few seconds`;
  else if (note.url !== undefined && note.url !== address.url)
    state = `a Yardmaster server runs from ${dataDir} (pid ${note.pid}) and listens on ${note.url}: set YARDMASTER_URL=${note.url}`;
  else state = `the server of ${dataDir} (pid ${note.pid}) listens there but did not answer: it may be stopping`;
  return `${head}; ${state}`;
}
