/**
 * The CLI's connection to the running service (docs/deployment.md "The operational contract"):
 * Connect over HTTP/1.1 to the service's address (service-address.ts: YARDMASTER_URL, else the
 * data directory's running server, else the default), with the admin key (YARDMASTER_ADMIN_KEY or
 * the data directory's file). Every command but `serve` and `migrate` goes through here, so the CLI
 * behaves exactly like any client, and a service that cannot be reached is reported the same way
 * by every command (UNAVAILABLE with {@link unreachableMessage}'s line).
 */
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { readAdminKey } from "./admin-key.js";
import { serviceAddress, unreachableCode, unreachableMessage } from "./service-address.js";
import type { Settings } from "./settings.js";

/**
 * A typed Connect client of `service` on the running Yardmaster.
 * @throws Error when there is no admin key (neither YARDMASTER_ADMIN_KEY nor the data directory's file)
 * Its calls throw ConnectError UNAVAILABLE naming the address and whether a server runs when the
 * service cannot be reached, and the service's own errors otherwise.
 */
export async function serviceClient<S extends DescService>(service: S, settings: Settings): Promise<Client<S>> {
  const key = await readAdminKey(settings.dataDir, settings.adminKey);
  const address = serviceAddress(settings);
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${key}`);
    return next(req);
  };
  const reachable: Interceptor = (next) => async (req) => {
    try {
      return await next(req);
    } catch (e) {
      const code = unreachableCode(e);
      if (code === undefined) throw e;
      throw new ConnectError(unreachableMessage(address, code, settings.dataDir), Code.Unavailable, undefined, [], e);
    }
  };
  const transport = createConnectTransport({
    baseUrl: address.url,
    httpVersion: "1.1",
    interceptors: [reachable, auth],
    useBinaryFormat: true,
  });
  return createClient(service, transport);
}
