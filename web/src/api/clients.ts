/**
 * Connect clients of the service's RPCs, generated from proto/ (gen/, protoc-gen-es v2), over the
 * Connect protocol on the page's own origin: the same port serves the dashboard and the API.
 * Every call carries the session's credential as `Authorization: Bearer` (docs/auth.md).
 */
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ActivityLogService } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { QueueService } from "../../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../../gen/yardmaster/v1/simulator_pb.js";
import { token } from "../session.js";

const bearer: Interceptor = (next) => (req) => {
  const t = token();
  if (t) req.header.set("authorization", `Bearer ${t}`);
  return next(req);
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
