/**
 * Raw gRPC calls for the fault fuzzer: a @grpc/grpc-js client (real HTTP/2 gRPC, as
 * test/support/grpc-client.ts) that sends the bytes it is given as the request message, so that
 * a call can carry a valid message, a corrupt one or random bytes, to a unary or a streaming RPC.
 */
import * as grpc from "@grpc/grpc-js";
import type { DescMethod } from "@bufbuild/protobuf";

/** The answer of one call: its status code and details, and how long it took (milliseconds). */
export interface GrpcAnswer {
  code: grpc.status;
  details: string;
  ms: number;
}

const identity = (b: Buffer) => b;

/** A client that sends raw request bytes to any method at `address` (h2c). */
export function rawGrpcClient(address: string): {
  call(method: DescMethod, bytes: Uint8Array, token: string): Promise<GrpcAnswer>;
  close(): void;
} {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return {
    call(method, bytes, token) {
      const path = `/${method.parent.typeName}/${method.name}`;
      const meta = new grpc.Metadata();
      meta.set("authorization", `Bearer ${token}`);
      const started = performance.now();
      const deadline = { deadline: Date.now() + 60_000 };
      return new Promise((resolve) => {
        const done = (code: grpc.status, details: string) =>
          resolve({ code, details, ms: performance.now() - started });
        if (method.methodKind === "unary") {
          client.makeUnaryRequest(path, identity, identity, Buffer.from(bytes), meta, deadline, (err) =>
            done(err ? err.code : grpc.status.OK, err?.details ?? ""),
          );
          return;
        }
        const stream = client.makeBidiStreamRequest(path, identity, identity, meta, deadline);
        stream.on("data", () => {});
        stream.on("error", (err: grpc.ServiceError) => done(err.code, err.details));
        stream.on("status", (s: grpc.StatusObject) => s.code === grpc.status.OK && done(s.code, s.details));
        stream.write(Buffer.from(bytes));
        stream.end();
      });
    },
    close: () => client.close(),
  };
}

/** The gRPC statuses that say the server failed, not the caller: none may answer bad input. */
export const SERVER_FAILURES = new Set([
  grpc.status.UNKNOWN,
  grpc.status.INTERNAL,
  grpc.status.DATA_LOSS,
  grpc.status.UNAVAILABLE,
]);
