/**
 * A stand-in for `grpcurl` for the README walkthrough test (grpcurl is not installed on the test
 * machines): the subset of its command line the README uses — `-plaintext`, `-H "name: value"`,
 * `-d '<json>'`, `host:port`, `package.Service/Method` — performed as the same unary call with
 * grpc-js over h2c, printing the response as protobuf JSON like grpcurl. A failure prints
 * `ERROR:` with the code and message, and exits 1, as grpcurl does.
 * Run: `node --import tsx test/replay/grpcurl-standin.ts <grpcurl arguments>`.
 */
import * as grpc from "@grpc/grpc-js";
import { fromJson, toJsonString, type DescService, type JsonValue } from "@bufbuild/protobuf";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { grpcClient } from "../support/grpc-client.js";

const SERVICES: DescService[] = [QueueService, ActivityLogService];

function fail(message: string): never {
  process.stderr.write(`ERROR:\n  ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const headers: [string, string][] = [];
let data = "{}";
const positional: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === "-plaintext") continue;
  else if (a === "-H") {
    const [name, ...value] = args[++i]!.split(":");
    headers.push([name!.trim().toLowerCase(), value.join(":").trim()]);
  } else if (a === "-d") data = args[++i]!;
  else if (a.startsWith("-")) fail(`the stand-in does not know the option ${a}`);
  else positional.push(a);
}
const [address, target] = positional;
if (!address || !target) fail("usage: grpcurl [-plaintext] [-H header] [-d json] host:port package.Service/Method");
const [serviceName, methodName] = target.split("/");
const service = SERVICES.find((s) => s.typeName === serviceName) ?? fail(`unknown service ${serviceName}`);
const method = service.methods.find((m) => m.name === methodName) ?? fail(`unknown method ${target}`);

const request = fromJson(method.input, JSON.parse(data) as JsonValue);
const client = grpcClient(service, address);
const meta = new grpc.Metadata();
for (const [name, value] of headers) meta.set(name, value);
const call = client[method.localName] as unknown as (
  req: unknown,
  meta: grpc.Metadata,
  cb: (err: grpc.ServiceError | null, res: unknown) => void,
) => void;
call.call(client, request, meta, (err, res) => {
  client.close();
  if (err) fail(`Code: ${grpc.status[err.code]}\n  Message: ${err.details}`);
  process.stdout.write(`${toJsonString(method.output, res as never, { prettySpaces: 2 })}\n`);
});
