import { chartGeometry } from './chart';

const WIDTH = 240;
const HEIGHT = 48;

/** A figure now, with its line over the recent samples. */
export function Figure({
  label,
  value,
  history,
  unit = '',
}: {
  label: string;
  value: number | null;
  history: readonly (number | null)[];
  unit?: string;
}) {
  const { points, top } = chartGeometry(history, WIDTH, HEIGHT);
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <figure className="figure" data-testid={`figure-${slug}`}>
      <figcaption>
        {label}
        <b data-testid={`value-${slug}`}>
          {value === null ? '—' : `${value.toLocaleString('en-US')}${unit}`}
        </b>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={`${label} over the last ${history.length} samples, at most ${top.toLocaleString('en-US')}${unit}`}
      >
        <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="axis" />
        <polyline points={points} className="line" />
      </svg>
    </figure>
  );
}
