/**
 * The staff console's live view (`staff-figures`): the room's figures now — the gauges and counters of
 * `/metrics` (./metrics.ts) and the windowed p50/p99 of `/health` (./figures.ts) — and a sample of them
 * every period over the last minutes, kept in memory, so that a console opened now draws its charts at
 * once rather than only from the moment it opened.
 */
import type { FigureSample, LiveFiguresView, WindowView } from '@felt/protocol';
import type { WindowFigures } from './figures.js';

/** What the room reads at one moment. */
export interface RoomReadings {
  readonly tables: number;
  readonly playersOnline: number;
  readonly connections: number;
  readonly handsStarted: number;
  readonly errors: number;
  readonly actLatencyMs: WindowFigures | null;
  readonly eventLoopDelayMs: WindowFigures | null;
  readonly failedTables: LiveFiguresView['failedTables'];
  readonly cluster: LiveFiguresView['cluster'];
}

export interface LiveFiguresOptions {
  /** A sample every this long; default 5 s. */
  readonly periodMs?: number;
  /** Samples kept for this long; default 10 minutes. */
  readonly keepMs?: number;
  readonly clock?: () => number;
}

const MINUTE_MS = 60_000;

const windowView = (figures: WindowFigures | null): WindowView | null =>
  figures === null ? null : { p50: figures.p50, p99: figures.p99 };

export class LiveFigures {
  readonly #read: () => RoomReadings;
  readonly #periodMs: number;
  readonly #keep: number;
  readonly #clock: () => number;
  readonly #samples: FigureSample[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(read: () => RoomReadings, options: LiveFiguresOptions = {}) {
    this.#read = read;
    this.#periodMs = options.periodMs ?? 5000;
    this.#keep = Math.max(1, Math.ceil((options.keepMs ?? 10 * MINUTE_MS) / this.#periodMs));
    this.#clock = options.clock ?? Date.now;
  }

  /** Takes the first sample (the start of the hands-a-minute count) and one every period from now. */
  start(): void {
    this.sample();
    this.#timer = setInterval(() => {
      this.sample();
    }, this.#periodMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Records a sample now (the timer's; tests call it to step time). */
  sample(): void {
    this.#samples.push(this.#now().sample);
    if (this.#samples.length > this.#keep) this.#samples.shift();
  }

  view(): LiveFiguresView {
    const { sample, read } = this.#now();
    return {
      now: sample,
      periodMs: this.#periodMs,
      samples: [...this.#samples],
      failedTables: read.failedTables,
      cluster: read.cluster,
    };
  }

  #now(): { sample: FigureSample; read: RoomReadings } {
    const at = this.#clock();
    const read = this.#read();
    const sample: FigureSample = {
      at,
      tables: read.tables,
      playersOnline: read.playersOnline,
      connections: read.connections,
      handsStarted: read.handsStarted,
      handsPerMinute: read.handsStarted - this.#handsAt(at - MINUTE_MS),
      actLatencyMs: windowView(read.actLatencyMs),
      eventLoopDelayMs: windowView(read.eventLoopDelayMs),
      errors: read.errors,
    };
    return { sample, read };
  }

  /** Hands dealt by `at`: the last sample at or before it, else the first one (the count's start). */
  #handsAt(at: number): number {
    let hands = this.#samples[0]?.handsStarted ?? 0;
    for (const sample of this.#samples) {
      if (sample.at > at) break;
      hands = sample.handsStarted;
    }
    return hands;
  }
}
