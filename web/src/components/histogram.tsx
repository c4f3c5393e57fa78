/**
 * The histogram of the log window (docs/activity-log.md "Aggregates": zero-filled buckets of
 * interval_size_seconds) drawn with uPlot as bars, with a text summary for screen readers.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { HistogramBucket } from "../../../gen/yardmaster/v1/activity_log_pb.js";

/** A bar chart of the buckets (x: bucket start, seconds since the epoch; y: events). */
export function Histogram({ buckets, total }: { buckets: HistogramBucket[]; total: bigint }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data: uPlot.AlignedData = [
    buckets.map((b) => Number(b.start?.seconds ?? 0)),
    buckets.map((b) => Number(b.count)),
  ];
  useEffect(() => {
    if (!box.current) return;
    if (plot.current) {
      plot.current.setData(data);
      return;
    }
    plot.current = new uPlot(
      {
        width: Math.max(320, box.current.clientWidth),
        height: 160,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        series: [
          {},
          {
            label: "events",
            fill: "rgba(37, 99, 235, 0.5)",
            stroke: "#2563eb",
            paths: uPlot.paths.bars!({ size: [0.9, 40] }),
            points: { show: false },
          },
        ],
        axes: [{}, { size: 40 }],
      },
      data,
      box.current,
    );
  });
  useEffect(() => () => plot.current?.destroy(), []);
  const peak = Math.max(0, ...buckets.map((b) => Number(b.count)));
  return (
    <figure>
      <div ref={box} data-testid="histogram" aria-hidden="true" />
      <figcaption>
        {String(total)} events in {buckets.length} buckets; the busiest bucket has {String(peak)}.
      </figcaption>
    </figure>
  );
}
