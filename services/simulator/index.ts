/** Public surface of services/simulator (the configuration language is services/config). */
export { createSimulatorService } from "./simulator-service.js";
export type { SimulatorDeps } from "./caller-configuration.js";
export { MIN_CI_RUNS, MIN_PULL_REQUESTS, MAX_WINDOW_DAYS, TRAFFIC_SEED } from "./traffic-simulation.js";
