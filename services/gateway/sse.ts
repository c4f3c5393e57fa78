/**
 * Server-streaming RPCs on REST as server-sent events (docs/api.md "Streams"; the format:
 * https://html.spec.whatwg.org/multipage/server-sent-events.html): `200 text/event-stream`, one
 * event per message, its `data:` the message's REST JSON (rest-json.ts) on one line, its `id:` the
 * message's `cursor` when it has one (WatchLogs), so a browser's EventSource resumes with
 * `Last-Event-ID`; a comment line every {@link KEEP_ALIVE_MS} keeps proxies from closing an idle
 * stream. A failure after the head was sent ends the stream with `event: error` and the one error
 * body (docs/errors.md). Each write waits for the socket to drain; a client that leaves a write
 * undrained for `stallMs` is disconnected (the buffers behind it are bounded: live/).
 */
import type { DescMessage } from "@bufbuild/protobuf";
import type { FastifyReply } from "fastify";
import type { ConnectError } from "@connectrpc/connect";
import { restError } from "./error-body.js";
import { restJsonBody } from "./rest-json.js";

/** Spacing of the keep-alive comments, ms. */
export const KEEP_ALIVE_MS = 15_000;

/** The `Last-Event-ID` of a request, when it resumes a stream whose request has a `cursor` field. */
export function resumeCursor(input: DescMessage, headers: Record<string, unknown>): string | undefined {
  const id = headers["last-event-id"];
  if (typeof id !== "string" || id === "" || !input.fields.some((f) => f.name === "cursor")) return undefined;
  return id;
}

/**
 * Writes the messages of `stream` as server-sent events on `reply` (hijacked from Fastify).
 * @param toError maps a failure to the error answered (error-body.ts publicError)
 */
export async function sendEventStream(
  reply: FastifyReply,
  output: DescMessage,
  stream: AsyncIterable<unknown>,
  opts: { requestId: string; stallMs: number; abort: AbortController; toError: (e: unknown) => ConnectError },
): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    "x-accel-buffering": "no",
    "x-request-id": opts.requestId,
  });
  const write = (text: string | Buffer) => writeDrained(res, text, opts.stallMs);
  const keepAlive = setInterval(() => void write(": keep-alive\n\n").catch(() => {}), KEEP_ALIVE_MS);
  try {
    await write(": stream open\n\n");
    for await (const message of stream) {
      const cursor = (message as { cursor?: unknown }).cursor;
      const id = typeof cursor === "string" && cursor !== "" ? `id: ${cursor}\n` : "";
      await write(Buffer.concat([Buffer.from(`${id}data: `), restJsonBody(output, message), LF2]));
    }
  } catch (e) {
    if (!res.destroyed && !opts.abort.signal.aborted) {
      const { body } = restError(opts.toError(e), opts.requestId);
      await write(`event: error\ndata: ${JSON.stringify(body)}\n\n`).catch(() => {});
    }
  } finally {
    clearInterval(keepAlive);
    opts.abort.abort();
    if (!res.destroyed) res.end();
  }
}

const LF2 = Buffer.from("\n\n");

interface Writable {
  write(chunk: string | Buffer): boolean;
  once(event: "drain" | "close", fn: () => void): unknown;
  off(event: "drain" | "close", fn: () => void): unknown;
  destroy(error?: Error): unknown;
  destroyed: boolean;
}

/**
 * Writes `chunk`, resolving when it may be followed (at once, or at `drain`).
 * @throws Error when the client went away, or left the write undrained for `stallMs` (then it is disconnected)
 */
function writeDrained(res: Writable, chunk: string | Buffer, stallMs: number): Promise<void> {
  if (res.destroyed) return Promise.reject(new Error("the client went away"));
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (e?: Error) => {
      clearTimeout(timer);
      res.off("drain", onDrain);
      res.off("close", onClose);
      if (e) reject(e);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error("the client went away"));
    const timer = setTimeout(() => {
      res.destroy();
      done(new Error(`the client read nothing for ${stallMs / 1000} s: disconnected`));
    }, stallMs);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}
