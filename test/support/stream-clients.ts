/**
 * Clients of the live streams (docs/api.md "Streams") for end-to-end tests: server-sent events
 * read with fetch, a Connect client (connect-node, HTTP/1.1) and a grpc-js server stream, each
 * collecting messages as they arrive.
 */
import * as grpc from "@grpc/grpc-js";
import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { GrpcClient } from "./grpc-client.js";

/** One server-sent event. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** A running SSE request: its status, the events so far, and a way to stop it. */
export interface SseStream {
  status: number;
  events: SseEvent[];
  /** The response body when it was not an event stream (an error answer). */
  body?: unknown;
  /** Resolves when the stream ends (by the server, or by close()). */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` as an event stream with `token`, and `Last-Event-ID` when given. */
export async function openSse(url: string, token: string, lastEventId?: string): Promise<SseStream> {
  const ac = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const res = await fetch(url, { headers, signal: ac.signal });
  const events: SseEvent[] = [];
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const body = await res.json();
    return { status: res.status, events, body, ended: Promise.resolve(), close: () => {} };
  }
  const ended = (async () => {
    const decoder = new TextDecoder();
    let text = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end = text.indexOf("\n\n");
        while (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          end = text.indexOf("\n\n");
          const e: SseEvent = { event: "message", data: "" };
          let any = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const [field, ...rest] = line.split(": ");
            const value = rest.join(": ");
            if (field === "id") e.id = value;
            else if (field === "event") e.event = value;
            else if (field === "data") e.data = value;
            any = true;
          }
          if (any) events.push(e);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return { status: res.status, events, ended, close: () => ac.abort() };
}

/** A Connect client (HTTP/1.1, JSON) of `service` at `baseUrl` sending `token`. */
export function connectClient<S extends DescService>(service: S, baseUrl: string, token: string): Client<S> {
  const transport = createConnectTransport({
    baseUrl,
    httpVersion: "1.1",
    useBinaryFormat: false,
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
  return createClient(service, transport);
}

/** Collects the messages of an async iterable into `into` until it ends; resolves with its error, if any. */
export async function collect<T>(stream: AsyncIterable<T>, into: T[]): Promise<unknown> {
  try {
    for await (const m of stream) into.push(m);
    return undefined;
  } catch (e) {
    return e;
  }
}

/** A grpc-js server stream of `method`; messages go to `into`; resolves with the final status. */
export function grpcStream<T>(
  client: GrpcClient,
  method: string,
  req: unknown,
  token: string,
  into: T[],
): { done: Promise<grpc.StatusObject | grpc.ServiceError>; cancel(): void } {
  const meta = new grpc.Metadata();
  meta.set("authorization", `Bearer ${token}`);
  const call = (client as unknown as Record<string, (r: unknown, m: grpc.Metadata) => grpc.ClientReadableStream<T>>)[
    method
  ](req, meta);
  call.on("data", (m: T) => into.push(m));
  const done = new Promise<grpc.StatusObject | grpc.ServiceError>((resolve) => {
    call.on("error", (e: grpc.ServiceError) => resolve(e));
    call.on("status", (s: grpc.StatusObject) => {
      if (s.code === grpc.status.OK) resolve(s);
    });
  });
  return { done, cancel: () => call.cancel() };
}
