/**
 * The CLI's connection to the running service (docs/deployment.md "The operational contract"): Connect over HTTP/1.1 to
 * YARDMASTER_URL, with the admin key (YARDMASTER_ADMIN_KEY or the data directory's file). Every
 * command but `serve` and `migrate` goes through here, so the CLI behaves exactly like any client.
 */
import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { readAdminKey } from "./admin-key.js";
import type { Settings } from "./settings.js";

/** A typed Connect client of `service` on the running Yardmaster. */
export async function serviceClient<S extends DescService>(service: S, settings: Settings): Promise<Client<S>> {
  const key = await readAdminKey(settings.dataDir, settings.adminKey);
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${key}`);
    return next(req);
  };
  const transport = createConnectTransport({
    baseUrl: settings.serviceUrl,
    httpVersion: "1.1",
    interceptors: [auth],
    useBinaryFormat: true,
  });
  return createClient(service, transport);
}
