/** Public surface of services/queue. */
export { createQueueService, queueWindow, type QueueServiceDeps } from "./queue-service.js";
export { pauseOperations } from "./pause-handlers.js";
