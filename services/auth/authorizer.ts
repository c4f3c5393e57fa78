/**
 * Authentication and authorization, one module for REST, Connect and gRPC (docs/auth.md).
 * Every route and RPC requires `Authorization: Bearer <token>`. Three credential kinds:
 * - the admin application key: every repository and every internal RPC;
 * - tokens issued by the service (`yardmaster token create --repo owner/name`): the repositories
 *   they name, compared case-insensitively;
 * - a token of the code hosting platform, accepted when the platform says its user can read the
 *   repository (a pluggable {@link PlatformTokenVerifier}; added with the forge).
 * An RPC whose request has no `owner` + `repository` (tokens, AppendEvents) is admin-only, unless
 * it is marked `(yardmaster.v1.caller_scoped)` (ListRepositories): its handler answers only what
 * the caller reaches ({@link canReadRepository}).
 * A refused call gets UNAUTHENTICATED (a bad credential) or PERMISSION_DENIED (a good one that
 * does not reach the call), both REST 403, with a message saying which of {@link DENIED} it is: a
 * missing or malformed header, an unknown credential, a revoked token, a token of other
 * repositories, an admin-only call. None of them depends on whether the repository exists.
 */
import { getOption, type DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextKey } from "@connectrpc/connect";
import { caller_scoped } from "../../gen/yardmaster/v1/common_pb.js";
import { parseToken, secretMatches, sha256, uuidOfSecret } from "./service-token.js";

/** Who performed an action, as written in events (events.proto Actor). */
export interface ActorInfo {
  type: "application" | "user";
  id: string | number;
  name: string;
}

/**
 * The authenticated caller: the admin application key; a service token with the repositories it
 * names (lowercase "owner/name"); or a hosting platform token, with the verifier asked per repository.
 */
export type Principal =
  | { kind: "admin"; actor: ActorInfo }
  | { kind: "token"; tokenId: string; repositories: ReadonlySet<string>; actor: ActorInfo }
  | { kind: "platform"; token: string; verifier: PlatformTokenVerifier; actor: ActorInfo };

/** A service token as stored (secret hashed). */
export interface StoredToken {
  id: string;
  secretHash: Buffer;
  repositories: string[];
  description: string;
  revokedAt: Date | null;
}

/** Lookup of issued tokens (implemented by services/store). */
export interface TokenLookup {
  findToken(id: string): Promise<StoredToken | null>;
}

/** Checks a hosting platform token (GitHub: does its user have read access to the repository?). */
export interface PlatformTokenVerifier {
  /** Whether this bearer looks like one of the platform's tokens (e.g. `ghp_`, `github_pat_`). */
  recognizes(bearer: string): boolean;
  /** The user behind the token; null when the platform refuses it. */
  identify(bearer: string): Promise<ActorInfo | null>;
  /** Whether the token's user can read `owner/repository`. */
  canRead(bearer: string, repository: string): Promise<boolean>;
}

/** The principal of the current request, in Connect handler context values. */
export const principalKey = createContextKey<Principal | undefined>(undefined, { description: "yardmaster principal" });

/**
 * The message of each refusal (docs/auth.md "Refusals"). The out-of-scope one names the repository
 * the caller itself named, the same whether it exists or not.
 */
export const DENIED = {
  missing:
    "permission denied: no credential: send the header `Authorization: Bearer <key>` with the admin key or a token issued for the repository",
  malformed: "permission denied: the Authorization header must be `Bearer <key>` (printable characters, no spaces)",
  unknown:
    "permission denied: this credential is not the admin key nor a token this service issued (or the hosting platform refused it)",
  revoked: "permission denied: this token was revoked; ask for a new one (`yardmaster token create`)",
  outOfScope: (repository: string) =>
    `permission denied: this token does not reach ${repository}; a token reaches only the repositories it was issued for`,
  platformOutOfScope: (repository: string) =>
    `permission denied: the hosting platform says this token's user cannot read ${repository}`,
  adminOnly: (rpc: string) =>
    `permission denied: ${rpc} needs the admin key; a repository token reaches only its repositories' calls`,
} as const;

/**
 * Whether the principal reaches `owner/name`: the admin key every repository, a service token
 * the repositories it names (case-insensitively), a platform token what the platform says its
 * user can read. docs/auth.md.
 */
export async function canReadRepository(principal: Principal, repository: string): Promise<boolean> {
  if (principal.kind === "admin") return true;
  if (principal.kind === "token") return principal.repositories.has(repository.toLowerCase());
  return principal.verifier.canRead(principal.token, repository);
}

/**
 * Authentication and authorization of every request, REST, Connect and gRPC alike (docs/auth.md);
 * built by {@link createAuthorizer}.
 */
export interface Authorizer {
  /**
   * Identifies the bearer of an `Authorization` header.
   * @throws ConnectError UNAUTHENTICATED for a missing, malformed, unknown or revoked credential.
   */
  authenticate(header: string | null | undefined): Promise<Principal>;
  /**
   * Checks that the principal may call `method` with this request.
   * @throws ConnectError PERMISSION_DENIED when the repository is out of scope or the RPC is admin-only.
   */
  authorize(principal: Principal, method: DescMethod, request: Record<string, unknown>): Promise<void>;
}

/** Builds the authorizer from the admin key, the token lookup and the optional platform verifier. */
export function createAuthorizer(deps: {
  adminKey: string;
  tokens: TokenLookup;
  platform?: PlatformTokenVerifier;
}): Authorizer {
  const adminHash = sha256(deps.adminKey);
  const adminActor: ActorInfo = { type: "application", id: uuidOfSecret(deps.adminKey), name: "admin application key" };
  const unauthenticated = (message: string) => new ConnectError(message, Code.Unauthenticated);
  const dummyHash = sha256("no such token");

  return {
    async authenticate(header) {
      if (header === null || header === undefined || header.trim() === "") throw unauthenticated(DENIED.missing);
      // The scheme is case-insensitive and followed by one or more spaces (RFC 7235 §2.1, RFC 9110 §11.4).
      const m = /^Bearer +([\x21-\x7e]+)$/i.exec(header);
      if (!m) throw unauthenticated(DENIED.malformed);
      const bearer = m[1];
      if (secretMatches(bearer, adminHash)) return { kind: "admin", actor: adminActor };
      const parsed = parseToken(bearer);
      if (parsed) {
        const stored = await deps.tokens.findToken(parsed.id);
        // Compare even when absent, so unknown ids cost the same as wrong secrets.
        const ok = secretMatches(parsed.secret, stored?.secretHash ?? dummyHash);
        if (!stored || !ok) throw unauthenticated(DENIED.unknown);
        // Said only to whoever holds the whole secret.
        if (stored.revokedAt) throw unauthenticated(DENIED.revoked);
        return {
          kind: "token",
          tokenId: stored.id,
          repositories: new Set(stored.repositories.map((r) => r.toLowerCase())),
          actor: { type: "application", id: stored.id, name: stored.description || "service token" },
        };
      }
      if (deps.platform?.recognizes(bearer)) {
        const actor = await deps.platform.identify(bearer);
        if (actor) return { kind: "platform", token: bearer, verifier: deps.platform, actor };
      }
      throw unauthenticated(DENIED.unknown);
    },

    async authorize(principal, method, request) {
      if (principal.kind === "admin" || getOption(method, caller_scoped)) return;
      const owner = request.owner,
        repository = request.repository;
      const scoped =
        method.input.fields.some((f) => f.name === "owner") && method.input.fields.some((f) => f.name === "repository");
      if (!scoped || typeof owner !== "string" || typeof repository !== "string")
        throw new ConnectError(DENIED.adminOnly(`${method.parent.name}.${method.name}`), Code.PermissionDenied);
      if (!(await canReadRepository(principal, `${owner}/${repository}`)))
        throw new ConnectError(
          (principal.kind === "platform" ? DENIED.platformOutOfScope : DENIED.outOfScope)(`${owner}/${repository}`),
          Code.PermissionDenied,
        );
    },
  };
}
