/** Public surface of services/simulator (the configuration language is services/config). */
export { createSimulatorService, type SimulatorDeps } from "./simulator-service.js";
