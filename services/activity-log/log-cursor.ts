/**
 * `/logs` cursors (docs/activity-log.md "Pages, cursors and links"): an opaque
 * token holding a keyset position (received_at, id), the direction to read from it, and the time
 * window of the listing, signed with HMAC-SHA-256 over those fields *and* the repository and the
 * normalised filters. A cursor altered by a client, or presented with another repository or other
 * filters than the ones it was issued for, fails the signature check: INVALID_ARGUMENT naming
 * `cursor`, with one message for every case (nothing tells a forger which part was wrong).
 *
 * Format: base64url("1.<o|n>.<received_at ms>.<id>.<window from ms>.<window to ms>") "." base64url(MAC, 18 bytes).
 * The MAC key is derived with HKDF-SHA-256 from a secret given by the caller (the service derives
 * it from the admin key, so cursors survive restarts and die with a rotated key).
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { invalidField } from "../contracts/index.js";
import type { LogFilters, LogWindow } from "./log-filters.js";

/** A row's place in the (received_at, id) order. */
export interface LogPosition {
  /** UTC milliseconds. */
  receivedAtMs: number;
  id: bigint;
}

/** What a cursor carries: read `older` (the next page) or `newer` (the previous page) than `position`, within `window`. */
export interface CursorState {
  direction: "older" | "newer";
  position: LogPosition;
  window: LogWindow;
}

/** Issues and opens signed `/logs` cursor tokens (format in the file header); built by createCursorCodec. */
export interface CursorCodec {
  /** A token for `state`, bound to `filters` (repository included). */
  issue(filters: LogFilters, state: CursorState): string;
  /**
   * The state of a token issued for exactly these filters.
   * @throws InvalidArgumentError ("cursor") for a malformed, altered or foreign token
   */
  open(filters: LogFilters, token: string): CursorState;
}

const MAC_BYTES = 18;
const PAYLOAD = /^1\.([on])\.(-?\d{1,16})\.(\d{1,20})\.(-?\d{1,16})\.(-?\d{1,16})$/;
const TOKEN = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{24})$/;

/** The canonical text of the filters a cursor is bound to (stable field order, bigints as text). */
export function filterScope(f: LogFilters): string {
  return JSON.stringify(
    [
      f.repository,
      f.pullRequest ?? null,
      f.baseRef ?? null,
      f.batchPull ?? null,
      f.eventType ?? null,
      f.outcome ?? null,
      f.trigger ?? null,
    ],
    (_k, v) => (typeof v === "bigint" ? v.toString() : v),
  );
}

/**
 * Builds the codec.
 * @param secret input keying material (at least 16 bytes of entropy; the admin key in production)
 */
export function createCursorCodec(secret: string | Uint8Array): CursorCodec {
  const signed = signedTokens(secret, "activity-log cursor v1", TOKEN);
  const refused = () =>
    invalidField(
      "cursor",
      "is not a cursor issued for this repository and these filters (it was altered, or comes from another listing)",
    );

  return {
    issue(filters, s) {
      const payload = `1.${s.direction === "older" ? "o" : "n"}.${s.position.receivedAtMs}.${s.position.id}.${s.window.fromMs}.${s.window.toMs}`;
      return signed.issue(filterScope(filters), payload);
    },
    open(filters, token) {
      const m = PAYLOAD.exec(signed.open(filterScope(filters), token) ?? "");
      if (!m) throw refused();
      return {
        direction: m[1] === "o" ? "older" : "newer",
        position: { receivedAtMs: Number(m[2]), id: BigInt(m[3]) },
        window: { fromMs: Number(m[4]), toMs: Number(m[5]) },
      };
    },
  };
}

/**
 * Signed tokens `base64url(payload) "." base64url(MAC)`: the MAC (HMAC-SHA-256 truncated to 18
 * bytes) covers a scope (the filters) and the payload, with a key derived by HKDF-SHA-256 from
 * `secret` for `info` (one key per kind of token). `open` gives the payload of a token issued for
 * `scope`, or null for a malformed, altered or foreign one; only the canonical encoding is
 * accepted, so no two texts stand for one token. `shape` is the token's pattern (payload, MAC).
 */
export function signedTokens(secret: string | Uint8Array, info: string, shape: RegExp) {
  const key = Buffer.from(hkdfSync("sha256", secret, "yardmaster", info, 32));
  const mac = (scope: string, payload: string) =>
    createHmac("sha256", key).update(scope).update("\0").update(payload).digest().subarray(0, MAC_BYTES);
  return {
    issue: (scope: string, payload: string): string =>
      `${Buffer.from(payload).toString("base64url")}.${mac(scope, payload).toString("base64url")}`,
    open(scope: string, token: string): string | null {
      const t = shape.exec(token);
      if (!t) return null;
      const payload = Buffer.from(t[1], "base64url").toString("latin1");
      if (Buffer.from(payload, "latin1").toString("base64url") !== t[1]) return null;
      const given = Buffer.from(t[2], "base64url");
      if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(scope, payload))) return null;
      return payload;
    },
  };
}
