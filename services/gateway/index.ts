/** Public surface of services/gateway. */
export { buildApp, type App, type GatewayDeps } from "./app.js";
export { canReadRepository, createAuthorizer, principalKey, type ActorInfo, type Authorizer, type PlatformTokenVerifier, type Principal, type StoredToken, type TokenLookup } from "./auth.js";
export { compileRoutes, RouteCompileError, type ServiceBinding } from "./compile-routes.js";
export { issueToken, uuidOfSecret } from "./service-token.js";
export { writeRestJson } from "./rest-json.js";
export { createTokenService, type TokenRecord, type TokenRepository } from "./token-service.js";
