/**
 * The live view's small time-series charts as plain SVG: a polyline through the samples, scaled so
 * that the largest value seen reaches the top (a flat zero line sits on the bottom). No chart library:
 * a line of a few dozen points is a few lines of code, and the console stays out of the players' bundle.
 */

export interface ChartGeometry {
  /** The `points` attribute of the polyline. */
  readonly points: string;
  /** The largest value drawn (the top of the chart). */
  readonly top: number;
}

/** Points for `values` (oldest first) in a `width` × `height` box; missing values (null) are skipped. */
export function chartGeometry(
  values: readonly (number | null)[],
  width: number,
  height: number,
): ChartGeometry {
  const present = values.filter((value): value is number => value !== null);
  const top = Math.max(0, ...present);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points: string[] = [];
  values.forEach((value, index) => {
    if (value === null) return;
    const y = top === 0 ? height : height - (value / top) * height;
    points.push(`${round(index * step)},${round(y)}`);
  });
  return { points: points.join(' '), top };
}

const round = (n: number): number => Math.round(n * 10) / 10;
