/**
 * The figures `/health` reports, each over the last complete window (10 seconds):
 * - the event loop's delay, sampled every 10 ms by node:perf_hooks — how long callbacks wait, the first
 *   figure to read when a room feels slow (every socket and every table waits behind it);
 * - the server's share of an action's latency: from the `act` frame's arrival to its ack (durable and
 *   announced). What a player measures adds the network and his own client's delays.
 */
import { createHistogram, monitorEventLoopDelay, type Histogram } from 'node:perf_hooks';

/** Milliseconds over one window; `count`: how many values it holds. */
export interface WindowFigures {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly count: number;
}

/**
 * An event-loop delay histogram samples the time between two ticks of a timer of this period: the
 * delay is what exceeds it (`figuresOf(histogram, LOOP_DELAY_BASE_NS)`).
 */
export const LOOP_SAMPLE_MS = 10;
export const LOOP_DELAY_BASE_NS = LOOP_SAMPLE_MS * 1e6;

/** A histogram of nanoseconds (less `baseNs`) in milliseconds; zeros when it is empty. */
export function figuresOf(histogram: Histogram, baseNs = 0): WindowFigures {
  if (histogram.count === 0) return { p50: 0, p99: 0, max: 0, count: 0 };
  const ms = (ns: number): number => Math.max(0, Math.round((ns - baseNs) / 1e4) / 100);
  return {
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    count: histogram.count,
  };
}

/** A histogram read and reset at the end of every window. */
class Windowed {
  readonly #timer: NodeJS.Timeout;
  #last: WindowFigures | null = null;

  constructor(histogram: Histogram, windowMs: number, baseNs = 0) {
    this.#timer = setInterval(() => {
      this.#last = figuresOf(histogram, baseNs);
      histogram.reset();
    }, windowMs);
    this.#timer.unref();
  }

  /** The last complete window (null during the first one). */
  get last(): WindowFigures | null {
    return this.#last;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

export class LoopDelayMonitor extends Windowed {
  readonly #histogram;

  constructor(windowMs = 10_000) {
    const histogram = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    super(histogram, windowMs, LOOP_DELAY_BASE_NS);
    histogram.enable();
    this.#histogram = histogram;
  }

  override stop(): void {
    super.stop();
    this.#histogram.disable();
  }
}

export class LatencyRecorder extends Windowed {
  readonly #histogram;
  readonly #listener: ((seconds: number) => void) | null;

  /** `listener`: told of each latency too (in seconds: `/metrics`). */
  constructor(windowMs = 10_000, listener?: (seconds: number) => void) {
    const histogram = createHistogram();
    super(histogram, windowMs);
    this.#histogram = histogram;
    this.#listener = listener ?? null;
  }

  /** Records one latency, from `since` (a `performance.now()` reading) to now. */
  record(since: number): void {
    const ms = performance.now() - since;
    this.#histogram.record(Math.max(1, Math.round(ms * 1e6)));
    this.#listener?.(ms / 1000);
  }
}
