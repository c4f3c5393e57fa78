/** Public surface of services/gateway. */
export { buildApp, type App, type GatewayDeps } from "./app.js";
export { compileRoutes, RouteCompileError, type ServiceBinding } from "./compile-routes.js";
export { writeRestJson } from "./rest-json.js";
