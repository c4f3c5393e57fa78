/**
 * The lines `yardmaster serve` prints once it listens (docs/observability.md "Start-up lines"):
 * where it listens, where the dashboard, the API reference, the OpenAPI document and the metrics
 * are (with the real host and port), the services run here in a split deployment, and where the
 * admin key is (its file or YARDMASTER_ADMIN_KEY, and a masked prefix: never the key itself, since
 * start-up lines end up in log collectors; docs/auth.md "The admin key").
 */
import { maskedKey } from "./admin-key.js";
import { SERVICE_NAMES, type ServiceName, type Settings } from "./settings.js";

/**
 * The URL a local client reaches a server listening on `host`:`port` at: a wildcard address
 * (0.0.0.0, ::) is reached through the loopback interface; an IPv6 address is bracketed.
 */
export function localUrl(host: string, port: number): string {
  const h = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host;
  return `http://${h.includes(":") && !h.startsWith("[") ? `[${h}]` : h}:${port}`;
}

/** The banner's lines, first to last. `port` is the port listened on (PORT=0 picks one). */
export function bannerLines(
  settings: Pick<Settings, "host" | "remotes">,
  port: number,
  services: ReadonlySet<ServiceName>,
  admin: { key: string; generated: boolean; source: string },
): string[] {
  const url = localUrl(settings.host, port);
  const lines = [
    `Yardmaster is listening on ${url} (REST under /v1, Connect, gRPC and gRPC-Web on the same port)`,
    `  Dashboard:      ${url}/`,
    `  API reference:  ${url}/docs (OpenAPI document: ${url}/openapi.json)`,
    `  Metrics:        ${url}/metrics (Prometheus text format)`,
  ];
  if (services.size < SERVICE_NAMES.length) {
    const elsewhere = SERVICE_NAMES.filter((n) => !services.has(n)).map(
      (n) => `${n} ${settings.remotes[n] ? `at ${settings.remotes[n]}` : "not served"}`,
    );
    lines.push(`Services here: ${[...services].join(", ")}; ${elsewhere.join("; ")}`);
  }
  const masked = maskedKey(admin.key);
  lines.push(
    admin.source === "YARDMASTER_ADMIN_KEY"
      ? `Admin key: from YARDMASTER_ADMIN_KEY (${masked})`
      : `Admin key: ${admin.generated ? "generated now, " : ""}in ${admin.source} (${masked}; \`cat ${admin.source}\` shows it)`,
  );
  return lines;
}
