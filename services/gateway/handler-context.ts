/**
 * A light Connect HandlerContext for REST calls (research/stack.md §2, pitfall P7): the
 * implementation is called directly, without Connect's createHandlerContext, whose AbortSignal
 * machinery costs ~16 µs per call on Node 20. The abort signal never fires: REST handlers are
 * short and the server's own timeouts bound them.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { createContextValues, type ContextValues, type HandlerContext } from "@connectrpc/connect";

const NEVER = new AbortController().signal;

/** Builds the context of one REST call; `values` carries the principal (auth.ts). */
export function restHandlerContext(
  service: DescService,
  method: DescMethod,
  requestMethod: string,
  url: string,
  headers: Record<string, string | string[] | undefined>,
  values: ContextValues = createContextValues(),
): HandlerContext {
  const requestHeader = new Headers();
  for (const k in headers) {
    const v = headers[k];
    // HTTP/2 pseudo-headers (":path") are not valid Headers names (stack.md pitfall P5).
    if (v === undefined || k.startsWith(":")) continue;
    requestHeader.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  return {
    service,
    method,
    protocolName: "rest",
    requestMethod,
    url,
    signal: NEVER,
    timeoutMs: () => undefined,
    requestHeader,
    responseHeader: new Headers(),
    responseTrailer: new Headers(),
    values,
  } as HandlerContext;
}
