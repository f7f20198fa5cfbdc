import type { FigureSample, LiveFiguresView } from '@felt/protocol';
import { useEffect, useState } from 'react';
import { useStore } from '../../hooks';
import { Figure } from './Chart';
import { Cluster } from './Cluster';

/** How often the live view asks the room for its figures. */
const POLL_MS = 2000;

const span = (ms: number): string =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;

/** The room now and over the last minutes: the figures of `/metrics` and `/health`. */
export function Live() {
  const store = useStore();
  const [figures, setFigures] = useState<LiveFiguresView | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => {
      void store.staff('staff-figures').then((answer) => {
        if (live && answer !== null) setFigures(answer.figures);
      });
    };
    load();
    const timer = setInterval(load, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [store]);
  if (figures === null) return <p className="meta">Reading the room…</p>;
  const { now } = figures;
  // The samples, then the reading of now, so that the line ends where the number stands.
  const series = [...figures.samples, now];
  const line = (read: (sample: FigureSample) => number | null) => series.map(read);
  const times = series.map((sample) => sample.at);
  return (
    <section aria-label="Live view">
      <p className="meta">
        A sample every {figures.periodMs / 1000} s over the last{' '}
        {span(now.at - (figures.samples[0]?.at ?? now.at))}; latency and loop delay over the last window of
        /health.
      </p>
      {figures.failedTables.length === 0 ? null : (
        <ul className="error" role="alert">
          {figures.failedTables.map((failed) => (
            <li key={failed.tableId}>
              Table {failed.tableId} stopped: {failed.error}
            </li>
          ))}
        </ul>
      )}
      <div className="figures">
        <Figure times={times} label="Tables" value={now.tables} history={line((s) => s.tables)} />
        <Figure
          times={times}
          label="Players online"
          value={now.playersOnline}
          history={line((s) => s.playersOnline)}
        />
        <Figure
          times={times}
          label="Connections"
          value={now.connections}
          history={line((s) => s.connections)}
        />
        <Figure
          times={times}
          label="Hands a minute"
          value={now.handsPerMinute}
          history={line((s) => s.handsPerMinute)}
        />
        <Figure
          times={times}
          label="Hands dealt"
          value={now.handsStarted}
          history={line((s) => s.handsStarted)}
        />
        <Figure
          times={times}
          label="Action latency p50"
          unit=" ms"
          value={now.actLatencyMs?.p50 ?? null}
          history={line((s) => s.actLatencyMs?.p50 ?? null)}
        />
        <Figure
          times={times}
          label="Action latency p99"
          unit=" ms"
          value={now.actLatencyMs?.p99 ?? null}
          history={line((s) => s.actLatencyMs?.p99 ?? null)}
        />
        <Figure
          times={times}
          label="Event-loop delay p99"
          unit=" ms"
          value={now.eventLoopDelayMs?.p99 ?? null}
          history={line((s) => s.eventLoopDelayMs?.p99 ?? null)}
        />
        <Figure times={times} label="Errors" value={now.errors} history={line((s) => s.errors)} />
      </div>
      {figures.cluster === null ? null : <Cluster cluster={figures.cluster} />}
    </section>
  );
}
