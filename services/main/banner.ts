/**
 * The lines `yardmaster serve` prints once it listens (docs/observability.md "Start-up lines"):
 * where it listens, where the dashboard, the API reference, the OpenAPI document and the metrics
 * are (with the real host and port), the services run here in a split deployment, and the admin key.
 */
import { SERVICE_NAMES, type ServiceName, type Settings } from "./settings.js";

/** The banner's lines, first to last. `port` is the port listened on (PORT=0 picks one). */
export function bannerLines(
  settings: Pick<Settings, "host" | "remotes">,
  port: number,
  services: ReadonlySet<ServiceName>,
  admin: { key: string; generated: boolean; source: string },
): string[] {
  // A wildcard address is reached through the loopback interface.
  const host = settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host === "::" ? "[::1]" : settings.host;
  const url = `http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`;
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
  lines.push(
    admin.generated
      ? `Admin key (generated, stored in ${admin.source}): ${admin.key}`
      : `Admin key: ${admin.key} (from ${admin.source})`,
  );
  return lines;
}
