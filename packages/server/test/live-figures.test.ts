/**
 * The console's live view: hands a minute are the hands dealt since the last sample a minute old (or
 * since the first sample, in the first minute), samples are kept for their time and no longer, and the
 * windowed figures are /health's p50 and p99.
 */
import { describe, expect, it } from 'vitest';
import { LiveFigures, type RoomReadings } from '../src/transport/live-figures.js';

function room(): {
  readings: { -readonly [K in keyof RoomReadings]: RoomReadings[K] };
  time: { now: number };
} {
  return {
    readings: {
      tables: 3,
      playersOnline: 0,
      connections: 0,
      handsStarted: 0,
      errors: 0,
      actLatencyMs: null,
      eventLoopDelayMs: null,
      failedTables: [],
      cluster: null,
    },
    time: { now: 1_000_000 },
  };
}

describe('live figures', () => {
  it('hands a minute count the hands dealt since the sample a minute before (since the first in the first minute)', () => {
    const { readings, time } = room();
    const figures = new LiveFigures(() => readings, { periodMs: 10_000, clock: () => time.now });
    figures.sample();
    for (let step = 1; step <= 12; step++) {
      time.now += 10_000;
      readings.handsStarted += step; // 1, 2, … 12 hands in each 10 s
      figures.sample();
      // Within the first minute: every hand since the first sample (1 + 2 + … + step).
      if (step <= 6) expect(figures.view().now.handsPerMinute).toBe((step * (step + 1)) / 2);
    }
    // At 120 s: the sample at 60 s held 21 hands, now 78: 57 in the last minute (7 + 8 + … + 12).
    expect(figures.view().now.handsPerMinute).toBe(7 + 8 + 9 + 10 + 11 + 12);
  });

  it('keeps the samples of the last keepMs only, oldest first, and passes /health’s windows as p50 and p99', () => {
    const { readings, time } = room();
    const figures = new LiveFigures(() => readings, { periodMs: 1000, keepMs: 5000, clock: () => time.now });
    for (let i = 0; i < 8; i++) {
      readings.playersOnline = i;
      figures.sample();
      time.now += 1000;
    }
    readings.actLatencyMs = { p50: 2.5, p99: 9, max: 12, count: 40 };
    const view = figures.view();
    expect(view.samples.map((s) => s.playersOnline)).toEqual([3, 4, 5, 6, 7]);
    expect(view.periodMs).toBe(1000);
    expect(view.now).toMatchObject({ tables: 3, playersOnline: 7, actLatencyMs: { p50: 2.5, p99: 9 } });
    expect(view.now.eventLoopDelayMs).toBeNull();
  });
});
