/**
 * WatchLogs cursors (docs/activity-log.md "Live tail"): where a live tail resumes. A position in
 * the (received_at, id) order cannot say it alone, because an event can become visible after
 * events with a later `received_at` were delivered (its transaction committed later, the relay
 * moved it later). The cursor therefore holds a watermark `w` (UTC ms: every event of the filters
 * received before `w` was delivered or is settled and was seen) and the events delivered at or
 * after `w`, each as (received_at, id): a resumed tail reads `received_at >= w` and skips those
 * ids. The watermark advances to the log's settled time (settled-time.ts), so the list holds
 * only the events of the last seconds.
 *
 * Format: base64url("w1.<w>.<entries>") "." base64url(MAC, 18 bytes), entries joined by "-", each
 * "<received_at - w in base 36>~<id in base 36>". Signed like the `/logs` cursors (log-cursor.ts,
 * same filter scope) with a key derived for this use: a cursor altered or presented with another
 * repository or other filters is refused with INVALID_ARGUMENT naming `cursor`.
 */
import { invalidField } from "../contracts/index.js";
import { filterScope, signedTokens, type LogPosition } from "./log-cursor.js";
import type { LogFilters } from "./log-filters.js";

/** Where a tail stands: the watermark (UTC ms) and the events delivered at or after it. */
export interface TailPosition {
  watermarkMs: number;
  delivered: LogPosition[];
}

/** Issues and opens WatchLogs cursors. */
export interface TailCursorCodec {
  issue(filters: LogFilters, position: TailPosition): string;
  /** @throws InvalidArgumentError ("cursor") for a malformed, altered or foreign cursor */
  open(filters: LogFilters, token: string): TailPosition;
}

/** Longest cursor accepted, characters (about 2,000 delivered events above the watermark). */
export const MAX_CURSOR_CHARS = 48_000;
const TOKEN = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{24})$/;
const PAYLOAD = /^w1\.(-?\d{1,16})\.((?:[0-9a-z]{1,11}~[0-9a-z]{1,13}(?:-[0-9a-z]{1,11}~[0-9a-z]{1,13})*)?)$/;

/** Builds the codec; `secret` as for createCursorCodec (log-cursor.ts). */
export function createTailCursorCodec(secret: string | Uint8Array): TailCursorCodec {
  const signed = signedTokens(secret, "activity-log watch cursor v1", TOKEN);
  const refused = () =>
    invalidField(
      "cursor",
      "is not a cursor issued by WatchLogs for this repository and these filters (it was altered, or comes from another stream)",
    );
  return {
    issue(filters, p) {
      const entries = p.delivered
        .map((d) => `${(d.receivedAtMs - p.watermarkMs).toString(36)}~${d.id.toString(36)}`)
        .join("-");
      return signed.issue(filterScope(filters), `w1.${p.watermarkMs}.${entries}`);
    },
    open(filters, token) {
      const payload = token.length <= MAX_CURSOR_CHARS ? signed.open(filterScope(filters), token) : null;
      const m = PAYLOAD.exec(payload ?? "");
      if (!m) throw refused();
      const watermarkMs = Number(m[1]);
      const delivered = m[2]
        ? m[2].split("-").map((e) => {
            const [ms, id] = e.split("~");
            return { receivedAtMs: watermarkMs + Number.parseInt(ms, 36), id: parseBase36(id) };
          })
        : [];
      return { watermarkMs, delivered };
    },
  };
}

function parseBase36(text: string): bigint {
  let n = 0n;
  for (const c of text) n = n * 36n + BigInt(Number.parseInt(c, 36));
  return n;
}
