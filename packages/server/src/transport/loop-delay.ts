/**
 * How long the event loop keeps callbacks waiting — the first figure to read when a room feels slow
 * (every socket and every table waits behind it). Sampled every 10 ms by node:perf_hooks; `/health`
 * reports the last complete window of 10 seconds.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export class LoopDelayMonitor {
  readonly #histogram = monitorEventLoopDelay({ resolution: 10 });
  readonly #timer: NodeJS.Timeout;
  #last: LoopDelay | null = null;

  constructor(windowMs = 10_000) {
    this.#histogram.enable();
    this.#timer = setInterval(() => {
      const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
      const h = this.#histogram;
      this.#last = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
      h.reset();
    }, windowMs);
    this.#timer.unref();
  }

  /** Milliseconds over the last complete window (null during the first one). */
  get last(): LoopDelay | null {
    return this.#last;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#histogram.disable();
  }
}
