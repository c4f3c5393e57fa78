/**
 * The TokenService (proto/yardmaster/v1/admin.proto; admin key only, enforced by auth.ts because
 * its requests name no repository): issues tokens scoped to repositories, lists and revokes them.
 * The secret is returned once; only its hash is stored (service-token.ts). docs/auth.md.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { DomainError, InvalidArgumentError, type FieldViolation } from "../contracts/index.js";
import { issueToken } from "../auth/index.js";

/** A stored token without its secret. */
export interface TokenRecord {
  id: string;
  repositories: string[];
  description: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Persistence of tokens (services/store/tokens.ts). */
export interface TokenRepository {
  insert(t: { id: string; secretHash: Buffer; repositories: string[]; description: string }): Promise<TokenRecord>;
  list(): Promise<TokenRecord[]>;
  revoke(id: string): Promise<TokenRecord | null>;
  /** Called after a revocation, to drop cached verifications. */
  revoked?(id: string): void;
}

const REPOSITORY = /^[a-zA-Z0-9-]{1,40}\/[\w.-]{1,100}$/;

const info = (t: TokenRecord) => ({
  id: t.id,
  repositories: t.repositories,
  description: t.description,
  createdAt: timestampFromDate(t.createdAt),
  revokedAt: t.revokedAt ? timestampFromDate(t.revokedAt) : undefined,
});

/** Builds the TokenService implementation. */
export function createTokenService(repo: TokenRepository): ServiceImpl<typeof TokenService> {
  return {
    async createToken(req) {
      const violations: FieldViolation[] = [];
      if (req.repositories.length === 0)
        violations.push({ field: "repositories", description: "must name at least one repository" });
      req.repositories.forEach((r, i) => {
        if (!REPOSITORY.test(r))
          violations.push({
            field: `repositories[${i}]`,
            description: 'must be "owner/repository" (owner 1-40 of [a-zA-Z0-9-], repository 1-100 of [\\w.-])',
          });
      });
      if (violations.length) throw new InvalidArgumentError(violations);
      const issued = issueToken();
      const stored = await repo.insert({
        id: issued.id,
        secretHash: issued.secretHash,
        repositories: [...new Set(req.repositories)],
        description: req.description,
      });
      return { token: info(stored), secret: issued.secret };
    },
    async listTokens() {
      return { tokens: (await repo.list()).map(info) };
    },
    async revokeToken(req) {
      const t = await repo.revoke(req.id);
      if (!t) throw new DomainError("not_found", `no token has id ${req.id}`);
      repo.revoked?.(req.id);
      return { token: info(t) };
    },
  };
}
