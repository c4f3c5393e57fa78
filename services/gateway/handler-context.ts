/**
 * A light Connect HandlerContext for REST calls (docs/architecture.md "The REST transcoder"): the
 * implementation is called directly, without Connect's createHandlerContext, whose AbortSignal
 * machinery costs ~16 µs per call on Node 20. The abort signal never fires for a unary call: REST
 * handlers are short and the server's own timeouts bound them; a stream (sse.ts) gives its own. The header objects are made on first use:
 * most implementations read no request header and set no response header, and a WHATWG Headers
 * validates every name and value it holds.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { createContextValues, type ContextValues, type HandlerContext } from "@connectrpc/connect";

const NEVER = new AbortController().signal;

/**
 * The context of one REST call: `rawHeaders` is Node's request header object (lower-case names),
 * `values` carries the principal (auth.ts); {@link RestHandlerContext.setResponseHeaders} hands
 * back what the implementation set.
 */
export class RestHandlerContext implements HandlerContext {
  readonly protocolName = "rest";
  private request?: Headers;
  private response?: Headers;
  private trailer?: Headers;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    readonly requestMethod: string,
    readonly url: string,
    private readonly rawHeaders: Record<string, string | string[] | undefined>,
    readonly values: ContextValues = createContextValues(),
    /** Aborted when the client goes away: given for the streams (sse.ts), never fires otherwise. */
    readonly signal: AbortSignal = NEVER,
  ) {}

  timeoutMs(): number | undefined {
    return undefined;
  }

  /**
   * The request's headers (HTTP/2 pseudo-headers left out: they are not valid Headers names,
   * docs/architecture.md "The REST transcoder").
   */
  get requestHeader(): Headers {
    if (!this.request) {
      this.request = new Headers();
      for (const k in this.rawHeaders) {
        const v = this.rawHeaders[k];
        if (v === undefined || k.startsWith(":")) continue;
        this.request.set(k, Array.isArray(v) ? v.join(", ") : v);
      }
    }
    return this.request;
  }

  get responseHeader(): Headers {
    return (this.response ??= new Headers());
  }

  get responseTrailer(): Headers {
    return (this.trailer ??= new Headers());
  }

  /** Calls `set` for every response header the implementation set (`Link`, ...); none made, none called. */
  setResponseHeaders(set: (name: string, value: string) => void): void {
    this.response?.forEach((value, name) => set(name, value));
  }
}
