/** Table clocks: real timers for production, a manual clock for tests and simulations. */
import type { TableClock, TableTimer } from './types.js';

/**
 * The production clock: `Date.now`, and timers kept in one binary heap (earliest first) with a single
 * Node timer waking the heap at its earliest time.
 *
 * Why not a `setTimeout` per timer: a busy room arms a clock for every decision, thousands a second;
 * each `Timeout` lived as long as the player thought (longer than a young-generation collection), so
 * all of them filled the old generation and brought its collections, and their pauses, sooner
 * (docs/benchmarks.md, sixth and eighth sessions). A table's timers are made once and armed again
 * and again; arming one only moves it in the heap, and the Node timer is replaced only when a timer
 * becomes due before it.
 */
export function realClock(): TableClock {
  const heap = new TimerHeap();
  return { now: () => Date.now(), timer: (fire) => new HeapTimer(heap, fire) };
}

class HeapTimer implements TableTimer {
  /** When it is due (`performance.now()` ms). */
  at = 0;
  /** Its place in the heap, or -1 when not running. */
  index = -1;

  constructor(
    private readonly heap: TimerHeap,
    readonly fire: () => void,
  ) {}

  get running(): boolean {
    return this.index >= 0;
  }

  start(ms: number): void {
    this.heap.schedule(this, ms);
  }

  stop(): void {
    this.heap.remove(this);
  }
}

/** The longest delay a Node timer holds. */
const MAX_DELAY_MS = 2 ** 31 - 1;

class TimerHeap {
  private readonly timers: HeapTimer[] = [];
  private wake: ReturnType<typeof setTimeout> | null = null;
  /** When `wake` fires (`performance.now()` ms); Infinity when it is not set. */
  private wakeAt = Infinity;

  schedule(timer: HeapTimer, ms: number): void {
    if (timer.index >= 0) this.removeAt(timer.index);
    timer.at = performance.now() + (ms > 0 ? ms : 0);
    timer.index = this.timers.length;
    this.timers.push(timer);
    this.up(timer.index);
    this.arm();
  }

  remove(timer: HeapTimer): void {
    // A wake-up set for it stays: it finds nothing due and sets the next one (cheaper than a new one now).
    if (timer.index >= 0) this.removeAt(timer.index);
  }

  private arm(): void {
    const first = this.timers[0];
    if (first === undefined || first.at >= this.wakeAt) return;
    if (this.wake !== null) clearTimeout(this.wake);
    this.wakeAt = first.at;
    // Node fires a longer delay than its timers hold (about 24.8 days) at once: wake up and look again.
    this.wake = setTimeout(this.run, Math.min(first.at - performance.now(), MAX_DELAY_MS)).unref();
  }

  private readonly run = (): void => {
    this.wake = null;
    this.wakeAt = Infinity;
    // Node's timers count whole milliseconds: one that wakes a fraction of one early sets another.
    const now = performance.now();
    try {
      for (let first = this.timers[0]; first !== undefined && first.at <= now; first = this.timers[0]) {
        this.removeAt(0);
        first.fire();
      }
    } finally {
      this.arm();
    }
  };

  private removeAt(index: number): void {
    const timers = this.timers;
    const removed = timers[index]!;
    const last = timers.pop()!;
    removed.index = -1;
    if (last === removed) return;
    timers[index] = last;
    last.index = index;
    this.up(index);
    this.down(last.index);
  }

  private up(index: number): void {
    const timers = this.timers;
    const timer = timers[index]!;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = timers[parentIndex]!;
      if (parent.at <= timer.at) break;
      timers[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    timers[index] = timer;
    timer.index = index;
  }

  private down(index: number): void {
    const timers = this.timers;
    const timer = timers[index]!;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= timers.length) break;
      if (child + 1 < timers.length && timers[child + 1]!.at < timers[child]!.at) child++;
      const next = timers[child]!;
      if (timer.at <= next.at) break;
      timers[index] = next;
      next.index = index;
      index = child;
    }
    timers[index] = timer;
    timer.index = index;
  }
}

/** A clock that moves only when told to: `advance(ms)` fires every timer due, in time order. */
export interface ManualClock extends TableClock {
  advance(ms: number): void;
  /** Timers running. */
  pending(): number;
  /** The time of the next timer, or null. */
  nextAt(): number | null;
}

export function manualClock(start = 1_700_000_000_000): ManualClock {
  interface ManualTimer extends TableTimer {
    readonly fire: () => void;
    at: number;
  }
  let now = start;
  /** In the order they were started. */
  const running = new Set<ManualTimer>();
  /** The first timer due, the earliest started first among equals. */
  const due = (): ManualTimer | null => {
    let best: ManualTimer | null = null;
    for (const timer of running) if (best === null || timer.at < best.at) best = timer;
    return best;
  };
  return {
    now: () => now,
    timer(fire): TableTimer {
      const timer: ManualTimer = {
        at: 0,
        fire,
        get running() {
          return running.has(timer);
        },
        start(ms) {
          timer.at = now + (ms > 0 ? ms : 0);
          running.delete(timer);
          running.add(timer);
        },
        stop() {
          running.delete(timer);
        },
      };
      return timer;
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const timer = due();
        if (timer === null || timer.at > end) break;
        running.delete(timer);
        now = Math.max(now, timer.at);
        timer.fire();
      }
      now = end;
    },
    pending: () => running.size,
    nextAt: () => due()?.at ?? null,
  };
}
