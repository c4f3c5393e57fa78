/**
 * One port, every protocol (issue: foundation §4): REST over HTTP/1.1 and h2c, Connect, gRPC
 * through @grpc/grpc-js (not Connect's client), gRPC-Web, and gRPC server reflection listing
 * the three services — all against the real server process, reaching the same implementation.
 */
import http2 from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
} from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { createLocalRepository } from "../support/rest-client.js";

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
  for (const repo of ["acme/grpc", "acme/protocols", "acme/h2c"]) await createLocalRepository(server, repo);
});
afterAll(() => server?.stop());

const bearer =
  (key: string): Interceptor =>
  (next) =>
  (req) => {
    req.header.set("authorization", `Bearer ${key}`);
    return next(req);
  };

describe("one port for REST, Connect, gRPC and gRPC-Web", () => {
  it("serves a grpc-js client over h2c on the REST port, with the same state as REST", async () => {
    const put = await fetch(`${server.url}/v1/repos/acme/grpc/merge-queue/pause`, {
      method: "PUT",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ reason: "via REST" }),
    });
    expect(put.status).toBe(200);
    const client = grpcClient(QueueService, `127.0.0.1:${server.port}`);
    const res = await grpcUnary(client, "getMergeQueuePause", { owner: "acme", repository: "grpc" }, server.adminKey);
    expect(res.paused).toBe(true);
    expect(res.reason).toBe("via REST");
    const err = await grpcUnary(
      client,
      "getQueuedPullRequest",
      { owner: "acme", repository: "grpc", prNumber: 9223372036854775807n },
      server.adminKey,
    ).catch((e) => e);
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    expect(err.details).toBe("pull request 9223372036854775807 is not in any merge queue");
    client.close();
  });

  it.each([
    [
      "Connect over HTTP/1.1",
      () =>
        createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", interceptors: [bearer(server.adminKey)] }),
    ],
    [
      "Connect over h2c",
      () => createConnectTransport({ baseUrl: server.url, httpVersion: "2", interceptors: [bearer(server.adminKey)] }),
    ],
    [
      "gRPC (Connect's transport)",
      () => createGrpcTransport({ baseUrl: server.url, interceptors: [bearer(server.adminKey)] }),
    ],
    [
      "gRPC-Web over HTTP/1.1",
      () =>
        createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1", interceptors: [bearer(server.adminKey)] }),
    ],
    [
      "gRPC-Web over h2c",
      () => createGrpcWebTransport({ baseUrl: server.url, httpVersion: "2", interceptors: [bearer(server.adminKey)] }),
    ],
  ])("serves %s", async (_name, transport) => {
    const client = createClient(QueueService, transport());
    const status = await client.getMergeQueueStatus({ owner: "acme", repository: "protocols" });
    expect(status.mode).toBe("serial");
    expect(Object.keys(status.scopeQueues)).toEqual(["__default__"]);
    const refs = await client.listQueueBaseRefs({ owner: "acme", repository: "protocols" });
    expect(refs.baseRefs).toEqual([]);
  });

  it("serves REST over h2c with prior knowledge", async () => {
    const session = http2.connect(server.url);
    const body = await new Promise<string>((resolve, reject) => {
      const req = session.request({
        ":path": "/v1/repos/acme/h2c/merge-queue/pause",
        authorization: `Bearer ${server.adminKey}`,
      });
      let data = "";
      req.on("data", (d) => (data += d));
      req.on("end", () => resolve(data));
      req.on("error", reject);
      req.end();
    });
    session.close();
    expect(JSON.parse(body)).toEqual({ paused: false, reason: null, paused_at: null });
  });

  // v1alpha's messages are v1's, field for field: one codec reads both.
  it.each(["v1", "v1alpha"])(
    "answers gRPC server reflection %s: the three services are listed and their files resolve",
    async (version) => {
      const def: Record<string, grpc.MethodDefinition<any, any>> = {
        serverReflectionInfo: {
          path: `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`,
          requestStream: true,
          responseStream: true,
          originalName: "ServerReflectionInfo",
          requestSerialize: (v: any) => Buffer.from(toBinary(ServerReflectionRequestSchema, v)),
          requestDeserialize: (b: Buffer) => fromBinary(ServerReflectionRequestSchema, b),
          responseSerialize: (v: any) => Buffer.from(toBinary(ServerReflectionResponseSchema, v)),
          responseDeserialize: (b: Buffer) => fromBinary(ServerReflectionResponseSchema, b),
        },
      };
      const Client = grpc.makeGenericClientConstructor(def, "ServerReflection");
      const client = new Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure()) as any;
      const call = client.serverReflectionInfo();
      const answers: any[] = [];
      const done = new Promise<void>((resolve, reject) => {
        call.on("data", (d: unknown) => answers.push(d));
        call.on("end", resolve);
        call.on("error", reject);
      });
      call.write(create(ServerReflectionRequestSchema, { messageRequest: { case: "listServices", value: "" } }));
      call.write(
        create(ServerReflectionRequestSchema, {
          messageRequest: { case: "fileContainingSymbol", value: "yardmaster.v1.QueueService.GetMergeQueueStatus" },
        }),
      );
      call.write(
        create(ServerReflectionRequestSchema, {
          messageRequest: { case: "fileContainingSymbol", value: "yardmaster.v1.NoSuchThing" },
        }),
      );
      call.end();
      await done;
      client.close();
      const names = answers[0].messageResponse.value.service.map((s: { name: string }) => s.name);
      expect(names).toEqual(
        expect.arrayContaining([
          "yardmaster.v1.QueueService",
          "yardmaster.v1.SimulatorService",
          "yardmaster.v1.ActivityLogService",
          "grpc.reflection.v1.ServerReflection",
          "grpc.reflection.v1alpha.ServerReflection",
        ]),
      );
      const files = answers[1].messageResponse.value.fileDescriptorProto.map(
        (b: Uint8Array) => fromBinary(FileDescriptorProtoSchema, b).name,
      );
      expect(files[0]).toBe("yardmaster/v1/queue.proto");
      expect(files).toEqual(
        expect.arrayContaining([
          "google/api/annotations.proto",
          "google/protobuf/timestamp.proto",
          "yardmaster/v1/common.proto",
        ]),
      );
      expect(answers[2].messageResponse).toMatchObject({ case: "errorResponse", value: { errorCode: 5 } });
    },
  );
  // Byte 0x00 is a field number 0 tag: no protobuf message can start with it (docs/errors.md "Unparsable request messages").
  const UNPARSABLE = Buffer.from([0x00, 0x01]);
  const METHOD = "/yardmaster.v1.QueueService/GetMergeQueueStatus";
  const envelope = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, 0, bytes.length]), bytes]);

  it("answers an unparsable binary message as invalid_argument over Connect", async () => {
    const res = await fetch(server.url + METHOD, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/proto" },
      body: UNPARSABLE,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "invalid_argument", message: expect.stringMatching(/^parse binary: /) });
  });

  it("answers an unparsable binary message as invalid_argument over gRPC (status 3)", async () => {
    const session = http2.connect(server.url);
    const trailers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      const req = session.request({
        ":method": "POST",
        ":path": METHOD,
        "content-type": "application/grpc",
        te: "trailers",
        authorization: `Bearer ${server.adminKey}`,
      });
      let headers: http2.IncomingHttpHeaders = {};
      req.on("response", (h) => (headers = h));
      req.on("trailers", (t) => resolve({ ...headers, ...t }));
      req.on("end", () => resolve(headers));
      req.on("error", reject);
      req.on("data", () => {});
      req.end(envelope(UNPARSABLE));
    });
    session.close();
    expect(trailers["grpc-status"]).toBe("3");
    expect(decodeURIComponent(String(trailers["grpc-message"]))).toMatch(/^parse binary: /);
  });

  it("answers an unparsable binary message as invalid_argument over gRPC-Web (status 3 in the trailer frame)", async () => {
    const res = await fetch(server.url + METHOD, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/grpc-web+proto" },
      body: envelope(UNPARSABLE),
    });
    const body = Buffer.from(await res.arrayBuffer());
    const trailerAt = body.findIndex((b, i) => b === 0x80 && body.readUInt32BE(i + 1) === body.length - i - 5);
    const trailer = body.subarray(trailerAt + 5).toString("latin1");
    expect(trailer).toMatch(/grpc-status: 3\r\n/);
    expect(decodeURIComponent(/grpc-message: (.*)\r\n/.exec(trailer)![1])).toMatch(/^parse binary: /);
  });

  it("answers a streaming frame flagged compressed without an encoding as invalid_argument, logging no error", async () => {
    const logged = server.output().length;
    const payload = Buffer.from(JSON.stringify({ owner: "acme", repository: "compressed" }));
    const frame = Buffer.concat([Buffer.from([0x01, 0, 0, 0, payload.length]), payload]);
    // Connect's server-streaming WatchMergeQueue, no connect-content-encoding: the end-of-stream frame holds the error.
    const res = await fetch(`${server.url}/yardmaster.v1.QueueService/WatchMergeQueue`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/connect+json" },
      body: frame,
    });
    const body = Buffer.from(await res.arrayBuffer());
    expect(body[0]).toBe(0x02);
    expect(JSON.parse(body.subarray(5).toString("utf8"))).toEqual({
      error: { code: "invalid_argument", message: "received compressed envelope, but do not know how to decompress" },
    });
    // gRPC-Web answers the same frame the same way (status 3 in the trailer frame).
    const web = await fetch(`${server.url}/yardmaster.v1.QueueService/WatchMergeQueue`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/grpc-web+json" },
      body: frame,
    });
    expect(Buffer.from(await web.arrayBuffer()).toString("latin1")).toMatch(/grpc-status: 3\r\n/);
    // A caller's mistake: the server logs it at no error level (a log line is written before its answer).
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output().slice(logged)).not.toMatch(/"level":50/);
  });
});
