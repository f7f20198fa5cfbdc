import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { realClock } from '../src/table/clock.js';

// The production clock's timers share one heap and one Node timer; Node's timers and
// `performance.now()` are faked here so that every firing time is exact.
describe('real clock: timers in one heap', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const fakeTime = (): void => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  };

  it('each started timer fires once, at its time, earliest first', () => {
    fakeTime();
    const clock = realClock();
    const fired: string[] = [];
    const timers = ['a', 'b', 'c'].map((name) => clock.timer(() => fired.push(name)));
    timers[0]!.start(30);
    timers[1]!.start(10);
    timers[2]!.start(20);
    expect(timers.map((t) => t.running)).toEqual([true, true, true]);
    vi.advanceTimersByTime(15);
    expect(fired).toEqual(['b']);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['b', 'c', 'a']);
    expect(timers.map((t) => t.running)).toEqual([false, false, false]);
  });

  it('a stopped timer never fires; a restarted one fires once, at its new time', () => {
    fakeTime();
    const clock = realClock();
    const fired: string[] = [];
    const stopped = clock.timer(() => fired.push('stopped'));
    const moved = clock.timer(() => fired.push('moved'));
    stopped.start(10);
    moved.start(10);
    stopped.stop();
    moved.start(40);
    vi.advanceTimersByTime(39);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['moved']);
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual(['moved']);
  });

  it('a timer longer than a Node timer holds waits without waking the heap again and again', () => {
    fakeTime();
    const clock = realClock();
    const fired: string[] = [];
    const far = clock.timer(() => fired.push('far'));
    far.start(2 ** 33);
    const armed = vi.spyOn(globalThis, 'setTimeout');
    vi.advanceTimersByTime(1_000);
    expect(armed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2 ** 33);
    expect(fired).toEqual(['far']);
  });

  it('a timer started with a delay that is not a number fires at once', () => {
    fakeTime();
    const clock = realClock();
    const fired: string[] = [];
    clock.timer(() => fired.push('now')).start(Number.NaN);
    clock.timer(() => fired.push('later')).start(5);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['now']);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['now', 'later']);
  });

  it('a timer started while another fires (the next hand, the time bank) runs too', () => {
    fakeTime();
    const clock = realClock();
    const fired: number[] = [];
    const second = clock.timer(() => fired.push(Date.now()));
    const first = clock.timer(() => {
      fired.push(Date.now());
      second.start(5);
    });
    const start = Date.now();
    first.start(10);
    vi.advanceTimersByTime(100);
    expect(fired.map((t) => t - start)).toEqual([10, 15]);
  });

  it('any sequence of starts and stops fires exactly the timers left running, each at its time (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('start' as const), timer: fc.nat(7), ms: fc.nat(60) }),
      fc.record({ kind: fc.constant('stop' as const), timer: fc.nat(7) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.nat(25) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        fakeTime();
        try {
          const clock = realClock();
          const origin = Date.now();
          const firedAt: number[][] = Array.from({ length: 8 }, () => []);
          const timers = firedAt.map((times) => clock.timer(() => times.push(Date.now() - origin)));
          // The model: each timer's due time, or null.
          const due: (number | null)[] = timers.map(() => null);
          const expected: number[][] = Array.from({ length: 8 }, () => []);
          let now = 0;
          const waitUntil = (end: number): void => {
            for (;;) {
              let next = -1;
              for (let i = 0; i < 8; i++) {
                const at = due[i];
                if (at !== null && at !== undefined && at <= end && (next < 0 || at < due[next]!)) next = i;
              }
              if (next < 0) break;
              expected[next]!.push(due[next]!);
              due[next] = null;
            }
            vi.advanceTimersByTime(end - now);
            now = end;
          };
          for (const o of ops) {
            if (o.kind === 'start') {
              timers[o.timer]!.start(o.ms);
              due[o.timer] = now + o.ms;
            } else if (o.kind === 'stop') {
              timers[o.timer]!.stop();
              due[o.timer] = null;
            } else {
              waitUntil(now + o.ms);
            }
            expect(timers.map((t) => t.running)).toEqual(due.map((at) => at !== null));
          }
          waitUntil(now + 100);
          expect(firedAt).toEqual(expected);
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns: 300 },
    );
  });
});
