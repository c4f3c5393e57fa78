/** The activity log property suite (log-properties.ts) against the embedded ClickHouse engine. */
import { describe } from "vitest";
import { defineLogProperties } from "./log-properties.js";

describe("activity log queries, embedded ClickHouse", () => defineLogProperties("embedded", 60));
