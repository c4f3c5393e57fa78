/**
 * A @grpc/grpc-js client (not Connect's) for a protobuf-es service, with protobuf-es
 * serializers: typed messages, exact bigints (docs/architecture.md "gRPC clients in tests"). Speaks h2c with prior
 * knowledge, as gRPC tooling does.
 */
import * as grpc from "@grpc/grpc-js";
import { create, fromBinary, toBinary, type DescService } from "@bufbuild/protobuf";

export type GrpcClient = grpc.Client &
  Record<
    string,
    (req: unknown, meta: grpc.Metadata, cb: (err: grpc.ServiceError | null, res: any) => void) => grpc.ClientUnaryCall
  >;

/** A grpc-js client for `service` at `host:port` (insecure). */
export function grpcClient(service: DescService, address: string): GrpcClient {
  const def: Record<string, grpc.MethodDefinition<any, any>> = {};
  for (const m of service.methods) {
    def[m.localName] = {
      path: `/${service.typeName}/${m.name}`,
      originalName: m.name,
      requestStream: m.methodKind === "client_streaming" || m.methodKind === "bidi_streaming",
      responseStream: m.methodKind === "server_streaming" || m.methodKind === "bidi_streaming",
      requestSerialize: (v: any) => Buffer.from(toBinary(m.input, create(m.input, v))),
      requestDeserialize: (b: Buffer) => fromBinary(m.input, b),
      responseSerialize: (v: any) => Buffer.from(toBinary(m.output, v)),
      responseDeserialize: (b: Buffer) => fromBinary(m.output, b),
    };
  }
  const Client = grpc.makeGenericClientConstructor(def, service.name);
  return new Client(address, grpc.credentials.createInsecure()) as unknown as GrpcClient;
}

/** Calls a unary method; resolves with the response or rejects with the grpc ServiceError. */
export function grpcUnary<T = any>(client: GrpcClient, method: string, req: unknown, token?: string): Promise<T> {
  const meta = new grpc.Metadata();
  if (token !== undefined) meta.set("authorization", `Bearer ${token}`);
  return new Promise((resolve, reject) => client[method](req, meta, (err, res) => (err ? reject(err) : resolve(res))));
}
