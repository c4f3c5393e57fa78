/**
 * The activity log property suite (log-properties.ts) against ClickHouse by URL: the service's
 * by-URL client path talking to `yardmaster clickhouse-http` in a child process.
 */
import { describe } from "vitest";
import { defineLogProperties } from "./log-properties.js";

describe("activity log queries, ClickHouse by URL", () => defineLogProperties("url", 40));
