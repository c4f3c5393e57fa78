/**
 * What a caller's identity decides beyond access: the share of the server's worker threads its
 * requests use (one per credential, docs/reliability.md "Tenants"), and the one answer to an
 * `extends` that names a repository it does not reach (docs/auth.md "extends").
 */
import type { Principal } from "./authorizer.js";

/**
 * The key that shares costly work fairly among callers: `admin` for the admin key,
 * `token:<id>` for an issued token, `platform:<user id>` for a platform token (one share per
 * user, however many tokens it holds); `in-process` for a call made without the gateway.
 */
export function callerKey(principal: Principal | undefined): string {
  if (principal === undefined) return "in-process";
  if (principal.kind === "admin") return "admin";
  if (principal.kind === "token") return `token:${principal.tokenId}`;
  return `platform:${principal.actor.id}`;
}

/**
 * The message of the one refusal (PERMISSION_DENIED) of an `extends` naming `repository`
 * ("owner/name") that the caller's credential does not reach: the same whether it exists, has a
 * configuration or not, and whether the text came in the request or is the repository's stored file.
 */
export function extendsDeniedMessage(repository: string): string {
  return `extends: this credential cannot read the configuration of ${repository}: a repository token reaches only the repositories it names`;
}
