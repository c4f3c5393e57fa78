/**
 * The client's HTTP conventions, translated from SOURCES.http (crates/mergify-core/src/http.rs at
 * 8bb025cf): the bearer token on every request, and `next_cursor_from_link`, which reads the
 * `cursor` of the `rel="next"` target of a `Link` header with `Url::parse` (an absolute URL, or
 * nothing: a relative target ends the pagination).
 */

/** `next_cursor_from_link`: the next page's cursor, or null (no next link, relative target, no cursor). */
export function nextCursorFromLink(header: string | null): string | null {
  if (header === null) return null;
  for (const part of header.split(",")) {
    const [rawTarget, ...params] = part.split(";");
    const isNext = params.some((p) => {
      const param = p.trim();
      return param.startsWith("rel=") && param.slice(4).replace(/^"+|"+$/g, "") === "next";
    });
    if (!isNext) continue;
    const target = rawTarget!.trim();
    if (!target.startsWith("<") || !target.endsWith(">")) return null;
    let url: URL;
    try {
      url = new URL(target.slice(1, -1)); // Url::parse: relative references fail
    } catch {
      return null;
    }
    return url.searchParams.get("cursor");
  }
  return null;
}

/**
 * The client: `base` is `--api-url`, requests carry `Authorization: Bearer <token>` and JSON
 * bodies; `extra` headers stand for what a proxy in between adds (X-Forwarded-*).
 */
export function mergifyClient(base: string, token: string, extra: Record<string, string> = {}) {
  const send = async (method: string, path: string, query: [string, string][] = [], body?: unknown) => {
    const url = new URL(path, base);
    for (const [k, v] of query) url.searchParams.append(k, v);
    const res = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "user-agent": "mergify-cli/test",
        ...extra,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
  };
  return {
    get: (path: string, query?: [string, string][]) => send("GET", path, query),
    post: (path: string, body: unknown) => send("POST", path, [], body),
    put: (path: string, body: unknown) => send("PUT", path, [], body),
    patch: (path: string, body: unknown) => send("PATCH", path, [], body),
    delete: (path: string) => send("DELETE", path),
  };
}
