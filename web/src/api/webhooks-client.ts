/** WebhookService (proto/yardmaster/v1/webhooks.proto) on the page's transport (clients.ts). */
import { createClient, type Client } from "@connectrpc/connect";
import { WebhookService } from "../../../gen/yardmaster/v1/webhooks_pb.js";
import { transport } from "./clients.js";

/** A repository's webhooks and their delivery log (docs/notifications.md). */
export const webhooks: Client<typeof WebhookService> = createClient(WebhookService, transport);
