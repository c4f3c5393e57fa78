/**
 * Connect clients of the service's RPCs, generated from proto/ (gen/, protoc-gen-es v2), over the
 * Connect protocol on the page's own origin: the same port serves the dashboard and the API.
 * Every call carries the session's credential as `Authorization: Bearer` (docs/auth.md); an answer
 * UNAUTHENTICATED (the credential is no longer accepted) ends the session, so the page shows the
 * sign-in form with the reason instead of retrying forever.
 */
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ActivityLogService } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { ForgeService } from "../../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../../gen/yardmaster/v1/simulator_pb.js";
import { endSession, token } from "../session.js";

/** What the sign-in page says when the service refuses the tab's credential. */
export const REFUSED_TOKEN = "The service did not accept the token (unknown, revoked, or the admin key changed).";

const bearer: Interceptor = (next) => async (req) => {
  const t = token();
  if (t) req.header.set("authorization", `Bearer ${t}`);
  try {
    return await next(req);
  } catch (e) {
    if (t && ConnectError.from(e).code === Code.Unauthenticated) endSession(REFUSED_TOKEN);
    throw e;
  }
};

/** The Connect transport of every client: this origin, binary, the session's credential. */
export const transport = createConnectTransport({
  baseUrl: window.location.origin,
  useBinaryFormat: true,
  interceptors: [bearer],
});

/** QueueService (proto/yardmaster/v1/queue.proto). */
export const queue: Client<typeof QueueService> = createClient(QueueService, transport);
/** ActivityLogService (proto/yardmaster/v1/activity_log.proto). */
export const activityLog: Client<typeof ActivityLogService> = createClient(ActivityLogService, transport);
/** SimulatorService (proto/yardmaster/v1/simulator.proto). */
export const simulator: Client<typeof SimulatorService> = createClient(SimulatorService, transport);
/** ForgeService (proto/yardmaster/v1/forge.proto): the local forge's CI logs. */
export const forge: Client<typeof ForgeService> = createClient(ForgeService, transport);
