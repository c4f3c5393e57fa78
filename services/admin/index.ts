/** Public surface of services/admin: the admin-only services, TokenService and ProductService (docs/auth.md). */
export { createTokenService, type TokenRecord, type TokenRepository } from "./token-service.js";
export { createProductService } from "./product-service.js";
