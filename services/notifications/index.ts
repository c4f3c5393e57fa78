/**
 * Public surface of services/notifications: outgoing webhooks (docs/notifications.md) — the
 * WebhookService, the delivery loop, and how bodies are signed and written.
 */
export { startDeliveryLoop, type DeliveryLoop, type DeliveryLoopOptions } from "./delivery-loop.js";
export { deliveryBody, eventJson } from "./payload.js";
export { describeFailure, MAX_ATTEMPTS, outcomeOf, retryDelayMs, type AttemptOutcome } from "./retry-policy.js";
export { SIGNATURE_HEADER, signatureMatches, signatureOf } from "./signature.js";
export { escapeSlack, slackText, typeInWords } from "./slack-text.js";
export { createWebhookService, eventPattern, type WebhookServiceDeps } from "./webhook-service.js";
