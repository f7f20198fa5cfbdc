import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceClock,
  beginBreak,
  clockView,
  countHand,
  pauseClock,
  remainingHands,
  remainingMs,
  resumeClock,
  startClock,
  type ClockDefinition,
  type LevelClock,
} from '../src/tournament/index.js';

const MIN = 60_000;
const byMinutes: ClockDefinition = {
  levelLength: { unit: 'minutes', value: 10 },
  breaks: { everyLevels: 2, minutes: 5 },
};
const byHands: ClockDefinition = {
  levelLength: { unit: 'hands', value: 3 },
  breaks: { everyLevels: 2, minutes: 5 },
};

const unwrap = (r: { ok: true; value: LevelClock } | { ok: false; error: { code: string } }): LevelClock => {
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
};

describe('level clock', () => {
  it('remaining time is the level’s length less the time elapsed', () => {
    const clock = startClock(1_000);
    expect(remainingMs(byMinutes, clock, 1_000)).toBe(10 * MIN);
    expect(remainingMs(byMinutes, clock, 1_000 + 4 * MIN)).toBe(6 * MIN);
  });

  it('a level ends at the instant its time runs out, and the next starts then', () => {
    const clock = advanceClock(byMinutes, startClock(0), 10 * MIN + 30_000);
    expect(clock.level).toBe(1);
    expect(remainingMs(byMinutes, clock, 10 * MIN + 30_000)).toBe(9 * MIN + 30_000);
  });

  it('a break every N levels is due when the level ends; no time runs until every table has finished its hand', () => {
    const due = advanceClock(byMinutes, startClock(0), 25 * MIN);
    expect(due).toMatchObject({ level: 1, phase: 'break-due' });
    expect(advanceClock(byMinutes, due, 60 * MIN)).toEqual(due);
    const onBreak = unwrap(beginBreak(due, 26 * MIN));
    expect(remainingMs(byMinutes, onBreak, 28 * MIN)).toBe(3 * MIN);
    const after = advanceClock(byMinutes, onBreak, 32 * MIN);
    expect(after).toMatchObject({ level: 2, phase: 'level' });
    expect(remainingMs(byMinutes, after, 32 * MIN)).toBe(9 * MIN);
  });

  it('a restart pauses the clock: the stored level goes on with the time it had left', () => {
    const running = startClock(0);
    const stored = unwrap(pauseClock(running, 7 * MIN)); // the last checkpoint before the crash
    const restarted = unwrap(resumeClock(stored, 500 * MIN));
    expect(remainingMs(byMinutes, restarted, 500 * MIN)).toBe(3 * MIN);
    expect(advanceClock(byMinutes, restarted, 503 * MIN).level).toBe(1);
  });

  it('levels by hands end with the hand that completes them at any table', () => {
    let clock = startClock(0);
    clock = countHand(byHands, clock, 'a', 1);
    clock = countHand(byHands, clock, 'b', 2);
    clock = countHand(byHands, clock, 'a', 3);
    expect(remainingHands(byHands, clock)).toBe(1);
    expect(remainingMs(byHands, clock, 3)).toBeNull();
    clock = countHand(byHands, clock, 'a', 4);
    expect(clock).toMatchObject({ level: 1, phase: 'level', handsByTable: {} });
    for (let i = 0; i < 3; i++) clock = countHand(byHands, clock, 'b', 5 + i);
    expect(clock.phase).toBe('break-due');
  });

  it('bad clock commands are typed errors', () => {
    const clock = startClock(0);
    expect(beginBreak(clock, 1)).toMatchObject({ ok: false, error: { code: 'BREAK_NOT_DUE' } });
    expect(resumeClock(clock, 1)).toMatchObject({ ok: false, error: { code: 'CLOCK_RUNNING' } });
    expect(pauseClock(clock, -1)).toMatchObject({ ok: false, error: { code: 'TIME_BACKWARDS' } });
    const paused = unwrap(pauseClock(clock, 1));
    expect(pauseClock(paused, 2)).toMatchObject({ ok: false, error: { code: 'CLOCK_PAUSED' } });
  });

  it('property: only running time counts, however the level is cut into pauses', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 0, max: 10 ** 9 })), {
          maxLength: 12,
        }),
        (segments) => {
          let now = 0;
          let clock = startClock(now);
          let ran = 0;
          for (const [run, down] of segments) {
            if (ran + run >= 10 * MIN) break;
            now += run;
            ran += run;
            clock = unwrap(pauseClock(clock, now));
            now += down;
            clock = unwrap(resumeClock(clock, now));
          }
          expect(advanceClock(byMinutes, clock, now).level).toBe(0);
          expect(remainingMs(byMinutes, clock, now)).toBe(10 * MIN - ran);
        },
      ),
    );
  });

  it('the players are shown the time left in a level by minutes or a break, the hands left in a level by hands, whether a break comes next, and whether the time is stopped', () => {
    expect(clockView(byMinutes, startClock(0), 4 * MIN)).toEqual({
      phase: 'level',
      remainingMs: 6 * MIN,
      remainingHands: null,
      breakNext: false,
      paused: false,
    });
    const second = advanceClock(byMinutes, startClock(0), 12 * MIN);
    expect(clockView(byMinutes, second, 12 * MIN)).toEqual({
      phase: 'level',
      remainingMs: 8 * MIN,
      remainingHands: null,
      breakNext: true,
      paused: false,
    });
    const due = advanceClock(byMinutes, second, 20 * MIN);
    expect(clockView(byMinutes, due, 20 * MIN)).toMatchObject({ phase: 'break-due', breakNext: false });
    const onBreak = unwrap(beginBreak(due, 21 * MIN));
    expect(clockView(byMinutes, onBreak, 23 * MIN)).toMatchObject({ phase: 'break', remainingMs: 3 * MIN });
    // Stopped (a deal open at the final table): the time left stands still, and the view says so.
    const held = unwrap(pauseClock(startClock(0), 4 * MIN));
    expect(clockView(byMinutes, held, 9 * MIN)).toMatchObject({ remainingMs: 6 * MIN, paused: true });
    const dealt = countHand(byHands, startClock(0), 't1', 0);
    expect(clockView(byHands, dealt, 0)).toEqual({
      phase: 'level',
      remainingMs: null,
      remainingHands: 2,
      breakNext: false,
      paused: false,
    });
  });
});
