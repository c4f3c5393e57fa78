/** Public surface of services/live: the live streams' registry, buffers and wake-ups (docs/api.md "Streams"). */
export {
  DEFAULT_LIVE_LIMITS,
  LiveRegistry,
  type LiveLimits,
  type LiveStats,
  type WatcherSlot,
} from "./live-registry.js";
export { liveStream, type LiveSink, type LiveStreamOptions } from "./live-stream.js";
export { sleep, Wakeup } from "./wakeup.js";
export { messageBytes } from "./message-bytes.js";
