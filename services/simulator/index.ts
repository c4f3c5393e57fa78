/** Public surface of services/simulator (the configuration module is services/simulator/config). */
export { createSimulatorService, type SimulatorDeps } from "./simulator-service.js";
export { createProductService } from "./product-service.js";
