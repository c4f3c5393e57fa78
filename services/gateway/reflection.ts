/**
 * gRPC server reflection (grpc.reflection.v1.ServerReflection, and the same answers under
 * grpc.reflection.v1alpha.ServerReflection, the version grpcurl before 1.8.8 and other older tools
 * ask for), so standard gRPC tooling (grpcurl, Postman, evans) can list the services and call them
 * without the .proto files.
 * Answers list_services, file_by_filename, file_containing_symbol, file_containing_extension and
 * all_extension_numbers_of_type from the generated descriptors; a file answer carries the file
 * and every file it imports, transitively (FileDescriptorProto bytes). Reflection needs no token:
 * it reveals only the published schema (docs/auth.md).
 */
import {
  create,
  fromBinary,
  toBinary,
  type DescExtension,
  type DescFile,
  type DescMessage,
  type DescService,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  ErrorResponseSchema,
  ExtensionNumberResponseSchema,
  FileDescriptorResponseSchema,
  ListServiceResponseSchema,
  ServerReflection,
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
} from "../../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflection as ServerReflectionV1Alpha,
  ServerReflectionRequestSchema as AlphaRequestSchema,
  ServerReflectionResponseSchema as AlphaResponseSchema,
} from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";

const NOT_FOUND = 5;

/** The two versions of the reflection service, answering alike. */
export interface ReflectionServices {
  v1: ServiceImpl<typeof ServerReflection>;
  v1alpha: ServiceImpl<typeof ServerReflectionV1Alpha>;
}

/**
 * Builds the reflection services over the given services (both reflection services are listed
 * too). v1alpha's messages are v1's under another package, field for field, so a v1alpha request
 * is answered by reading its bytes as v1 and writing the v1 answer's bytes as v1alpha.
 */
export function createReflectionServices(services: DescService[]): ReflectionServices {
  const files = new Map<string, DescFile>();
  const addFile = (f: DescFile): void => {
    if (files.has(`${f.name}.proto`)) return;
    files.set(`${f.name}.proto`, f);
    f.dependencies.forEach(addFile);
  };
  const reflection = [ServerReflection, ServerReflectionV1Alpha];
  for (const s of [...services, ...reflection]) addFile(s.file);

  const symbols = new Map<string, DescFile>();
  const extensions = new Map<string, DescExtension[]>();
  const addMessage = (m: DescMessage): void => {
    symbols.set(m.typeName, m.file);
    m.nestedMessages.forEach(addMessage);
    m.nestedEnums.forEach((e) => symbols.set(e.typeName, e.file));
    m.nestedExtensions.forEach(addExtension);
  };
  const addExtension = (x: DescExtension): void => {
    symbols.set(x.typeName, x.file);
    const list = extensions.get(x.extendee.typeName) ?? [];
    list.push(x);
    extensions.set(x.extendee.typeName, list);
  };
  for (const f of files.values()) {
    f.messages.forEach(addMessage);
    f.enums.forEach((e) => symbols.set(e.typeName, f));
    f.extensions.forEach(addExtension);
    for (const s of f.services) {
      symbols.set(s.typeName, f);
      for (const m of s.methods) symbols.set(`${s.typeName}.${m.name}`, f);
    }
  }
  const serviceNames = [...services, ...reflection].map((s) => s.typeName);

  const withDependencies = (file: DescFile): Uint8Array[] => {
    const seen = new Set<string>();
    const out: Uint8Array[] = [];
    const walk = (f: DescFile): void => {
      if (seen.has(f.name)) return;
      seen.add(f.name);
      out.push(toBinary(FileDescriptorProtoSchema, create(FileDescriptorProtoSchema, f.proto)));
      f.dependencies.forEach(walk);
    };
    walk(file);
    return out;
  };

  const answer = (req: ServerReflectionRequest): ServerReflectionResponse => {
    const res = (messageResponse: ServerReflectionResponse["messageResponse"]) =>
      create(ServerReflectionResponseSchema, { validHost: req.host, originalRequest: req, messageResponse });
    const notFound = (what: string) =>
      res({
        case: "errorResponse",
        value: create(ErrorResponseSchema, { errorCode: NOT_FOUND, errorMessage: `${what} not found` }),
      });
    const fileAnswer = (f: DescFile | undefined, what: string) =>
      f
        ? res({
            case: "fileDescriptorResponse",
            value: create(FileDescriptorResponseSchema, { fileDescriptorProto: withDependencies(f) }),
          })
        : notFound(what);
    const r = req.messageRequest;
    switch (r.case) {
      case "listServices":
        return res({
          case: "listServicesResponse",
          value: create(ListServiceResponseSchema, { service: serviceNames.map((name) => ({ name })) }),
        });
      case "fileByFilename":
        return fileAnswer(files.get(r.value), `file ${r.value}`);
      case "fileContainingSymbol":
        return fileAnswer(symbols.get(r.value), `symbol ${r.value}`);
      case "fileContainingExtension": {
        const x = extensions.get(r.value.containingType)?.find((e) => e.number === r.value.extensionNumber);
        return fileAnswer(x?.file, `extension ${r.value.extensionNumber} of ${r.value.containingType}`);
      }
      case "allExtensionNumbersOfType": {
        if (!symbols.has(r.value)) return notFound(`type ${r.value}`);
        const numbers = (extensions.get(r.value) ?? []).map((x) => x.number);
        return res({
          case: "allExtensionNumbersResponse",
          value: create(ExtensionNumberResponseSchema, { baseTypeName: r.value, extensionNumber: numbers }),
        });
      }
      default:
        return res({
          case: "errorResponse",
          value: create(ErrorResponseSchema, { errorCode: 3, errorMessage: "empty reflection request" }),
        });
    }
  };

  return {
    v1: {
      async *serverReflectionInfo(requests) {
        for await (const req of requests) yield answer(req);
      },
    },
    v1alpha: {
      async *serverReflectionInfo(requests) {
        for await (const req of requests) {
          const res = answer(fromBinary(ServerReflectionRequestSchema, toBinary(AlphaRequestSchema, req)));
          yield fromBinary(AlphaResponseSchema, toBinary(ServerReflectionResponseSchema, res));
        }
      },
    },
  };
}
