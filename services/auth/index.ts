/** Public surface of services/auth: the caller's identity, the authorizer and service tokens (docs/auth.md). */
export {
  canReadRepository,
  DENIED,
  createAuthorizer,
  principalKey,
  type ActorInfo,
  type Authorizer,
  type PlatformTokenVerifier,
  type Principal,
  type StoredToken,
  type TokenLookup,
} from "./authorizer.js";
export { callerKey, extendsDeniedMessage } from "./caller.js";
export { issueToken, uuidOfSecret } from "./service-token.js";
