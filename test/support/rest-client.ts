/** A REST call to a server process with the admin key: status and parsed JSON body. */
import type { ServerProcess } from "./server-process.js";

export async function restCall(
  server: ServerProcess,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(server.url + url, {
    method,
    headers: {
      authorization: `Bearer ${server.adminKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/**
 * Creates repository `owner/name` on the server's local forge (one empty commit on `main`), through
 * ForgeService.CreateRepository over Connect JSON: the queue's routes answer 404 for a repository
 * the forge does not know (docs/api.md "Decisions").
 */
export async function createLocalRepository(server: ServerProcess, fullName: string): Promise<void> {
  const [owner, repository] = fullName.split("/");
  const res = await restCall(server, "POST", "/yardmaster.v1.ForgeService/CreateRepository", { owner, repository });
  if (res.status !== 200) throw new Error(`creating ${fullName}: ${res.status} ${JSON.stringify(res.json)}`);
}
