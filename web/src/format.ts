/** How times and states read on the dashboard: UTC instants shown in the browser's time zone. */
import type { Timestamp } from "@bufbuild/protobuf/wkt";

/** A protobuf Timestamp as a Date; undefined when absent. */
export function toDate(t: Timestamp | undefined): Date | undefined {
  return t ? new Date(Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6)) : undefined;
}

/** "14:05:09" today, else "2026-11-25 14:05"; "—" when absent. Title attributes carry ISO UTC. */
export function when(d: Date | undefined): string {
  if (!d) return "—";
  const sameDay = d.toDateString() === new Date().toDateString();
  return sameDay ? d.toLocaleTimeString([], { hour12: false }) : d.toISOString().slice(0, 16).replace("T", " ");
}

/** "in 3 min", "2 min ago", "in a few seconds". */
export function relative(d: Date | undefined, now = Date.now()): string {
  if (!d) return "";
  const s = Math.round((d.getTime() - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 10) return s >= 0 ? "in a few seconds" : "a few seconds ago";
  const text = abs < 90 ? `${abs} s` : abs < 5400 ? `${Math.round(abs / 60)} min` : `${Math.round(abs / 3600)} h`;
  return s > 0 ? `in ${text}` : `${text} ago`;
}

/** A number of seconds as "45 s", "10 min", "1 h 5 min". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const parts = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return parts
    .map((n, i) => (n ? `${n} ${["h", "min", "s"][i]}` : ""))
    .filter(Boolean)
    .join(" ");
}

/** Seconds as "45 s", "12 min", "1 h 5 min"; "—" when absent. */
export function seconds(s: number | null | undefined): string {
  return s === null || s === undefined ? "—" : duration(s);
}

/** A rate (0-1) as "12.5%"; "—" when absent. */
export function percent(r: number | null | undefined): string {
  return r === null || r === undefined ? "—" : `${(r * 100).toFixed(1)}%`;
}
