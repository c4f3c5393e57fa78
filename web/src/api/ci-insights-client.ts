/** CiInsightsService (proto/yardmaster/v1/ci_insights.proto) on the page's transport (clients.ts). */
import { createClient, type Client } from "@connectrpc/connect";
import { CiInsightsService } from "../../../gen/yardmaster/v1/ci_insights_pb.js";
import { transport } from "./clients.js";

/** A repository's tests, their health and runs, quarantines and auto-quarantine (docs/ci-insights.md). */
export const ciInsights: Client<typeof CiInsightsService> = createClient(CiInsightsService, transport);
