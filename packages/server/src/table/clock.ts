/** Table clocks: real timers for production, a manual clock for tests and simulations. */
import type { TableClock, TimerHandle } from './types.js';

/** The production clock: `Date.now` and the global timers. */
export function realClock(): TableClock {
  let next = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    now: () => Date.now(),
    setTimer(ms, fire) {
      const id = next++;
      const timer = setTimeout(() => {
        timers.delete(id);
        fire();
      }, ms);
      timer.unref();
      timers.set(id, timer);
      return { id };
    },
    clearTimer(handle) {
      const timer = timers.get(handle.id);
      if (timer !== undefined) clearTimeout(timer);
      timers.delete(handle.id);
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
  let now = start;
  let next = 1;
  const timers = new Map<number, { at: number; fire: () => void }>();
  const due = (): [number, { at: number; fire: () => void }] | null => {
    let best: [number, { at: number; fire: () => void }] | null = null;
    for (const entry of timers) if (best === null || entry[1].at < best[1].at) best = entry;
    return best;
  };
  return {
    now: () => now,
    setTimer(ms, fire): TimerHandle {
      const id = next++;
      timers.set(id, { at: now + Math.max(0, ms), fire });
      return { id };
    },
    clearTimer(handle) {
      timers.delete(handle.id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const entry = due();
        if (entry === null || entry[1].at > end) break;
        timers.delete(entry[0]);
        now = Math.max(now, entry[1].at);
        entry[1].fire();
      }
      now = end;
    },
    pending: () => timers.size,
    nextAt: () => due()?.[1].at ?? null,
  };
}
