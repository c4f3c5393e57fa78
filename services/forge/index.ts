/** Public surface of services/forge: the port both adapters implement (adapters: ./local, ./github). */
export * from "./types.js";
export { FORGE_ERROR_CODES, forgeErrorToConnect, withForgeErrorsAsConnect } from "./connect-errors.js";
