/**
 * A failure sparkline (docs/dashboard.md "Tests"): one bar per UTC day, oldest first, its height
 * the day's failed runs over the busiest day's. Drawn as inline SVG (a row of a table holds one,
 * so a uPlot instance per row would cost more than it shows); the counts are also its text
 * (`aria-label` and `title`), so the figure does not rest on the picture alone.
 */

/** The bars of `counts` (failures per day, oldest first) in a 70 × 16 px box. */
export function Sparkline({ counts, days = counts.length }: { counts: number[]; days?: number }) {
  const width = 70;
  const height = 16;
  const max = Math.max(1, ...counts);
  const step = width / Math.max(1, counts.length);
  const total = counts.reduce((a, b) => a + b, 0);
  const text = `${total} failure${total === 1 ? "" : "s"} over ${days} days, per day: ${counts.join(", ")}`;
  return (
    <svg
      class="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={text}
      data-testid="sparkline"
    >
      <title>{text}</title>
      <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} stroke="currentColor" stroke-opacity="0.25" />
      {counts.map((c, i) => {
        const h = c === 0 ? 0 : Math.max(2, (c / max) * (height - 1));
        return (
          <rect
            key={i}
            x={i * step + 0.5}
            y={height - 1 - h}
            width={Math.max(1, step - 1)}
            height={h}
            fill="var(--bad)"
          />
        );
      })}
    </svg>
  );
}
