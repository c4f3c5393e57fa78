/**
 * A time chart drawn with uPlot (docs/dashboard.md "Statistics"): lines or bars of values per
 * bucket (x: bucket start, seconds since the epoch; a null value leaves a gap), fitted to its box's
 * width and redrawn when the box is resized, with a text caption for screen readers.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** One series: its label, one value per bucket (null: none), its colour, and bars or a line. */
export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
  bars?: boolean;
}

/** A chart of `series` over the buckets starting at `xs`; `format` writes a value with its unit. */
export function Chart(props: {
  title: string;
  xs: number[];
  series: ChartSeries[];
  format: (v: number) => string;
  caption: string;
  /** The values are counts: the axis ticks whole numbers only, from 0. */
  integer?: boolean;
  /** The values are rates (0-1): the axis runs from 0 to 1. */
  rate?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = props.series.map((s) => `${s.label}:${s.bars ? "b" : "l"}`).join("|");
  const data: uPlot.AlignedData = [props.xs, ...props.series.map((s) => s.values)];
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    plot.current?.destroy();
    plot.current = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 180,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true },
          // Counts and rates start at 0 (an empty chart is not drawn from 0 to 100).
          y: props.rate
            ? { range: [0, 1] }
            : props.integer
              ? { range: (_u: uPlot, _min: number, max: number) => [0, Math.max(1, Math.ceil(max))] }
              : {},
        },
        series: [
          {},
          ...props.series.map((s) => ({
            label: s.label,
            stroke: s.color,
            fill: s.bars ? `${s.color}88` : undefined,
            width: 2,
            paths: s.bars ? uPlot.paths.bars!({ size: [0.8, 30] }) : undefined,
            // Points show a lone value between gaps, which a line alone would not draw.
            points: { show: !s.bars, size: 5 },
            spanGaps: false,
            value: (_u: uPlot, v: number | null) => (v === null ? "—" : props.format(v)),
          })),
        ],
        axes: [
          {},
          {
            size: 64,
            values: (_u, vs) => vs.map((v) => props.format(v)),
            ...(props.integer ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] } : {}),
          },
        ],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.current?.setSize({ width: Math.max(280, el.clientWidth), height: 180 }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [shape]);
  useEffect(() => {
    plot.current?.setData(data);
  });
  return (
    <figure class="chart">
      <h3>{props.title}</h3>
      <div ref={box} aria-hidden="true" data-testid="chart" />
      <figcaption>{props.caption}</figcaption>
    </figure>
  );
}
