/**
 * `Link` targets are absolute URLs (docs/mergify-cli.md "Pagination"): Mergify's CLI reads the next
 * cursor with `Url::parse`, so a path-absolute target ends its pagination after one page
 * (test/mergify-cli/http.ts). The origin is PUBLIC_URL when set, else the request's scheme and
 * Host; X-Forwarded-Proto / X-Forwarded-Host count only from a peer TRUST_PROXY trusts.
 */
import type { HandlerContext } from "@connectrpc/connect";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";
import { nextCursorFromLink } from "../mergify-cli/http.js";

const ADMIN_KEY = "yma_link_targets_test_key_012345";
const PATH = "/v1/repos/acme/widgets/logs?per_page=1";
const RELATIVE =
  '</v1/repos/acme/widgets/logs?per_page=1&cursor=c2>; rel="next", </v1/repos/acme/widgets/logs?per_page=1>; rel="first"';
const apps: App[] = [];

async function app(opts: { publicUrl?: string; trustProxy?: string }): Promise<App> {
  const built = await buildApp({
    bindings: [
      {
        service: ActivityLogService,
        impl: {
          listLogs: async (_req: unknown, ctx: HandlerContext) => {
            ctx.responseHeader.set("link", RELATIVE);
            return { size: 0, perPage: 1, events: [] };
          },
        },
      },
    ],
    authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
    ...opts,
  });
  apps.push(built);
  return built;
}
afterAll(async () => Promise.all(apps.map((a) => a.close())));

async function linkOf(a: App, headers: Record<string, string>): Promise<string> {
  const res = await a.inject({
    method: "GET",
    url: PATH,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, ...headers },
  });
  expect(res.statusCode).toBe(200);
  return String(res.headers.link);
}

const FORWARDED = { host: "10.0.0.5:8080", "x-forwarded-proto": "https", "x-forwarded-host": "ci.example" };

describe("Link targets", () => {
  it("a path-absolute target gives Mergify's CLI no next cursor", () => {
    expect(nextCursorFromLink(RELATIVE)).toBeNull();
  });

  it("are resolved against the request's scheme and Host, ignoring X-Forwarded-* from an untrusted peer", async () => {
    const link = await linkOf(await app({}), FORWARDED);
    expect(link).toBe(
      '<http://10.0.0.5:8080/v1/repos/acme/widgets/logs?per_page=1&cursor=c2>; rel="next", ' +
        '<http://10.0.0.5:8080/v1/repos/acme/widgets/logs?per_page=1>; rel="first"',
    );
    expect(nextCursorFromLink(link)).toBe("c2");
  });

  it("take X-Forwarded-Proto and X-Forwarded-Host from a peer TRUST_PROXY trusts", async () => {
    const link = await linkOf(await app({ trustProxy: "127.0.0.1" }), FORWARDED);
    expect(link.startsWith("<https://ci.example/v1/repos/acme/widgets/logs?per_page=1&cursor=c2>")).toBe(true);
    expect(nextCursorFromLink(link)).toBe("c2");
  });

  it("take PUBLIC_URL, its path kept, over the request's own origin", async () => {
    const a = await app({ publicUrl: "https://yard.example/ym/", trustProxy: "127.0.0.1" });
    const link = await linkOf(a, FORWARDED);
    expect(link.startsWith("<https://yard.example/ym/v1/repos/acme/widgets/logs?per_page=1&cursor=c2>")).toBe(true);
    expect(nextCursorFromLink(link)).toBe("c2");
  });
});
