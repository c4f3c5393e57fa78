/**
 * The protobuf binary size of a message, the unit of the live buffers' byte counters
 * (live-registry.ts). Computed once per message object: statuses and events are shared messages
 * (contracts/frozen-message.ts) sent to many watchers.
 */
import { toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";

const sizes = new WeakMap<object, number>();

/** The size in bytes of `message` of `schema` encoded in protobuf binary. */
export function messageBytes<D extends DescMessage>(schema: D, message: MessageShape<D>): number {
  let n = sizes.get(message);
  if (n === undefined) sizes.set(message, (n = toBinary(schema, message).length));
  return n;
}
