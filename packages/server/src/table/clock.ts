/** Table clocks: real timers for production, a manual clock for tests and simulations. */
import type { TableClock, TimerHandle } from './types.js';

/**
 * The production clock: `Date.now` and the global timers; a timer's handle is its own `Timeout`, with
 * nothing else made per timer (every decision arms one, and what outlives a young-generation
 * collection fills the old generation: docs/benchmarks.md, sixth session).
 */
export function realClock(): TableClock {
  return {
    now: () => Date.now(),
    setTimer(ms, fire) {
      return setTimeout(fire, ms).unref() as unknown as TimerHandle;
    },
    clearTimer(handle) {
      clearTimeout(handle as unknown as ReturnType<typeof setTimeout>);
    },
  };
}

/** A clock that moves only when told to: `advance(ms)` fires every timer due, in time order. */
export interface ManualClock extends TableClock {
  advance(ms: number): void;
  /** Timers waiting. */
  pending(): number;
  /** The time of the next timer, or null. */
  nextAt(): number | null;
}

export function manualClock(start = 1_700_000_000_000): ManualClock {
  interface Timer {
    readonly at: number;
    readonly fire: () => void;
  }
  let now = start;
  const timers = new Set<Timer>();
  /** The first timer due, the earliest set first among equals. */
  const due = (): Timer | null => {
    let best: Timer | null = null;
    for (const timer of timers) if (best === null || timer.at < best.at) best = timer;
    return best;
  };
  return {
    now: () => now,
    setTimer(ms, fire): TimerHandle {
      const timer: Timer = { at: now + Math.max(0, ms), fire };
      timers.add(timer);
      return timer as unknown as TimerHandle;
    },
    clearTimer(handle) {
      timers.delete(handle as unknown as Timer);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const timer = due();
        if (timer === null || timer.at > end) break;
        timers.delete(timer);
        now = Math.max(now, timer.at);
        timer.fire();
      }
      now = end;
    },
    pending: () => timers.size,
    nextAt: () => due()?.at ?? null,
  };
}
