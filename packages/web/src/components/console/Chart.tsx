import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const HEIGHT = 90;
const AXIS = { ticks: { show: false }, size: 22, font: '10px sans-serif' } as const;

/** A sample's time as the room's clock shows it: `17:25:30`. */
const clockTime = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleTimeString('en-GB', { hour12: false });

/** A colour of the page's theme (a CSS variable), for the canvas, which cannot read variables. */
const themeColour = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/**
 * A figure now, with its line over the recent samples (uPlot: a small, well-kept canvas chart library,
 * loaded with the console's chunk only). `times` are the samples' times in ms, `history` their values
 * (null: not measured then, drawn as a gap).
 */
export function Figure({
  label,
  value,
  times,
  history,
  unit = '',
}: {
  label: string;
  value: number | null;
  times: readonly number[];
  history: readonly (number | null)[];
  unit?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');

  // One chart for the figure's life; its data and size follow.
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const muted = themeColour('--muted', '#8a9a93');
    const grid = themeColour('--line', '#2a3a34');
    const plot = new uPlot(
      {
        width: element.clientWidth || 240,
        height: HEIGHT,
        legend: { show: false },
        cursor: { y: false, points: { size: 6 } },
        scales: { y: { range: (_u, _min, max) => [0, max > 0 ? max : 1] } },
        axes: [
          {
            ...AXIS,
            stroke: muted,
            grid: { stroke: grid, width: 1 },
            space: 64,
            // One line of labels (the clock), where uPlot would add the date under it.
            values: (_u, splits) => splits.map((seconds) => clockTime(seconds)),
          },
          { ...AXIS, stroke: muted, grid: { stroke: grid, width: 1 }, size: 44 },
        ],
        series: [{}, { stroke: themeColour('--accent-2', '#4fc3a1'), width: 2, spanGaps: false }],
      },
      [[], []],
      element,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: element.clientWidth || 240, height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setData([times.map((ms) => ms / 1000), [...history]]);
  }, [times, history]);

  const top = Math.max(0, ...history.filter((entry): entry is number => entry !== null));
  return (
    <figure className="figure" data-testid={`figure-${slug}`}>
      <figcaption>
        {label}
        <b data-testid={`value-${slug}`}>
          {value === null ? '—' : `${value.toLocaleString('en-US')}${unit}`}
        </b>
      </figcaption>
      <div
        ref={box}
        className="chart"
        role="img"
        aria-label={`${label} over the last ${history.length} samples, at most ${top.toLocaleString('en-US')}${unit}`}
      />
    </figure>
  );
}
