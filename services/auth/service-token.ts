/**
 * Tokens the service issues (docs/auth.md): `ym_<id>_<secret>`, where id is the token's UUID
 * without dashes (32 hex) and secret 32 random bytes in base64url. Only SHA-256(secret) is stored;
 * comparisons are constant-time. The admin application key is compared the same way.
 */
import { hash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

const TOKEN = /^ym_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

/** A freshly issued token: give `secret` to the user once; store `id` and `secretHash`. */
export interface IssuedToken {
  id: string;
  secret: string;
  secretHash: Buffer;
}

/** Issues a new token. */
export function issueToken(): IssuedToken {
  const id = randomUUID();
  const raw = randomBytes(32).toString("base64url");
  return { id, secret: `ym_${id.replaceAll("-", "")}_${raw}`, secretHash: sha256(raw) };
}

/** Splits a bearer value into token id (UUID) and secret; null when it is not a service token. */
export function parseToken(bearer: string): { id: string; secret: string } | null {
  const m = TOKEN.exec(bearer);
  if (!m) return null;
  const h = m[1];
  return {
    id: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
    secret: m[2],
  };
}

/**
 * SHA-256 of a text (UTF-8), as 32 raw bytes: how token secrets are stored and how presented
 * secrets are compared.
 */
export function sha256(text: string): Buffer {
  // The one-shot hash: no Hash object per call (every request's bearer is hashed: docs/rest-json.md "Cost of the transcoder").
  return hash("sha256", text, "buffer");
}

/** Constant-time comparison of a presented secret with a stored SHA-256 (different lengths never match). */
export function secretMatches(presented: string, storedHash: Buffer): boolean {
  const h = sha256(presented);
  return h.length === storedHash.length && timingSafeEqual(h, storedHash);
}

/** A stable UUID naming a secret without revealing it (first 16 bytes of its SHA-256, version 8). */
export function uuidOfSecret(secret: string): string {
  const b = sha256(`yardmaster-key-id:${secret}`).subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
